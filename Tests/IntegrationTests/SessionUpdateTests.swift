import Crypto
import Foundation
import TestSupport
import Testing

/// `PATCH /v1/sessions/{id}` (a merge patch of `delegate` and `sessionDescription`), and the re-attach of a
/// background session with another delegate: a client back at a new address gets its events there.
@Suite("Session updates")
struct SessionUpdateTests {
    static let secret = "whsec_" + Data((0..<32).map { UInt8($0 + 1) }).base64EncodedString()

    static func patch(_ api: API, _ session: String, _ json: String) async throws -> TestHTTPResponse {
        try await api.client.send(.patch(api.base + "/v1/sessions/\(session)", json: json, token: api.token))
    }

    /// Whether a webhook carries a valid Standard Webhooks signature with `secret`.
    static func isSigned(_ request: WebhookReceiver.Request, with secret: String) -> Bool {
        guard let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count))), let id = request.header("webhook-id"),
            let timestamp = request.header("webhook-timestamp"), let signature = request.header("webhook-signature")
        else { return false }
        let signed = Array("\(id).\(timestamp).".utf8) + request.body
        let mac = Data(HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))).base64EncodedString()
        return signature.split(separator: " ").contains { $0 == "v1,\(mac)" }
    }

    /// The ids of the webhooks at `path`, each once, in the order they first arrived.
    static func firstArrivals(_ receiver: WebhookReceiver, path: String) -> [String] {
        var firsts: [String] = []
        for request in receiver.requests(path: path) {
            guard let id = request.header("webhook-id"), !firsts.contains(id) else { continue }
            firsts.append(id)
        }
        return firsts
    }

    @Test(.timeLimit(.minutes(1)))
    func aPatchMergesIntoTheDelegateAndTheDescription() async throws {
        try await withTaskService { api, _ in
            let created = try await api.createSession(
                json: try jsonText([
                    "delegate": ["url": "https://hooks.example/a", "secret": Self.secret, "events": ["task.didCompleteWithError"]],
                    "sessionDescription": "nightly",
                ]))
            let session = try #require(created["id"] as? String)

            let url = try await Self.patch(api, session, #"{"delegate": {"url": "https://hooks.example/b"}}"#)
            #expect(url.status == 200, "\(url.text)")
            let moved = try #require(try url.json()["delegate"] as? [String: Any])
            #expect(moved["url"] as? String == "https://hooks.example/b")
            #expect(moved["events"] as? [String] == ["task.didCompleteWithError"], "members left out keep their values")
            #expect(moved["secret"] == nil, "the secret given at creation stays, and is never shown")
            #expect(try url.json()["sessionDescription"] as? String == "nightly")

            let reset = try await Self.patch(api, session, #"{"delegate": {"events": null}, "sessionDescription": null}"#)
            #expect(reset.status == 200, "\(reset.text)")
            #expect((try reset.json()["delegate"] as? [String: Any])?["events"] as? [String] == ["*"], "null: the default")
            #expect(isNull(try reset.json()["sessionDescription"]))
            expectSameJSON(try await api.get("/v1/sessions/\(session)").json(), try reset.json(), "GET differs from the PATCH:")

            // Refused patches change nothing.
            let refusals: [(String, Int, String, String)] = [
                (#"{"configuration": {"timeoutIntervalForRequest": 5}}"#, 422, "invalid-value", "configuration"),
                (#"{"state": "invalidated"}"#, 422, "invalid-value", "state"),
                (#"{"delegate": {"url": null, "secret": "\#(Self.secret)"}}"#, 422, "invalid-value", "delegate.secret"),
                (#"{"delegate": {"url": "ftp://hooks.example/"}}"#, 422, "invalid-value", "delegate.url"),
                (#"{"delegate": {"secret": null}}"#, 422, "invalid-value", "delegate.secret"),
                (#"{"delegate": {"decisionTimeout": 0}}"#, 422, "invalid-value", "delegate.decisionTimeout"),
                (#"{"sessionDescription": 5}"#, 400, "type-mismatch", "sessionDescription"),
                (#"{"sessionDescription": "a\u0000b"}"#, 422, "invalid-value", "sessionDescription"),
                (#"{"colour": "red"}"#, 400, "unknown-field", "colour"),
            ]
            for (body, status, slug, field) in refusals {
                expectProblem(try await Self.patch(api, session, body), status: status, slug: slug, field: field)
            }
            expectSameJSON(try await api.get("/v1/sessions/\(session)").json(), try reset.json(), "a refused patch changed:")
            expectProblem(try await Self.patch(api.as(Tokens.tenantB), session, "{}"), status: 404, slug: "not-found")
            expectProblem(try await Self.patch(api, SessionsAPITests.unknownID, "{}"), status: 404, slug: "not-found")
            expectProblem(
                try await Self.patch(api, "shared", #"{"delegate": {"url": "https://hooks.example/"}}"#), status: 409,
                slug: "conflict")

            // A session without a delegate gets one: its generated secret is shown once. (Without a url it
            // would be a delegate in the client: `ClientDelegateTests`.)
            let bare = try await api.makeSession()
            let added = try await Self.patch(api, bare, #"{"delegate": {"url": "https://hooks.example/c"}}"#)
            let secret = try #require((try added.json()["delegate"] as? [String: Any])?["secret"] as? String, "\(added.text)")
            #expect(secret.hasPrefix("whsec_"))
            #expect((try await api.get("/v1/sessions/\(bare)").json()["delegate"] as? [String: Any])?["secret"] == nil)
            let removed = try await Self.patch(api, bare, #"{"delegate": null}"#)
            #expect(isNull(try removed.json()["delegate"]), "\(removed.text)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func eventsQueuedForTheOldURLGoToTheNewOne() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.respond { $0.path == "/old" ? .status(503) : .ok }
        // One attempt at the old address, then a wait far longer than the test.
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "600"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let body = try jsonText(["delegate": ["url": receiver.url("/old"), "secret": Self.secret]])
            let session = try #require(try await api.createSession(json: body)["id"] as? String)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            #expect(task.errorCode == nil, "\(task)")
            _ = try await receiver.waitForRequests(count: 1, path: "/old", timeout: 10)

            let patched = try await Self.patch(api, session, try jsonText(["delegate": ["url": receiver.url("/new")]]))
            #expect(patched.status == 200, "\(patched.text)")
            let all = try await api.allEvents("/v1/sessions/\(session)/events").compactMap { $0["id"] as? String }
            #expect(all.count >= 4, "didCreateTask … didCompleteWithError")
            try await eventually(timeout: 20, interval: 0.05) { Self.firstArrivals(receiver, path: "/new").count >= all.count }
            #expect(Self.firstArrivals(receiver, path: "/new") == all, "every event, in sequence order")
            #expect(receiver.requests(path: "/new").allSatisfy { Self.isSigned($0, with: Self.secret) })
            #expect(receiver.requests(path: "/old").count == 1, "nothing more goes to the old address")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aBackgroundSessionReattachedFromANewAddressGetsItsEventsThere() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.respond { $0.path == "/before" ? .status(503) : .ok }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "600"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let configuration: [String: Any] = ["kind": "background", "identifier": "com.example.moving"]
            let first = try await api.createSession(
                json: try jsonText(["configuration": configuration, "delegate": ["url": receiver.url("/before")]]))
            let session = try #require(first["id"] as? String)
            let oldSecret = try #require((first["delegate"] as? [String: Any])?["secret"] as? String)
            let task = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/10")]])
            #expect(task.errorCode == nil, "\(task)")
            _ = try await receiver.waitForRequests(count: 1, path: "/before", timeout: 10)

            // The client comes back elsewhere, without a secret: the service makes one and shows it once.
            let body = try jsonText(["configuration": configuration, "delegate": ["url": receiver.url("/after")]])
            let again = try await api.post("/v1/sessions", json: body)
            #expect(again.status == 200, "\(again.text)")
            let delegate = try #require(try again.json()["delegate"] as? [String: Any])
            #expect(try again.json()["id"] as? String == session)
            #expect(delegate["url"] as? String == receiver.url("/after"))
            let newSecret = try #require(delegate["secret"] as? String, "\(again.text)")
            #expect(newSecret != oldSecret)

            let all = try await api.allEvents("/v1/sessions/\(session)/events").compactMap { $0["id"] as? String }
            try await eventually(timeout: 20, interval: 0.05) { Self.firstArrivals(receiver, path: "/after").count >= all.count }
            #expect(Self.firstArrivals(receiver, path: "/after") == all, "every event, the finish event last")
            #expect(receiver.requests(path: "/after").allSatisfy { Self.isSigned($0, with: newSecret) })
            #expect(receiver.requests(path: "/before").count == 1)

            // The same delegate again changes nothing and shows no secret.
            let same = try await api.post("/v1/sessions", json: body)
            let sameDelegate = try same.json()["delegate"] as? [String: Any]
            #expect(same.status == 200 && sameDelegate?["secret"] == nil, "\(same.text)")
        }
    }
}
