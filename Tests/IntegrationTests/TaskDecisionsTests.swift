import Foundation
import TestSupport
import Testing

/// Decision events: the transfer waits for the webhook's answer to `task.willPerformHTTPRedirection` and
/// `dataTask.didReceiveResponse`; no answer in time, a non-2xx or a malformed answer mean the default
/// handling (follow, allow), as if the delegate did not implement the method.
@Suite("Tasks: delegate decisions")
struct TaskDecisionsTests {
    /// A session (with `configuration`) whose delegate (the receiver) decides `decision`, answering with
    /// `answer(event)`.
    static func session(
        _ api: API, receiver: WebhookReceiver, decision: String, timeout: Double = 2, configuration: [String: Any] = [:],
        answer: @escaping @Sendable ([String: Any]) -> WebhookReceiver.Reply
    ) async throws -> String {
        receiver.respond { request in
            guard let event = try? request.json() else { return .ok }
            return event["type"] as? String == decision ? answer(event) : .ok
        }
        let body: [String: Any] = [
            "configuration": configuration,
            "delegate": ["url": receiver.url("/hooks"), "decisions": [decision], "decisionTimeout": timeout],
        ]
        let session = try await api.createSession(json: try jsonText(body))
        return try #require(session["id"] as? String)
    }

    static let redirect = "task.willPerformHTTPRedirection"
    static let response = "dataTask.didReceiveResponse"

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (#"{"disposition": "follow"}"#, 200), (#"{"disposition": "reject"}"#, 302),
            ("not json", 200), (#"{"disposition": "maybe"}"#, 200),
        ])
    func redirectDispositions(answer: String, expectedStatus: Int) async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, receiver: receiver, decision: Self.redirect) { _ in .json(answer) }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/1")]])
            #expect(isNull(task["error"]), "\(task)")
            #expect(task.statusCode == expectedStatus, "\(answer): \(task)")
            // Rejected, the 3xx and its own body are the task's answer, as URLSession hands them over;
            // followed, nothing of the 3xx's body is left in the final one.
            let body = try await api.get("/v1/tasks/\(task.taskID)/data").text
            #expect(body.hasPrefix("redirecting to") == (expectedStatus == 302), "\(answer): \(body)")
            let asked = receiver.requests.filter { (try? $0.json())?["type"] as? String == Self.redirect }
            #expect(asked.count == 1)
            let proposed = (try asked.first?.json()["data"] as? [String: Any])?["request"] as? [String: Any]
            #expect((proposed?["url"] as? String)?.contains("/redirect-chain/0") == true, "\(String(describing: proposed))")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRedirectDecisionMaySubstituteTheRequest() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let substitute = try jsonText([
                "disposition": "follow",
                "request": ["url": origin.url("/echo?substituted=1"), "allHTTPHeaderFields": ["X-Chosen": "by-delegate"]],
            ])
            let session = try await Self.session(api, receiver: receiver, decision: Self.redirect) { _ in .json(substitute) }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/redirect/302")]])
            #expect(isNull(task["error"]), "\(task)")
            let echo = try Echo(try await api.get("/v1/tasks/\(task.taskID)/data"))
            #expect(echo.path == "/echo")
            #expect(echo.query == "substituted=1")
            #expect(echo.headers["x-chosen"] == "by-delegate")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anUnansweredRedirectIsFollowedAfterTheTimeout() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, receiver: receiver, decision: Self.redirect, timeout: 0.5) { _ in
                WebhookReceiver.Reply(status: 200, body: Array(#"{"disposition": "reject"}"#.utf8), delay: 3)
            }
            let started = ContinuousClock.now
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/1")]])
            #expect(task.statusCode == 200, "the default (follow) after the timeout: \(task)")
            #expect(ContinuousClock.now - started >= .milliseconds(450))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func responseDispositions() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let answers = LockedValue(#"{"disposition": "allow"}"#)
            let session = try await Self.session(api, receiver: receiver, decision: Self.response) { _ in
                .json(answers.get())
            }
            let url = origin.url("/bytes/70000?seed=6")

            answers.set(#"{"disposition": "allow"}"#)
            let allowed = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(isNull(allowed["error"]), "\(allowed)")
            #expect(sha256Hex(try await api.get("/v1/tasks/\(allowed.taskID)/data").body) == fixtureSHA256(count: 70000, seed: 6))

            answers.set(#"{"disposition": "cancel"}"#)
            let cancelled = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(cancelled.errorCode == -999, "\(cancelled)")

            answers.set(#"{"disposition": "becomeDownload"}"#)
            let converted = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(isNull(converted["error"]), "\(converted)")
            #expect(converted["kind"] as? String == "download")
            let file = try await api.taskFile(converted.taskID)
            #expect(sha256Hex(file.body) == fixtureSHA256(count: 70000, seed: 6))
            let types = try await api.allEvents("/v1/tasks/\(converted.taskID)/events").compactMap(\.eventType)
            let became = try #require(types.firstIndex(of: "dataTask.didBecomeDownloadTask"), "\(types)")
            #expect(types.firstIndex(of: Self.response).map { $0 < became } == true)
            #expect(types.contains("downloadTask.didFinishDownloadingTo"))
            #expect(!types.contains("dataTask.didReceiveData"), "\(types)")
        }
    }

    static let challenge = "task.didReceiveChallenge"

    /// A Basic challenge is task-level: the task's method gets it; a delegate with only the session's
    /// method is not asked (URLSession hands that one session-wide challenges only) and the 401 stands.
    @Test(.timeLimit(.minutes(1)))
    func aBasicChallengeNeverGoesToTheSessionsMethod() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let credential = #"{"disposition": "useCredential", "credential": {"user": "ann", "password": "s3cret"}}"#
            let session = try await Self.session(api, receiver: receiver, decision: "session.didReceiveChallenge") { _ in .json(credential)
            }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/ann/s3cret")]])
            #expect(task.statusCode == 401, "\(task)")
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            #expect(!events.contains { $0.eventType?.hasSuffix("didReceiveChallenge") == true })
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["task.didReceiveChallenge"])
    func aChallengeAnsweredWithTheRightCredentialSucceeds(method: String) async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let credential = #"{"disposition": "useCredential", "credential": {"user": "ann", "password": "s3cret"}}"#
            let session = try await Self.session(api, receiver: receiver, decision: method) { _ in .json(credential) }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/ann/s3cret")]])
            #expect(isNull(task["error"]), "\(task)")
            #expect(task.statusCode == 200, "\(task)")
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            let event = try #require(events.first { $0.eventType == method }?.eventData)
            #expect((event["task"] != nil) == (method == Self.challenge), "the session's method gets no task")
            let asked = try #require(event["challenge"] as? [String: Any])
            let space = try #require(asked["protectionSpace"] as? [String: Any])
            #expect(space["realm"] as? String == "fixture")
            #expect(space["authenticationMethod"] as? String == "NSURLAuthenticationMethodHTTPBasic")
            #expect(space["host"] as? String == "127.0.0.1")
            #expect(int(asked["previousFailureCount"]) == 0)
            #expect(int((asked["failureResponse"] as? [String: Any])?["statusCode"]) == 401)
            // The credential is the delegate's answer only: it is in no event the service keeps.
            #expect(!events.contains { "\($0)".contains("password") })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aWrongCredentialIsChallengedAgainAndCancelEndsTheTask() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, receiver: receiver, decision: Self.challenge) { event in
                let challenge = (event["data"] as? [String: Any])?["challenge"] as? [String: Any]
                return int(challenge?["previousFailureCount"]) == 0
                    ? .json(#"{"disposition": "useCredential", "credential": {"user": "ann", "password": "wrong"}}"#)
                    : .json(#"{"disposition": "cancelAuthenticationChallenge"}"#)
            }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/ann/s3cret")]])
            #expect(task.errorCode == -999, "\(task)")
            let counts = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
                .filter { $0.eventType == Self.challenge }
                .compactMap { int(($0.eventData?["challenge"] as? [String: Any])?["previousFailureCount"]) }
            #expect(counts == [0, 1])
        }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            #"{"disposition": "performDefaultHandling"}"#, #"{"disposition": "rejectProtectionSpace"}"#, "{}",
        ])
    func aChallengeWithoutACredentialDeliversThe401(answer: String) async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, receiver: receiver, decision: Self.challenge) { _ in .json(answer) }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/ann/s3cret")]])
            #expect(isNull(task["error"]), "\(task)")
            #expect(task.statusCode == 401, "\(task)")
            let body = try await api.get("/v1/tasks/\(task.taskID)/data").json()
            #expect(body["authenticated"] as? Bool == false)
        }
    }

    static let delayed = "task.willBeginDelayedRequest"

    @Test(.timeLimit(.minutes(1)), arguments: ["continueLoading", "cancel", "useNewRequest"])
    func aDelayedRequestWaitsForItsDateThenForTheDecision(disposition: String) async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let answer =
                disposition == "useNewRequest"
                ? try jsonText(["disposition": disposition, "request": ["url": origin.url("/bytes/7?seed=3")]])
                : try jsonText(["disposition": disposition])
            let session = try await Self.session(api, receiver: receiver, decision: Self.delayed) { _ in .json(answer) }
            let begin = Date().addingTimeInterval(2)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "data", "request": ["url": origin.url("/bytes/5?seed=2")], "resume": true,
                    "earliestBeginDate": formatter.string(from: begin),
                ])
            try await Task.sleep(for: .milliseconds(1000))
            #expect(origin.requests.isEmpty, "nothing reaches the origin before earliestBeginDate")
            #expect(try await api.task(created.taskID).state == "running")
            let done = try await api.completedTask(created.taskID, within: 20)
            let asked = try #require(receiver.requests.first { (try? $0.json())?["type"] as? String == Self.delayed })
            #expect(asked.receivedAt >= begin.addingTimeInterval(-0.05), "the decision comes at the date, not before")
            switch disposition {
            case "cancel":
                #expect(done.errorCode == -999, "\(done)")
                #expect(origin.requests.isEmpty)
            case "useNewRequest":
                #expect(isNull(done["error"]), "\(done)")
                #expect(origin.requests.map(\.path) == ["/bytes/7"], "\(origin.requests.map(\.path))")
            default:
                #expect(isNull(done["error"]), "\(done)")
                #expect(origin.requests.map(\.path) == ["/bytes/5"])
            }
            let types = try await api.allEvents("/v1/tasks/\(created.taskID)/events").compactMap(\.eventType)
            #expect(Array(types.prefix(2)) == ["task.didCreateTask", Self.delayed], "\(types)")
        }
    }
}

/// A value the test changes while the receiver's thread reads it (the answer it gives next).
final class LockedValue<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func get() -> T { lock.withLock { value } }
    func set(_ newValue: T) { lock.withLock { value = newValue } }
}
