import Foundation
import TestSupport
import Testing

/// A delegate in the client process: a session whose delegate has no `url` gets no webhooks; the client
/// reads the decision events (long-polls here) and answers them with
/// `POST /v1/sessions/{id}/events/{eventId}/answer`, the body a webhook would answer with.
@Suite("Delegates in the client: decisions answered over the API")
struct ClientDelegateTests {
    static let redirect = "task.willPerformHTTPRedirection"

    /// A session whose delegate lives in the client and decides `decisions`.
    static func session(_ api: API, decisions: [String], timeout: Double = 10) async throws -> String {
        let body: [String: Any] = ["delegate": ["decisions": decisions, "decisionTimeout": timeout]]
        return try #require(try await api.createSession(json: try jsonText(body))["id"] as? String)
    }

    /// The first event of `type` of the session, read by long-polls as a client library would.
    static func firstEvent(_ api: API, session: String, type: String) async throws -> [String: Any] {
        var after = 0
        for _ in 0..<20 {
            let page = try await api.eventsPage("/v1/sessions/\(session)/events", query: "after=\(after)&wait=5")
            if let event = page.items.first(where: { $0.eventType == type }) { return event }
            after = page.items.last?.sequence ?? after
        }
        throw TestFailure("no \(type) event in the session's events")
    }

    static func answer(_ api: API, session: String, event: String, _ json: String) async throws -> TestHTTPResponse {
        try await api.post("/v1/sessions/\(session)/events/\(event)/answer", json: json)
    }

