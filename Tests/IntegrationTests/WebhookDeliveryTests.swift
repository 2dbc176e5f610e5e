import Foundation
import TestSupport
import Testing

/// The delegate's events as webhooks, through the real binary: signed per Standard Webhooks (checked by
/// the independent `standardwebhooks` Python package), in order and gap-free, ids stable across a retry.
@Suite("Webhooks through the real binary")
struct WebhookDeliveryTests {
    static var python: URL { venvProgram("python") }

    /// Verifies every request with `secret` (all must pass) and with `wrongSecret` (all must fail).
    static let verifier = """
        import json, sys
        from standardwebhooks import Webhook
        from standardwebhooks.webhooks import WebhookVerificationError
        requests = json.load(open(sys.argv[1]))
        right, wrong = Webhook(sys.argv[2]), Webhook(sys.argv[3])
        for request in requests:
            right.verify(request["body"], request["headers"])
            try:
                wrong.verify(request["body"], request["headers"])
                sys.exit("verified with the wrong secret: " + request["headers"]["webhook-id"])
            except WebhookVerificationError:
                pass
        print("verified", len(requests))
        """

    @Test(.timeLimit(.minutes(3)))
    func signedInOrderGapFreeAndStableAcrossARetry() async throws {
        let python = Self.python
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "\(python.path): run `make test-deps`")
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.script([.status(503)])  // the first delivery fails once and is retried
        let environment = TaskEnvironment.loopback.merging([
            "URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "0.2,0.2,0.5", "URLSESSIOND_WEBHOOK_TIMEOUT": "5",
        ]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.createSession(
                json: try jsonText(["delegate": ["url": receiver.url("/hooks")], "sessionDescription": "webhooks"]))
            let sessionID = try #require(session["id"] as? String)
            let secret = try #require((session["delegate"] as? [String: Any])?["secret"] as? String)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // A mix of data, download and upload tasks running at once.
                for index in 0..<6 {
                    group.addTask {
                        var body: [String: Any] = ["kind": "data", "request": ["url": origin.url("/bytes/\(100 + index)?seed=\(index)")]]
                        if index % 3 == 1 { body["kind"] = "download" }
                        if index % 3 == 2 {
                            body = [
                                "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"],
                                "uploadSource": ["data": ["text": String(repeating: "u", count: 3000 + index)]],
                            ]
                        }
                        let task = try await api.runTask(session: sessionID, body)
                        #expect(task.statusCode == 200, "\(task)")
                    }
                }
                try await group.waitForAll()
            }
            let invalidated = try await api.post("/v1/sessions/\(sessionID)/finishTasksAndInvalidate")
            #expect(invalidated.status == 200, "\(invalidated.text)")

            // session.didBecomeInvalidWithError is the session's last event.
            try await eventually(timeout: 30, interval: 0.05) {
                receiver.requests.contains { (try? $0.json())?["type"] as? String == "session.didBecomeInvalidWithError" }
            }
            let requests = receiver.requests
            #expect(requests.count >= 2 && requests[0].header("webhook-id") == requests[1].header("webhook-id"))
            #expect(requests[0].body == requests[1].body, "a retry sends the same event")
            var delivered: [[String: Any]] = []
            for (index, request) in requests.enumerated() where index != 0 {  // the first was answered 503
                delivered.append(try request.json())
            }
            let sequences = delivered.compactMap { int($0["sequence"]) }
            #expect(sequences == Array(1...delivered.count), "in order, without gaps or repeats")
            #expect(delivered.allSatisfy { $0["sessionId"] as? String == sessionID && $0["data"] is [String: Any] })
            #expect(delivered.map { $0["id"] as? String } == requests.dropFirst().map { $0.header("webhook-id") })
            #expect(delivered.last?["type"] as? String == "session.didBecomeInvalidWithError")
            let types = Set(delivered.compactMap { $0["type"] as? String })
            #expect(
                types.isSuperset(of: [
                    "task.didCreateTask", "dataTask.didReceiveResponse", "downloadTask.didWriteData", "task.didSendBodyData",
                    "downloadTask.didFinishDownloadingTo", "task.didCompleteWithError",
                ]), "\(types)")
            // The webhooks are the session's log, event for event: what polling reads.
            let polled = try await api.allEvents("/v1/sessions/\(sessionID)/events").compactMap { $0["id"] as? String }
            #expect(polled == delivered.compactMap { $0["id"] as? String })

            try await Self.verify(requests, secret: secret, python: python)
            let metrics = try await api.get("/metrics")
            #expect(metrics.text.contains("urlsessiond_events_delivered_total"))
        }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            ("URLSESSIOND_WEBHOOK_RETRY_SCHEDULE", "5,,30"), ("URLSESSIOND_WEBHOOK_RETRY_SCHEDULE", "soon"),
            ("URLSESSIOND_WEBHOOK_TIMEOUT", "0"), ("URLSESSIOND_WEBHOOK_TIMEOUT", "fast"),
        ])
    func invalidSettingsAreRefusedByName(variable: String, value: String) async throws {
        let directory = try TemporaryDirectory.make(prefix: "webhook-config")
        defer { directory.remove() }
        do {
            let service = try await ServiceProcess.start(
                dataDirectory: directory.url, environment: [variable: value], startupTimeout: 20)
            await service.kill9()
            Issue.record("started with \(variable)=\(value)")
        } catch let error as ServiceProcessError {
            #expect(error.logTail.contains(variable), "\(error)")
            if let log = error.logFile { try? FileManager.default.removeItem(at: log) }
        }
    }

    /// Runs the Python verifier over every request the receiver got.
    static func verify(_ requests: [WebhookReceiver.Request], secret: String, python: URL) async throws {
        let directory = try TemporaryDirectory.make(prefix: "webhook-verify")
        defer { directory.remove() }
        let dump = requests.map { request in
            [
                "body": request.text,
                "headers": Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first },
            ] as [String: Any]
        }
        let file = directory.appending("requests.json")
        try JSONSerialization.data(withJSONObject: dump).write(to: file)
        let wrongSecret = "whsec_" + Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let result = try await runProcess(
            python, arguments: ["-c", verifier, file.path, secret, wrongSecret], workingDirectory: directory.url,
            timeout: 60)
        #expect(result.status == 0, "standardwebhooks: \(result.output)")
        #expect(result.output.contains("verified \(requests.count)"), "\(result.output)")
    }
}

