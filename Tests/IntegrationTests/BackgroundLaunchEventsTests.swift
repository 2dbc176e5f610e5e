import Foundation
import TestSupport
import Testing

/// `sessionSendsLaunchEvents`: whether the service "launches" (retries webhooks to) a client that cannot be
/// reached. Without launch events its events wait, still readable, until it re-attaches to the session.
@Suite("Background sessions: launch events")
struct BackgroundLaunchEventsTests {
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func anUnreachableClientGetsItsEventsWhenItReattaches(sendsLaunchEvents: Bool) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.setDefaultReply(.status(503))  // the client is gone
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "0.1,0.1,0.1,0.1,0.1,0.1"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let body = try jsonText([
                "configuration": ["kind": "background", "identifier": "com.example.quiet", "sessionSendsLaunchEvents": sendsLaunchEvents],
                "delegate": ["url": receiver.url("/hooks")],
            ])
            let session = try #require(try await api.createSession(json: body)["id"] as? String)
            let task = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/10")]])
            #expect(task.errorCode == nil, "\(task)")
            let logged = try await api.allEvents("/v1/sessions/\(session)/events").compactMap { $0["id"] as? String }
            #expect(logged.count >= 4, "didCreateTask … didCompleteWithError")

            _ = try await receiver.waitForRequests(count: 1, path: "/hooks", timeout: 10)
            try await Task.sleep(for: .seconds(1))  // ten retry periods
            let attempts = receiver.requests(path: "/hooks").count
            if sendsLaunchEvents {
                #expect(attempts > 1, "a client with launch events is retried")
            } else {
                #expect(attempts == 1, "one attempt, then the events wait for the client")
            }

            receiver.setDefaultReply(.ok)  // the client is back and re-attaches
            let again = try await api.post("/v1/sessions", json: body)
            #expect(again.status == 200, "\(again.text)")
            let all = try await api.allEvents("/v1/sessions/\(session)/events").compactMap { $0["id"] as? String }
            #expect(all.count == logged.count + 1, "the re-attach adds didFinishEventsForBackgroundURLSession")
            try await eventually(timeout: 20, interval: 0.05) {
                Set(receiver.requests(path: "/hooks").compactMap { $0.header("webhook-id") }).isSuperset(of: all)
            }
            var firsts: [String] = []
            for request in receiver.requests(path: "/hooks") {
                guard let id = request.header("webhook-id"), !firsts.contains(id) else { continue }
                firsts.append(id)
            }
            #expect(firsts == all, "every event once first, in sequence order, the finish event last")
            let last = try #require(receiver.requests(path: "/hooks").last).json()
            #expect(last["type"] as? String == "session.didFinishEventsForBackgroundURLSession")
        }
    }
}
