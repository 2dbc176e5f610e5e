import Foundation
import TestSupport
import Testing

/// `Idempotency-Key` on POST: the first answer is replayed, nothing is created twice.
@Suite("Idempotency-Key")
struct IdempotencyTests {
    static func key(_ value: String) -> [(String, String)] { [("Idempotency-Key", value)] }

    @Test(.timeLimit(.minutes(1)))
    func sameKeyAndBodyReplaysTheFirstAnswer() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let body = #"{"sessionDescription":"once"}"#
            let first = try await api.post("/v1/sessions", json: body, headers: Self.key("create-1"))
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            let id = try #require(try first.json()["id"] as? String)

            for _ in 0..<2 {
                let again = try await api.post("/v1/sessions", json: body, headers: Self.key("create-1"))
                #expect(again.status == 201)
                #expect(again.header("Idempotent-Replayed") == "true")
                #expect(again.body == first.body)
                #expect(again.header("Location") == "/v1/sessions/\(id)")
                #expect(again.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(again.header("X-Request-Id")?.isEmpty == false)
            }
            #expect(try await api.sessionIDs() == [id])

            // Another tenant's key space is its own.
            let other = try await api.as(Tokens.tenantB).post("/v1/sessions", json: body, headers: Self.key("create-1"))
            #expect(other.status == 201)
            #expect(other.header("Idempotent-Replayed") == nil)
            #expect(try other.json()["id"] as? String != id)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func sameKeyWithAnotherRequestIsAConflict() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let first = try await api.post("/v1/sessions", json: #"{"sessionDescription":"a"}"#, headers: Self.key("k"))
            #expect(first.status == 201)
            let id = try #require(try first.json()["id"] as? String)

            let otherBody = try await api.post("/v1/sessions", json: #"{"sessionDescription":"b"}"#, headers: Self.key("k"))
            expectProblem(otherBody, status: 409, slug: "idempotency-key-reused")
            let otherPath = try await api.post("/v1/sessions/\(id)/flush", headers: Self.key("k"))
            expectProblem(otherPath, status: 409, slug: "idempotency-key-reused")
            #expect(try await api.sessionIDs() == [id])
            #expect(try await api.get("/v1/sessions/\(id)").json()["sessionDescription"] as? String == "a")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRejectedRequestIsReplayedAsRejected() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let body = #"{"configuration":{"kind":"weird"}}"#
            let first = try await api.post("/v1/sessions", json: body, headers: Self.key("bad-1"))
            expectProblem(first, status: 422, slug: "invalid-value", field: "configuration.kind")
            let again = try await api.post("/v1/sessions", json: body, headers: Self.key("bad-1"))
            expectProblem(again, status: 422, slug: "invalid-value", field: "configuration.kind")
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.body == first.body)
            #expect(try await api.sessionIDs().isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aGeneratedDelegateSecretIsReplayedIdentically() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let body = #"{"delegate":{"url":"https://consumer.example/hooks"}}"#
            let first = try await api.post("/v1/sessions", json: body, headers: Self.key("secret-1"))
            #expect(first.status == 201)
            let secret = try #require((try first.json()["delegate"] as? [String: Any])?["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))

            let again = try await api.post("/v1/sessions", json: body, headers: Self.key("secret-1"))
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect((try again.json()["delegate"] as? [String: Any])?["secret"] as? String == secret)
            #expect(again.body == first.body)
            #expect(try await api.sessionIDs().count == 1)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aBlobUploadIsStoredOnce() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let bytes = BlobsAPITests.randomBytes(300_000)
            var request = TestHTTPRequest.post(
                "\(service.baseURL)/v1/blobs", body: bytes, contentType: "application/octet-stream", token: Tokens.tenantA,
                headers: Self.key("blob-1"))
            let first = try await client.send(request)
            #expect(first.status == 201)
            let id = try #require(try first.json()["id"] as? String)
            let again = try await client.send(request)
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.body == first.body)
            try await eventually(timeout: 5) { try BlobsAPITests.blobFiles(service) == [id] }

            request.body = BlobsAPITests.randomBytes(300_000)
            expectProblem(try await client.send(request), status: 409, slug: "idempotency-key-reused")
            try await eventually(timeout: 5) { try BlobsAPITests.blobFiles(service) == [id] }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentRequestsWithOneKeyCreateOneSession() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let body = #"{"sessionDescription":"race"}"#
            let answers = try await withThrowingTaskGroup(of: TestHTTPResponse.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await api.post("/v1/sessions", json: body, headers: Self.key("race")) }
                }
                return try await group.reduce(into: [TestHTTPResponse]()) { $0.append($1) }
            }
            let ids = try await api.sessionIDs()
            #expect(ids.count == 1)
            for answer in answers {
                if answer.status == 201 {
                    #expect(try answer.json()["id"] as? String == ids.first)
                } else {
                    expectProblem(answer, status: 409, slug: "idempotency-key-reused")
                }
            }
            #expect(answers.contains { $0.status == 201 })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func malformedKeysAreRejected() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            for key in [String(repeating: "k", count: 256), "has space", "tab\there"] {
                let response = try await api.post("/v1/sessions", json: "{}", headers: Self.key(key))
                expectProblem(response, status: 422, slug: "invalid-value", field: "Idempotency-Key")
            }
            #expect(try await api.sessionIDs().isEmpty)
            let longest = try await api.post("/v1/sessions", json: "{}", headers: Self.key(String(repeating: "k", count: 255)))
            #expect(longest.status == 201)
        }
    }
}
