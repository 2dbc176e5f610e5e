import Foundation
import TestSupport
import Testing

/// Webhook slots are shared between tenants: one tenant's unreachable receivers never hold the others'
/// events, and a held background session is not tried again.
@Suite("Webhook fairness")
struct WebhookFairnessTests {
    /// Tenant A's receivers never answer (each POST holds its slot for the 10 s timeout) and A has more
    /// queues than the dispatcher has slots; A takes at most its cap (half the slots by default), and
    /// tenant B's events still go out at once.
    @Test(.timeLimit(.minutes(2)))
    func aTenantsBlackHoledReceiversDoNotHoldAnothersEvents() async throws {
        let origin = try FixtureOrigin.start()
        let blackHole = try WebhookReceiver.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            blackHole.stop()
            receiver.stop()
        }
        blackHole.setDefaultReply(.status(200, delay: 30))
        let environment = TaskEnvironment.loopback.merging([
            "URLSESSIOND_WEBHOOK_CONCURRENCY": "4", "URLSESSIOND_WEBHOOK_TIMEOUT": "10",
        ]) { $1 }
        try await withTaskService(environment: environment) { tenantA, service in
            let tenantB = API(service, tenantA.client, token: Tokens.tenantB)
            for index in 0..<6 {
                let session = try await Self.session(tenantA, delegate: blackHole.url("/a\(index)"))
                _ = try await tenantA.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            }
            _ = try await blackHole.waitForRequests(count: 2, timeout: 10)  // every slot A may take is taken
            let started = Date()
            let session = try await Self.session(tenantB, delegate: receiver.url("/b"))
            _ = try await tenantB.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            let delivered = try await receiver.waitForRequests(count: 1, path: "/b", timeout: 20)
            let waited = try #require(delivered.first).receivedAt.timeIntervalSince(started)
            #expect(waited < 5, "B's first event waited \(waited) s behind A's black-holed POSTs")
            #expect(blackHole.requests.count == 2, "A holds its cap of 2, no more: \(blackHole.requests.count)")
        }
    }

    /// `sessionSendsLaunchEvents: false`: after the one failed attempt, events keep arriving (a download's
    /// progress, scans every 2 s) and none of them makes the dispatcher try the held queue again.
    @Test(.timeLimit(.minutes(1)))
    func aHeldSessionGetsNoFurtherAttempt() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        receiver.setDefaultReply(.status(503))
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "0.05"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let body = try jsonText([
                "configuration": ["kind": "background", "identifier": "com.example.held", "sessionSendsLaunchEvents": false],
                "delegate": ["url": receiver.url("/hooks"), "events": ["*"]],
            ])
            let session = try #require(try await api.createSession(json: body)["id"] as? String)
            for seed in 0..<3 {
                let url = origin.url("/bytes/300000?seed=\(seed)&rate=200000")
                _ = try await api.runTask(session: session, ["kind": "download", "request": ["url": url]])
            }
            try await Task.sleep(for: .milliseconds(2500))  // a rescan
            #expect(receiver.requests(path: "/hooks").count == 1, "one attempt, then the events wait for the client")
        }
    }

    static func session(_ api: API, delegate url: String) async throws -> String {
        let body = try jsonText(["delegate": ["url": url, "events": ["*"]]])
        return try #require(try await api.createSession(json: body)["id"] as? String)
    }
}