    /// Starts a task of `session` for `url` and answers its first `type` event with `answer` (which must
    /// be taken: 204); returns the completed task.
    static func run(
        _ api: API, session: String, kind: String = "data", url: String, answering type: String, with answer: String
    ) async throws -> [String: Any] {
        let task = try await api.createTask(session: session, ["kind": kind, "request": ["url": url], "resume": true])
        let event = try await firstEvent(api, session: session, type: type)
        #expect(event.eventTaskID == task.taskID)
        let answered = try await Self.answer(api, session: session, event: try #require(event["id"] as? String), answer)
        #expect(answered.status == 204, "\(answered.status): \(answered.text)")
        return try await api.completedTask(task.taskID, within: 30)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [(#"{"disposition": "reject"}"#, 302), (#"{"disposition": "follow"}"#, 200)])
    func aRedirectIsDecidedByTheAnswerOverTheAPI(answer: String, expectedStatus: Int) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, decisions: [Self.redirect])
            let created = try await api.get("/v1/sessions/\(session)").json()
            let delegate = try #require(created["delegate"] as? [String: Any])
            #expect(isNull(delegate["url"]) && delegate["secret"] == nil, "\(delegate)")
            #expect(isNull(created["delivery"]), "nothing is POSTed: no delivery health")

            let task = try await Self.run(
                api, session: session, url: origin.url("/redirect-chain/1"), answering: Self.redirect, with: answer)
            #expect(isNull(task["error"]), "\(task)")
            #expect(task.statusCode == expectedStatus, "\(answer): \(task)")
        }
    }

    /// No answer within `decisionTimeout`: the default handling (follow); an answer after that finds no
    /// transfer waiting (409), and so does a second answer to an event already answered.
    @Test(.timeLimit(.minutes(1)))
    func anAnswerAfterTheTimeoutOrASecondOneIsAConflict() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, decisions: [Self.redirect], timeout: 0.5)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/1")]])
            #expect(task.statusCode == 200, "the default (follow) after the timeout: \(task)")
            let event = try await Self.firstEvent(api, session: session, type: Self.redirect)
            let late = try await Self.answer(
                api, session: session, event: try #require(event["id"] as? String), #"{"disposition": "reject"}"#)
            expectProblem(late, status: 409, slug: "conflict")

            let patient = try await Self.session(api, decisions: [Self.redirect])
            let answered = try await Self.run(
                api, session: patient, url: origin.url("/redirect-chain/1"), answering: Self.redirect, with: #"{"disposition": "reject"}"#)
            #expect(answered.statusCode == 302)
            let again = try await Self.firstEvent(api, session: patient, type: Self.redirect)
            expectProblem(
                try await Self.answer(api, session: patient, event: try #require(again["id"] as? String), #"{"disposition": "follow"}"#),
                status: 409, slug: "conflict")
            // An event that is no decision, and an id no event has.
            let created = try await Self.firstEvent(api, session: patient, type: "task.didCreateTask")
            expectProblem(
                try await Self.answer(api, session: patient, event: try #require(created["id"] as? String), #"{"disposition": "follow"}"#),
                status: 409, slug: "conflict")
            expectProblem(
                try await Self.answer(api, session: patient, event: "evt_nothing", #"{"disposition": "follow"}"#), status: 409,
                slug: "conflict")
        }
    }

    /// An answer naming another session (the tenant's own, or another tenant's) never reaches the waiting
    /// transfer, and a body that is no answer is refused naming the field; neither uses up the wait.
    @Test(.timeLimit(.minutes(1)))
    func misdirectedAndInvalidAnswersChangeNothing() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, decisions: [Self.redirect], timeout: 20)
            let other = try await Self.session(api, decisions: [Self.redirect])
            let task = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/1")], "resume": true])
            let event = try #require(try await Self.firstEvent(api, session: session, type: Self.redirect)["id"] as? String)

            let reject = #"{"disposition": "reject"}"#
            expectProblem(try await Self.answer(api, session: other, event: event, reject), status: 409, slug: "conflict")
            expectProblem(
                try await Self.answer(api.as(Tokens.tenantB), session: session, event: event, reject), status: 404, slug: "not-found")
            let invalid: [(String, Int, String, String)] = [
                (#"{"disposition": "maybe"}"#, 422, "invalid-value", "disposition"),
                ("{}", 422, "missing-field", "disposition"),
                (#"{"disposition": "reject", "credential": {"user": "a", "password": "b"}}"#, 422, "invalid-value", "credential"),
                (#"{"disposition": "allow", "request": {"url": "https://h/"}}"#, 422, "invalid-value", "request"),
                (#"{"disposition": "reject", "colour": 1}"#, 400, "unknown-field", "colour"),
            ]
            for (body, status, slug, field) in invalid {
                expectProblem(try await Self.answer(api, session: session, event: event, body), status: status, slug: slug, field: field)
            }
            #expect(try await api.task(task.taskID).state == "running", "still waiting for its answer")

            // Taken; a retry with the same Idempotency-Key gets the same 204 back.
            let path = "/v1/sessions/\(session)/events/\(event)/answer"
            let key = [("Idempotency-Key", "answer-\(event)")]
            #expect(try await api.post(path, json: reject, headers: key).status == 204)
            let replayed = try await api.post(path, json: reject, headers: key)
            #expect(replayed.status == 204 && replayed.header("Idempotent-Replayed") == "true", "\(replayed.status): \(replayed.text)")
            let completed = try await api.completedTask(task.taskID, within: 30)
            #expect(completed.statusCode == 302, "\(completed)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aResponseAnsweredCancelOverTheAPICancels() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, decisions: ["dataTask.didReceiveResponse"])
            let task = try await Self.run(
                api, session: session, url: origin.url("/bytes/1000"), answering: "dataTask.didReceiveResponse",
                with: #"{"disposition": "cancel"}"#)
            #expect(task.errorCode == -999, "\(task)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aChallengeAnsweredWithACredentialOverTheAPISucceeds() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api, decisions: ["task.didReceiveChallenge"])
            let task = try await Self.run(
                api, session: session, url: origin.url("/basic-auth/ann/s3cret"), answering: "task.didReceiveChallenge",
                with: #"{"disposition": "useCredential", "credential": {"user": "ann", "password": "s3cret"}}"#)
            #expect(isNull(task["error"]), "\(task)")
            #expect(task.statusCode == 200, "\(task)")
        }
    }

    /// A webhook delegate's decisions may be answered over the API too: the first answer wins.
    @Test(.timeLimit(.minutes(1)))
    func aWebhookDelegatesDecisionMayBeAnsweredOverTheAPI() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        receiver.respond { _ in WebhookReceiver.Reply(status: 200, body: Array(#"{"disposition": "follow"}"#.utf8), delay: 5) }
        try await withTaskService { api, _ in
            let body: [String: Any] = ["delegate": ["url": receiver.url("/hooks"), "decisions": [Self.redirect], "decisionTimeout": 20]]
            let session = try #require(try await api.createSession(json: try jsonText(body))["id"] as? String)
            let task = try await Self.run(
                api, session: session, url: origin.url("/redirect-chain/1"), answering: Self.redirect, with: #"{"disposition": "reject"}"#)
            #expect(task.statusCode == 302, "the API's answer came first: \(task)")
        }
    }

    /// A delegate without `url` is POSTed nothing; a `secret` for it is refused (nothing to sign). A patch
    /// that removes the url stops the webhooks and drops the secret; one that gives a url back makes it a
    /// webhook again, with a new generated secret shown once.
    @Test(.timeLimit(.minutes(1)))
    func aDelegateWithoutURLGetsNoWebhooks() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let secret = SessionUpdateTests.secret
            let refused = try await api.post("/v1/sessions", json: #"{"delegate": {"secret": "\#(secret)"}}"#)
            expectProblem(refused, status: 422, slug: "invalid-value", field: "delegate.secret")

            let created = try await api.createSession(json: try jsonText(["delegate": ["url": receiver.url("/hooks"), "secret": secret]]))
            let session = try #require(created["id"] as? String)
            let moved = try await SessionUpdateTests.patch(api, session, #"{"delegate": {"url": null, "events": ["*"]}}"#)
            #expect(moved.status == 200, "\(moved.text)")
            #expect(isNull((try moved.json()["delegate"] as? [String: Any])?["url"]), "\(moved.text)")
            #expect(isNull(try moved.json()["delivery"]), "\(moved.text)")
            expectProblem(
                try await SessionUpdateTests.patch(api, session, #"{"delegate": {"secret": "\#(secret)"}}"#), status: 409,
                slug: "conflict")
            expectProblem(
                try await SessionUpdateTests.patch(api, session, #"{"delegate": {"url": null, "secret": "\#(secret)"}}"#), status: 422,
                slug: "invalid-value", field: "delegate.secret")
            expectProblem(try await api.post("/v1/sessions/\(session)/redeliver", json: "{}"), status: 409, slug: "conflict")

            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/100")]])
            #expect(isNull(task["error"]), "\(task)")
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            #expect(events.contains { $0.eventType == "task.didCompleteWithError" }, "events are still written")
            try await Task.sleep(for: .milliseconds(700))
            #expect(receiver.requests.isEmpty, "\(receiver.requests.count) webhooks")
            let read = try await api.get("/v1/sessions/\(session)").json()
            #expect(isNull(read["delivery"]), "\(read)")

            // A url given back: a webhook again, with a new secret (the old one went with the url).
            let back = try await SessionUpdateTests.patch(api, session, #"{"delegate": {"url": "\#(receiver.url("/hooks"))"}}"#)
            let generated = try #require((try back.json()["delegate"] as? [String: Any])?["secret"] as? String, "\(back.text)")
            #expect(generated.hasPrefix("whsec_") && generated != secret)
            let webhooks = try await receiver.waitForRequests(count: 1, timeout: 10)
            #expect(SessionUpdateTests.isSigned(webhooks[0], with: generated), "the undelivered events go, signed with the new secret")
        }
    }

    /// A background session's client comes back as a process with a delegate of its own (no url): its
    /// webhooks stop and its secret goes; back once more with a url, it gets a new secret, shown once.
    @Test(.timeLimit(.minutes(1)))
    func aBackgroundSessionReattachedWithADelegateInTheClientGetsNoWebhooks() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let configuration: [String: Any] = ["kind": "background", "identifier": "com.example.in-process"]
            let first = try await api.createSession(
                json: try jsonText(["configuration": configuration, "delegate": ["url": receiver.url("/hooks")]]))
            let session = try #require(first["id"] as? String)
            let oldSecret = try #require((first["delegate"] as? [String: Any])?["secret"] as? String)

            // (A background session asks no redirect decisions, as URLSession's: a challenge here.)
            let inProcess = try jsonText(["configuration": configuration, "delegate": ["decisions": ["task.didReceiveChallenge"]]])
            let again = try await api.post("/v1/sessions", json: inProcess)
            let againID = try again.json()["id"] as? String
            #expect(again.status == 200 && againID == session, "\(again.text)")
            let delegate = try #require(try again.json()["delegate"] as? [String: Any])
            #expect(isNull(delegate["url"]) && delegate["secret"] == nil, "\(delegate)")
            #expect(isNull(try again.json()["delivery"]))
            try await Task.sleep(for: .milliseconds(500))  // what was on its way to the old address
            let before = receiver.requests.count
            let task = try await Self.run(
                api, session: session, kind: "download", url: origin.url("/basic-auth/ann/s3cret"), answering: "task.didReceiveChallenge",
                with: #"{"disposition": "useCredential", "credential": {"user": "ann", "password": "s3cret"}}"#)
            #expect(task.statusCode == 200, "\(task)")
            try await Task.sleep(for: .milliseconds(500))
            #expect(receiver.requests.count == before, "no webhook for the delegate in the client")

            let back = try await api.post(
                "/v1/sessions", json: try jsonText(["configuration": configuration, "delegate": ["url": receiver.url("/hooks")]]))
            let newSecret = try #require((try back.json()["delegate"] as? [String: Any])?["secret"] as? String, "\(back.text)")
            #expect(newSecret != oldSecret)
        }
    }

    /// A session without a delegate gets one in the client from a patch without `url`.
    @Test(.timeLimit(.minutes(1)))
    func aPatchWithoutURLGivesASessionADelegateInTheClient() async throws {
        try await withTaskService { api, _ in
            let bare = try await api.makeSession()
            let patched = try await SessionUpdateTests.patch(api, bare, #"{"delegate": {"decisions": ["\#(Self.redirect)"]}}"#)
            #expect(patched.status == 200, "\(patched.text)")
            let delegate = try #require(try patched.json()["delegate"] as? [String: Any])
            #expect(isNull(delegate["url"]) && delegate["secret"] == nil, "\(delegate)")
            #expect(delegate["decisions"] as? [String] == [Self.redirect])
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