/// The outbox survives the service: a receiver that is down across a restart gets every event after it.
@Suite("Webhooks across a restart")
struct WebhookRestartTests {
    @Test(.timeLimit(.minutes(2)))
    func aReceiverDownAcrossARestartGetsEveryEventInOrder() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.setDefaultReply(.status(503))  // down
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-outbox")
        defer { directory.remove() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "0.2,0.3"]) { $1 }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: environment)
        let api = API(first, client)
        let session = try #require(
            try await api.createSession(
                json: try jsonText(["delegate": ["url": receiver.url("/hooks")]]))["id"] as? String)
        for index in 0..<3 {
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/\(10 + index)")]])
            #expect(task.statusCode == 200)
        }
        let logged = try await api.allEvents("/v1/sessions/\(session)/events").compactMap { $0["id"] as? String }
        #expect(try await first.terminate() == 0)

        receiver.setDefaultReply(.ok)  // back up, while the service is down
        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: environment)
        try await eventually(timeout: 30, interval: 0.05) {
            Set(receiver.requests.compactMap { $0.header("webhook-id") }).isSuperset(of: logged)
        }
        // Each event's first attempt, in order (only the head is tried while the receiver is down): the
        // session's log, event for event.
        var firsts: [String] = []
        var seen = Set<String>()
        for request in receiver.requests {
            guard let id = request.header("webhook-id"), !seen.contains(id) else { continue }
            seen.insert(id)
            firsts.append(id)
        }
        #expect(firsts == logged, "every event, in sequence order")
        #expect(try await second.terminate() == 0)
    }
}
