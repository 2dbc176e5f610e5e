import Foundation
import TestSupport
import Testing

/// NTLM through the service: libcurl's real handshake (type 1, 2, 3 on one connection) against pyspnego's
/// acceptor. NTLM and Negotiate are connection-level methods: URLSession asks the session's method first,
/// then the task's. (Negotiate itself needs a KDC: here only its routing and fallback are checked.)
@Suite("NTLM and Negotiate")
struct NTLMTests {
    static let password = "ntlm-Secret-42"

    static func space(_ origin: NTLMOrigin) -> [String: Any] {
        ["host": "127.0.0.1", "port": origin.port, "protocol": "http", "authenticationMethod": "NSURLAuthenticationMethodNTLM"]
    }

    @Test(.timeLimit(.minutes(1)))
    func aStoredDefaultCredentialAnswersNTLM() async throws {
        let origin = try await NTLMOrigin.start(domain: "CORP", user: "alice", password: Self.password)
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url + "/reports"]]
            #expect(try await api.runTask(session: session, request).statusCode == 401, "no credential yet")
            let stored = try await api.post(
                "/v1/credentials",
                json: try jsonText([
                    "protectionSpace": Self.space(origin), "credential": ["user": "CORP\\alice", "password": Self.password],
                ]))
            #expect(stored.status == 201, "\(stored.text)")
            let task = try await api.runTask(session: session, request)
            #expect(task.statusCode == 200, "\(task)")
            let body = try await api.taskData(task.taskID).json()
            #expect(body["user"] as? String == "CORP\\alice" && body["path"] as? String == "/reports")
        }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (["session.didReceiveChallenge", "task.didReceiveChallenge"], "session.didReceiveChallenge"),
            (["task.didReceiveChallenge"], "task.didReceiveChallenge"),
        ])
    func theChallengeGoesToTheSessionsMethodFirst(decisions: [String], expected: String) async throws {
        let origin = try await NTLMOrigin.start(domain: "CORP", user: "alice", password: Self.password, alsoBasic: true)
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        receiver.respond { request in
            guard let event = try? request.json(), (event["type"] as? String)?.hasSuffix("didReceiveChallenge") == true else { return .ok }
            let challenge = (event["data"] as? [String: Any])?["challenge"] as? [String: Any]
            let failures = int(challenge?["previousFailureCount"]) ?? 0
            let password = failures == 0 ? "wrong" : Self.password  // a wrong one first: challenged again
            return .json(#"{"disposition": "useCredential", "credential": {"user": "CORP\\alice", "password": "\#(password)"}}"#)
        }
        try await withTaskService { api, _ in
            let body: [String: Any] = ["delegate": ["url": receiver.url("/hooks"), "decisions": decisions, "decisionTimeout": 5]]
            let session = try #require(try await api.createSession(json: try jsonText(body))["id"] as? String)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url + "/x"]])
            #expect(task.statusCode == 200, "\(task)")
            let asked = receiver.requests.compactMap { try? $0.json() }.filter {
                ($0["type"] as? String)?.hasSuffix("didReceiveChallenge") == true
            }
            #expect(asked.map { $0["type"] as? String } == [expected, expected], "\(asked.map { $0["type"] ?? "" })")
            let challenges = asked.compactMap { ($0["data"] as? [String: Any])?["challenge"] as? [String: Any] }
            let methods = challenges.compactMap { ($0["protectionSpace"] as? [String: Any])?["authenticationMethod"] as? String }
            #expect(methods == ["NSURLAuthenticationMethodNTLM", "NSURLAuthenticationMethodNTLM"], "the strongest offered: \(methods)")
            #expect(challenges.map { int($0["previousFailureCount"]) } == [0, 1])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func negotiateGoesToTheSessionAndRejectingItFallsBackToBasicOnTheTask() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        receiver.respond { request in
            guard let event = try? request.json() else { return .ok }
            switch event["type"] as? String {
            case "session.didReceiveChallenge": return .json(#"{"disposition": "rejectProtectionSpace"}"#)
            case "task.didReceiveChallenge":
                return .json(#"{"disposition": "useCredential", "credential": {"user": "ann", "password": "pw"}}"#)
            default: return .ok
            }
        }
        try await withTaskService { api, _ in
            let decisions = ["session.didReceiveChallenge", "task.didReceiveChallenge"]
            let body: [String: Any] = ["delegate": ["url": receiver.url("/hooks"), "decisions": decisions, "decisionTimeout": 5]]
            let session = try #require(try await api.createSession(json: try jsonText(body))["id"] as? String)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/negotiate-auth/ann/pw")]])
            #expect(task.statusCode == 200, "\(task)")
            let asked = receiver.requests.compactMap { try? $0.json() }.filter {
                ($0["type"] as? String)?.hasSuffix("didReceiveChallenge") == true
            }
            let routes = asked.map { event -> String in
                let space = ((event["data"] as? [String: Any])?["challenge"] as? [String: Any])?["protectionSpace"] as? [String: Any]
                return "\(event["type"] ?? "") \(space?["authenticationMethod"] ?? "")"
            }
            #expect(
                routes == [
                    "session.didReceiveChallenge NSURLAuthenticationMethodNegotiate",
                    "task.didReceiveChallenge NSURLAuthenticationMethodHTTPBasic",
                ], "\(routes)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func negotiateWithoutKerberosTicketsLeavesThe401() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/negotiate-auth/ann/pw")]])
            #expect(task.statusCode == 401 && task.errorCode == nil, "tried once with the service's (absent) tickets: \(task)")
        }
    }
}
