import Foundation
import SessionTasks
import Testing
import TransferModels
import TransferStore

@testable import ControlPlane

/// `.idempotent` alone, on a real SQLite store: the first request with a key is answered and its answer
/// kept; a retry gets it again without reaching the handler; another request with the key, or one that
/// arrives while the first is being answered, is a 409.
@Suite("Idempotency step")
struct IdempotencyStepTests {
    /// A tenant's POST with `key` (none when nil) and `body`.
    func post(key: String?, body: String = #"{"url":"https://example.com/a"}"#, tenant: String = "alpha", path: String = "/v1/sessions")
        -> HTTPRequest
    {
        var request = makeRequest("POST", path, headers: key.map { [(name: "idempotency-key", value: $0)] } ?? [], body: body)
        request.principal = Principal(tenant: tenant, role: .user)
        return request
    }

    /// A handler that creates something new at each run: 201 with its number in the body and `Location`.
    func creating(_ calls: Calls) -> Route.Handler {
        { _ in
            calls.record()
            let number = calls.count
            return HTTPResponse(
                status: 201, headers: [("Content-Type", "application/json"), ("Location", "/v1/things/\(number)")],
                body: .bytes(Array(#"{"id":\#(number)}"#.utf8)))
        }
    }

    func withStep(_ body: (IdempotencyMiddleware) async throws -> Void) async throws {
        let fixture = try StoreFixture()
        defer { fixture.close() }
        try await body(IdempotencyMiddleware(keys: IdempotencyKeys(store: fixture.store), errors: MetricsFixture().errors))
    }

    @Test func withoutAKeyEveryRequestReachesTheHandler() async throws {
        try await withStep { step in
            let calls = Calls()
            let first = try await step.respond(to: post(key: nil), next: creating(calls))
            let second = try await step.respond(to: post(key: nil), next: creating(calls))
            #expect(calls.count == 2)
            #expect(first.text == #"{"id":1}"#)
            #expect(second.text == #"{"id":2}"#)
            #expect(second.header("Idempotent-Replayed") == nil)
        }
    }

    @Test func theFirstCallRunsAndARetryReplaysItsAnswer() async throws {
        try await withStep { step in
            let calls = Calls()
            let first = try await step.respond(to: post(key: "create-1"), next: creating(calls))
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)

            let replay = try await step.respond(to: post(key: "create-1"), next: creating(calls))
            #expect(calls.count == 1, "the retry created nothing")
            #expect(replay.status == 201)
            #expect(replay.text == first.text)
            #expect(replay.header("Location") == "/v1/things/1")
            #expect(replay.header("Content-Type") == "application/json")
            #expect(replay.header("Idempotent-Replayed") == "true")
        }
    }

    @Test func theSameKeyWithAnotherBodyIsA409() async throws {
        try await withStep { step in
            let calls = Calls()
            _ = try await step.respond(to: post(key: "create-2", body: #"{"a":1}"#), next: creating(calls))
            for other in [post(key: "create-2", body: #"{"a":2}"#), post(key: "create-2", body: #"{"a":1}"#, path: "/v1/blobs")] {
                let error = await #expect(throws: Problem.self) { try await step.respond(to: other, next: creating(calls)) }
                #expect(error?.status == 409)
                #expect(error?.type == "urn:urlsessiond:problem:idempotency-key-reused")
                #expect(error?.detail == "this Idempotency-Key was used for a different request")
            }
            #expect(calls.count == 1)
        }
    }

    @Test func keysAreEachTenantsOwn() async throws {
        try await withStep { step in
            let calls = Calls()
            _ = try await step.respond(to: post(key: "shared-name", tenant: "alpha"), next: creating(calls))
            let other = try await step.respond(to: post(key: "shared-name", tenant: "beta"), next: creating(calls))
            #expect(calls.count == 2)
            #expect(other.header("Idempotent-Replayed") == nil)
        }
    }

    @Test(arguments: [String(repeating: "k", count: 256), "with space", "naïve", "tab\tkey"])
    func aMalformedKeyIsA422(key: String) async throws {
        try await withStep { step in
            let calls = Calls()
            let error = await #expect(throws: Problem.self) { try await step.respond(to: post(key: key), next: creating(calls)) }
            #expect(error?.status == 422)
            #expect(error?.field == "Idempotency-Key")
            #expect(calls.count == 0)
        }
    }

    @Test func aRefusalIsKeptAndReplayedButAServerErrorIsNot() async throws {
        try await withStep { step in
            let calls = Calls()
            let refusing: Route.Handler = { _ in
                calls.record()
                throw Problem.invalidValue("url", "is not a URL")
            }
            let refused = try await step.respond(to: post(key: "refused"), next: refusing)
            let again = try await step.respond(to: post(key: "refused"), next: refusing)
            #expect(refused.status == 422)
            #expect(again.status == 422)
            #expect(again.text == refused.text)
            #expect(again.header("Content-Type") == "application/problem+json")
            #expect(calls.count == 1)

            struct Broken: Error {}
            let failing: Route.Handler = { _ in
                calls.record()
                throw Broken()
            }
            let failed = try await step.respond(to: post(key: "failed"), next: failing)
            #expect(failed.status == 500)
            let retried = try await step.respond(to: post(key: "failed"), next: creating(calls))
            #expect(retried.status == 201, "a 500 is not kept: the retry runs")
            #expect(retried.header("Idempotent-Replayed") == nil)
            #expect(calls.count == 3)
        }
    }

    /// Eight requests with one key at once: one reaches the handler; the other seven, arriving while it is
    /// answered, are 409s; once it is answered, a retry replays it.
    @Test(.timeLimit(.minutes(1)))
    func concurrentRequestsWithOneKeyRunOnce() async throws {
        try await withStep { step in
            let calls = Calls()
            let (release, releaser) = AsyncStream.makeStream(of: Void.self)
            let held: Route.Handler = { request in
                calls.record()
                for await _ in release { break }
                return try await creating(Calls())(request)
            }
            try await withThrowingTaskGroup(of: Result<HTTPResponse, Problem>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do { return .success(try await step.respond(to: post(key: "race"), next: held)) } catch let problem as Problem {
                            return .failure(problem)
                        }
                    }
                }
                var conflicts = 0
                while conflicts < 7, let result = try await group.next() {
                    guard case .failure(let problem) = result else {
                        Issue.record("an answer came before the first request was released")
                        break
                    }
                    #expect(problem.status == 409)
                    #expect(problem.type == "urn:urlsessiond:problem:idempotency-key-reused")
                    #expect(problem.detail == "the first request with this Idempotency-Key is still being answered")
                    conflicts += 1
                }
                releaser.yield()
                let answered = try #require(try await group.next())
                guard case .success(let response) = answered else {
                    Issue.record("the first request failed: \(answered)")
                    return
                }
                #expect(response.status == 201)
            }
            #expect(calls.count == 1)
            let retry = try await step.respond(to: post(key: "race"), next: creating(calls))
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(calls.count == 1)
        }
    }

    @Test func theFingerprintCoversMethodPathQueryAndBody() {
        let base = makeRequest("POST", "/v1/sessions", body: "{}")
        var query = base
        query.query = [("wait", "1")]
        var body = base
        body.body = Array("{ }".utf8)
        var path = base
        path.path = "/v1/blobs"
        var header = base
        header.headers = [("x-other", "1")]
        let print = IdempotencyMiddleware.fingerprint(of:)
        #expect(print(base) == print(header), "headers are not part of it")
        #expect(Set([print(base), print(query), print(body), print(path)]).count == 4)
    }
}
