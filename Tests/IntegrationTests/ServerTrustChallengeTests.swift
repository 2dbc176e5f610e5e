import Foundation
import TestSupport
import Testing

/// Server trust as URLSession routes it: a new TLS connection's chain goes to `session.didReceiveChallenge`
/// (else `task.didReceiveChallenge`) before the request leaves, with the system's evaluation; the answer
/// accepts the chain, leaves it to the default handling (the trust store, then stored trust exceptions),
/// or cancels. Against nginx with a self-signed certificate.
@Suite("Server trust challenges")
struct ServerTrustChallengeTests {
    static let sessionChallenge = "session.didReceiveChallenge"

    /// The SHA-256 of the certificate at `path` (hex) and of its public key (base64), by the openssl CLI.
    static func digests(of path: String) throws -> (certificate: String, spki: String) {
        let script = """
            openssl x509 -in '\(path)' -outform der | openssl dgst -sha256 -r | cut -d' ' -f1
            openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64
            """
        let output = try shell(script).split(separator: "\n").map(String.init)
        try #require(output.count == 2, "openssl: \(output)")
        return (output[0], output[1])
    }

    static func shell(_ script: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    static func challenges(_ receiver: WebhookReceiver, _ type: String = sessionChallenge) -> [[String: Any]] {
        receiver.requests.compactMap { try? $0.json() }.filter { $0["type"] as? String == type }
    }

    @Test(.timeLimit(.minutes(1)))
    func anUntrustedChainGoesToTheSessionsMethodAndIsAcceptedForTheTask() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("trusted by the delegate".utf8)])
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        let expected = try Self.digests(of: try #require(origin.certificatePath))
        try await withTaskService { api, _ in
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: Self.sessionChallenge) { _ in
                .json(#"{"disposition": "useCredential", "credential": {"serverTrust": true}}"#)
            }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/a")]])
            #expect(task.statusCode == 200, "\(task)")
            #expect(try await api.taskData(task.taskID).text == "trusted by the delegate")

            let challenge = try #require(Self.challenges(receiver).first)
            let data = try #require(challenge["data"] as? [String: Any])
            #expect(data["task"] == nil, "the session's method hears of connections, not tasks")
            let body = try #require(data["challenge"] as? [String: Any])
            let space = try #require(body["protectionSpace"] as? [String: Any])
            #expect(space["authenticationMethod"] as? String == "NSURLAuthenticationMethodServerTrust")
            #expect(space["protocol"] as? String == "https" && int(space["port"]) == origin.port)
            let trust = try #require(body["serverTrust"] as? [String: Any])
            let evaluation = try #require(trust["evaluation"] as? [String: Any])
            #expect(evaluation["trusted"] as? Bool == false)
            #expect(int((evaluation["error"] as? [String: Any])?["code"]) == -1202, "self-signed: \(evaluation)")
            let leaf = try #require((trust["certificates"] as? [[String: Any]])?.first)
            #expect(leaf["sha256"] as? String == expected.certificate)
            #expect(leaf["spkiSha256"] as? String == expected.spki)
            #expect((leaf["subject"] as? String)?.contains("CN=127.0.0.1") == true)
            #expect((leaf["pem"] as? String)?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
            #expect(Self.challenges(receiver, "task.didReceiveChallenge").isEmpty)
        }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (#"{"disposition": "performDefaultHandling"}"#, -1202), (#"{"disposition": "cancelAuthenticationChallenge"}"#, -999),
            (#"{"disposition": "rejectProtectionSpace"}"#, -1202),
            (#"{"disposition": "useCredential", "credential": {"user": "a", "password": "b"}}"#, -1202),
        ])
    func anUntrustedChainFailsUnlessAccepted(answer: String, code: Int) async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("x".utf8)])
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: Self.sessionChallenge) { _ in
                .json(answer)
            }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/a")]])
            #expect(task.errorCode == code, "\(task)")
            #expect(task.responseObject == nil, "nothing was sent")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTrustedChainIsShownOnceAndTheTaskOnlyHearsWhenTheSessionDoesNotListIt() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("ok".utf8)])
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_CA_FILE": try #require(origin.certificatePath)]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: "task.didReceiveChallenge") { _ in
                .json(#"{"disposition": "performDefaultHandling"}"#)
            }
            for _ in 0..<2 {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/a")]])
                #expect(task.statusCode == 200, "\(task)")
            }
            let asked = Self.challenges(receiver, "task.didReceiveChallenge")
            #expect(asked.count == 1, "the second task reuses the connection: no new chain to evaluate (\(asked.count))")
            let data = try #require(asked.first?["data"] as? [String: Any])
            #expect((data["task"] as? [String: Any])?["id"] != nil, "the task's method gets its task")
            let trust = (data["challenge"] as? [String: Any])?["serverTrust"] as? [String: Any]
            #expect((trust?["evaluation"] as? [String: Any])?["trusted"] as? Bool == true)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPermanentAnswerAndAStoredExceptionServeTheDefaultHandling() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("x".utf8)])
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        let expected = try Self.digests(of: try #require(origin.certificatePath))
        try await withTaskService { api, _ in
            // No URL cache anywhere: nginx's file is a few seconds old, so a response is fresh for a
            // fraction of a second (heuristic freshness), and a hit from the shared cache would answer
            // without a connection, hence without any trust decision.
            let noCache: [String: Any] = ["urlCache": NSNull()]
            let plain = try await api.makeSession(noCache)
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/a")]]
            let before = try await api.runTask(session: plain, request)
            #expect(before.errorCode == -1202, "no exception yet: \(before)")

            let answer = #"{"disposition": "useCredential", "credential": {"serverTrust": true, "persistence": "permanent"}}"#
            let deciding = try await TaskDecisionsTests.session(
                api, receiver: receiver, decision: Self.sessionChallenge, configuration: noCache
            ) { _ in
                .json(answer)
            }
            #expect(try await api.runTask(session: deciding, request).statusCode == 200)
            let stored = try #require(try await api.get("/v1/credentials").json()["items"] as? [[String: Any]])
            let exception = try #require(stored.first { $0["kind"] as? String == "serverTrust" })
            let digests = exception["serverTrust"] as? [String: Any]
            #expect(digests?["spkiSha256"] as? String == expected.spki && digests?["certificateSha256"] as? String == expected.certificate)

            #expect(try await api.runTask(session: plain, request).statusCode == 200, "the shared storage's exception")
            #expect(try await api.delete("/v1/credentials/\(exception.taskID)").status == 204)

            let space: [String: Any] = [
                "host": "127.0.0.1", "port": origin.port, "protocol": "https",
                "authenticationMethod": "NSURLAuthenticationMethodServerTrust",
            ]
            let other = try await api.makeSession(noCache)  // a new session: no connection left from the accepted one
            let wrong = String(repeating: "ab", count: 32)
            _ = try await api.post(
                "/v1/credentials",
                json: try jsonText(["protectionSpace": space, "credential": ["serverTrust": ["certificateSha256": wrong]]]))
            let refused = try await api.runTask(session: other, request)
            let listed = try await api.get("/v1/credentials").text
            #expect(refused.errorCode == -1202, "another certificate's exception: \(refused) \(listed)")
            let made = try await api.post(
                "/v1/credentials",
                json: try jsonText(["protectionSpace": space, "credential": ["serverTrust": ["spkiSha256": expected.spki]]]))
            #expect(made.status == 201, "\(made.text)")
            let third = try await api.makeSession(noCache)
            #expect(try await api.runTask(session: third, request).statusCode == 200, "the key's exception")

            let bad = try await api.post(
                "/v1/credentials", json: try jsonText(["protectionSpace": space, "credential": ["serverTrust": ["spkiSha256": "short"]]]))
            #expect(bad.status == 422 && bad.text.contains("credential.serverTrust.spkiSha256"), "\(bad.text)")
        }
    }
}
