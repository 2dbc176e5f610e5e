import Foundation
import TestSupport
import Testing

/// The `delivery` member of a session (its delegate's health: retrying, held, disabled, why) and
/// `POST /v1/sessions/{id}/redeliver`, against real receivers that fail as a client's would.
///
/// Retries wait ten minutes (`URLSESSIOND_WEBHOOK_RETRY_SCHEDULE=600`) unless the test says otherwise, so
/// only a redeliver can explain a delivery within the test's minute.
@Suite("Sessions: delegate delivery health and redeliver")
struct DelegateDeliveryTests {
    static let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "600"]) { $1 }

    /// An RFC 3339 time as the API writes it (milliseconds).
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// The session's `delivery` as `GET /v1/sessions/{id}` shows it.
    static func delivery(_ api: API, _ session: String) async throws -> [String: Any] {
        let response = try await api.get("/v1/sessions/\(session)")
        try #require(response.status == 200, "\(response.text)")
        return try #require(try response.json()["delivery"] as? [String: Any], "\(response.text)")
    }

    /// A session whose delegate posts to `url`, with a task run to completion on it; the ids of its events.
    static func sessionWithEvents(
        _ api: API, origin: FixtureOrigin, delegateURL: String, configuration: [String: Any] = [:]
    ) async throws -> (session: String, events: [String]) {
        let body: [String: Any] = ["configuration": configuration, "delegate": ["url": delegateURL]]
        let created = try await api.createSession(json: try jsonText(body))
        let session = try #require(created["id"] as? String)
        let fresh = try #require(created["delivery"] as? [String: Any], "a delegate has a delivery state from the start")
        #expect(fresh["state"] as? String == "idle" && int(fresh["pendingEvents"]) == 0 && int(fresh["deliveredThrough"]) == 0)
        let kind = configuration["kind"] as? String == "background" ? "download" : "data"
        let task = try await api.runTask(session: session, ["kind": kind, "request": ["url": origin.url("/bytes/10")]])
        #expect(task.errorCode == nil, "\(task)")
        let events = try await api.allEvents("/v1/sessions/\(session)/events").compactMap { $0["id"] as? String }
        #expect(events.count >= 4, "didCreateTask … didCompleteWithError")
        return (session, events)
    }

    /// `POST …/redeliver` that must answer 200; the session's `delivery` in the answer.
    static func redeliver(_ api: API, _ session: String) async throws -> [String: Any] {
        let response = try await api.post("/v1/sessions/\(session)/redeliver")
        try #require(response.status == 200, "\(response.text)")
        #expect(try response.json()["id"] as? String == session)
        return try #require(try response.json()["delivery"] as? [String: Any], "\(response.text)")
    }

    /// Waits until every event reached `path` (each at least once) and the queue is `idle` again.
    static func expectDeliveredAndIdle(
        _ api: API, _ session: String, events: [String], receiver: WebhookReceiver, path: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await eventually(timeout: 20, interval: 0.05) {
            guard Set(SessionUpdateTests.firstArrivals(receiver, path: path)).isSuperset(of: events) else { return false }
            return try await Self.delivery(api, session)["state"] as? String == "idle"
        }
        let delivery = try await Self.delivery(api, session)
        #expect(int(delivery["pendingEvents"]) == 0, "\(delivery)", sourceLocation: sourceLocation)
        #expect(int(delivery["deliveredThrough"]) ?? 0 >= events.count, "\(delivery)", sourceLocation: sourceLocation)
        #expect(delivery["lastDeliveredAt"] is String, "\(delivery)", sourceLocation: sourceLocation)
        #expect(int(delivery["consecutiveFailures"]) == 0, "\(delivery)", sourceLocation: sourceLocation)
        for member in ["nextAttemptAt", "heldAt", "disabledAt"] {
            #expect(isNull(delivery[member]), "\(member): \(delivery)", sourceLocation: sourceLocation)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFailingDelegateIsRetryingUntilARedeliverSendsEverythingAtOnce() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.setDefaultReply(.status(500))
        try await withTaskService(environment: Self.environment) { api, _ in
            let (session, events) = try await Self.sessionWithEvents(api, origin: origin, delegateURL: receiver.url("/hooks"))
            _ = try await receiver.waitForRequests(count: 1, path: "/hooks", timeout: 10)
            try await eventually(timeout: 10, interval: 0.05) {
                (try await Self.delivery(api, session)["state"] as? String) == "retrying"
            }
            let retrying = try await Self.delivery(api, session)
            #expect(int(retrying["consecutiveFailures"]) ?? 0 >= 1, "\(retrying)")
            let failure = try #require(retrying["lastFailure"] as? [String: Any], "\(retrying)")
            #expect(failure["reason"] as? String == "HTTP 500")
            #expect(failure["at"] is String)
            let next = try #require((retrying["nextAttemptAt"] as? String).flatMap(Self.date), "\(retrying)")
            #expect(next.timeIntervalSinceNow > 300, "the schedule's ten minutes: \(retrying)")
            #expect(int(retrying["pendingEvents"]) ?? 0 >= 1 && isNull(retrying["lastDeliveredAt"]), "\(retrying)")
            let listed = try await api.allSessions().first { $0["id"] as? String == session }
            #expect(listed?["delivery"] as? [String: Any] != nil, "the list shows the delivery state too")
            #expect((listed?["delivery"] as? [String: Any])?["state"] as? String == "retrying")

            receiver.setDefaultReply(.ok)
            let restarted = try await Self.redeliver(api, session)
            #expect(["delivering", "idle"].contains(restarted["state"] as? String), "\(restarted)")
            #expect(isNull(restarted["nextAttemptAt"]), "the retry wait is forgotten: \(restarted)")
            try await Self.expectDeliveredAndIdle(api, session, events: events, receiver: receiver, path: "/hooks")
            #expect(SessionUpdateTests.firstArrivals(receiver, path: "/hooks") == events, "every event, in sequence order")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aHeldBackgroundSessionIsDeliveredByARedeliver() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.setDefaultReply(.status(503))  // the client is gone
        try await withTaskService(environment: Self.environment) { api, _ in
            let configuration: [String: Any] = ["kind": "background", "identifier": "com.example.held", "sessionSendsLaunchEvents": false]
            let (session, events) = try await Self.sessionWithEvents(
                api, origin: origin, delegateURL: receiver.url("/hooks"), configuration: configuration)
            _ = try await receiver.waitForRequests(count: 1, path: "/hooks", timeout: 10)
            try await eventually(timeout: 10, interval: 0.05) {
                (try await Self.delivery(api, session)["state"] as? String) == "held"
            }
            let held = try await Self.delivery(api, session)
            #expect(held["heldAt"] is String, "\(held)")
            #expect(isNull(held["nextAttemptAt"]), "a hold is not a retry: \(held)")
            #expect(int(held["consecutiveFailures"]) == 1, "\(held)")
            #expect((held["lastFailure"] as? [String: Any])?["reason"] as? String == "HTTP 503", "\(held)")

            receiver.setDefaultReply(.ok)
            _ = try await Self.redeliver(api, session)
            try await Self.expectDeliveredAndIdle(api, session, events: events, receiver: receiver, path: "/hooks")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDelegateDisabledByA410IsDeliveredAgainByARedeliver() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.setDefaultReply(.status(410))
        try await withTaskService(environment: Self.environment) { api, _ in
            let (session, events) = try await Self.sessionWithEvents(api, origin: origin, delegateURL: receiver.url("/hooks"))
            _ = try await receiver.waitForRequests(count: 1, path: "/hooks", timeout: 10)
            try await eventually(timeout: 10, interval: 0.05) {
                (try await Self.delivery(api, session)["state"] as? String) == "disabled"
            }
            let disabled = try await Self.delivery(api, session)
            #expect(disabled["disabledAt"] is String, "\(disabled)")
            #expect((disabled["lastFailure"] as? [String: Any])?["reason"] as? String == "HTTP 410", "\(disabled)")
            #expect(receiver.requests(path: "/hooks").count == 1, "nothing more after a 410")

            receiver.setDefaultReply(.ok)
            _ = try await Self.redeliver(api, session)
            try await Self.expectDeliveredAndIdle(api, session, events: events, receiver: receiver, path: "/hooks")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTransportFailureIsNamedWithoutTheURL() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let refusing = try RefusingPort()  // nothing listens there: connections are refused
        defer { refusing.release() }
        let port = refusing.port
        try await withTaskService(environment: Self.environment) { api, _ in
            let url = "http://127.0.0.1:\(port)/hooks?token=s3cr3t-in-the-query"
            let (session, _) = try await Self.sessionWithEvents(api, origin: origin, delegateURL: url)
            try await eventually(timeout: 10, interval: 0.05) {
                (try await Self.delivery(api, session)["lastFailure"] as? [String: Any]) != nil
            }
            let delivery = try await Self.delivery(api, session)
            #expect((delivery["lastFailure"] as? [String: Any])?["reason"] as? String == "connection refused", "\(delivery)")
            let text = try canonical(delivery)
            #expect(!text.contains("s3cr3t") && !text.contains("\(port)") && !text.contains("127.0.0.1"), "\(text)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func redeliverNeedsADelegateAndTheSessionsTenant() async throws {
        try await withTaskService(environment: Self.environment) { api, _ in
            let bare = try await api.makeSession()
            let read = try await api.get("/v1/sessions/\(bare)")
            #expect(isNull(try read.json()["delivery"]), "no delegate, no delivery state: \(read.text)")
            expectProblem(try await api.post("/v1/sessions/\(bare)/redeliver"), status: 409, slug: "conflict")
            expectProblem(try await api.post("/v1/sessions/shared/redeliver"), status: 409, slug: "conflict")
            expectProblem(try await api.post("/v1/sessions/\(SessionsAPITests.unknownID)/redeliver"), status: 404, slug: "not-found")

            let created = try await api.createSession(json: #"{"delegate": {"url": "http://127.0.0.1:9/hooks"}}"#)
            let session = try #require(created["id"] as? String)
            expectProblem(try await api.as(Tokens.tenantB).post("/v1/sessions/\(session)/redeliver"), status: 404, slug: "not-found")
            expectProblem(
                try await api.post("/v1/sessions/\(session)/redeliver", json: #"{"now": true}"#), status: 400, slug: "unknown-field",
                field: "now")
            let empty = try await api.post("/v1/sessions/\(session)/redeliver", json: "{}")
            #expect(empty.status == 200, "\(empty.text)")
            #expect((try empty.json()["delivery"] as? [String: Any])?["state"] is String, "\(empty.text)")

            let key = [("Idempotency-Key", "redeliver-\(session)")]
            let first = try await api.post("/v1/sessions/\(session)/redeliver", headers: key)
            let again = try await api.post("/v1/sessions/\(session)/redeliver", headers: key)
            #expect(first.status == 200 && again.status == 200, "\(again.text)")
            #expect(again.header("Idempotent-Replayed") == "true")
        }
    }
}
