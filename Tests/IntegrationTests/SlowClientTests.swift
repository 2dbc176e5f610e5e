import Foundation
import TestSupport
import Testing

/// Slow or stalled clients cannot pin the control plane: idle connections are closed after the configured
/// timeout, oversized headers are refused, and other clients are served meanwhile.
@Suite("Connection limits against slow clients")
struct SlowClientTests {
    @Test(.timeLimit(.minutes(1)))
    func stalledRequestIsClosedAfterTheIdleTimeout() async throws {
        try await withRunningService(environment: ["URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_IDLE_TIMEOUT": "1"]) {
            service, client in
            // Half a request line, then nothing: the server must hang up by itself.
            let started = ContinuousClock.now
            let reply = try await client.sendRaw(
                port: service.port, bytes: Array("GET /v1/sessions HTTP/1.1\r\nHost: x\r\n".utf8), timeout: 10)
            let elapsed = ContinuousClock.now - started
            #expect(reply.isEmpty || String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
            #expect(elapsed < .seconds(8), "the idle connection was kept for \(elapsed)")
            // Meanwhile and afterwards, the service answers others.
            #expect(try await client.send(.get(service.baseURL + "/healthz")).status == 200)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func oversizedHeadersAreRefused() async throws {
        try await withRunningService(environment: ["URLSESSIOND_TOKENS": Tokens.list]) { service, client in
            let big = String(repeating: "a", count: 100_000)
            let reply = try await client.sendRaw(
                port: service.port, bytes: Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n".utf8), timeout: 10)
            // Over the service's limit (32 KiB), within the HTTP server's memory (128 KiB): problem+json.
            let answer = String(decoding: reply, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 431"), "\(answer.prefix(300))")
            #expect(answer.lowercased().contains("content-type: application/problem+json"), "\(answer.prefix(300))")
            #expect(answer.contains("urn:urlsessiond:problem:header-fields-too-large"), "\(answer.prefix(600))")
            let longQuery = String(repeating: "b", count: 20_000)
            let tooLong = try await client.send(.get(service.baseURL + "/v1/sessions?after=\(longQuery)", token: Tokens.tenantA))
            expectProblem(tooLong, status: 414, slug: "uri-too-long")
            #expect(try await client.send(.get(service.baseURL + "/healthz")).status == 200)
        }
    }
}
