import Foundation
import TestSupport
import Testing

/// HTTPS through the real binary, against Debian's nginx with a self-signed certificate.
@Suite("Tasks over TLS")
struct TasksTLSTests {
    @Test(.timeLimit(.minutes(1)))
    func selfSignedOriginFailsWithACertificateErrorUnlessTrusted() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["file.bin": FixtureOrigin.bytes(count: 100_000, seed: 2)])
        defer { origin.stop() }
        let body = #"{"kind": "download", "request": {"url": "\#(origin.url("/file.bin"))"}, "resume": true}"#
        let untrusted = ["URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8"]
        try await withRunningService(environment: untrusted) { service, client in
            let api = API(service, client)
            let task = try await api.post("/v1/sessions/shared/tasks?wait=20", json: body).json()
            let error = try #require(task["error"] as? [String: Any])
            #expect(error["code"] as? Int == -1203)  // serverCertificateHasUnknownRoot
            #expect((error["underlying"] as? [String: Any])?["code"] as? Int == 60)
        }
        let trusted = untrusted.merging(["URLSESSIOND_CA_FILE": try #require(origin.certificatePath)]) { $1 }
        try await withRunningService(environment: trusted) { service, client in
            let api = API(service, client)
            let task = try await api.post("/v1/sessions/shared/tasks?wait=20", json: body).json()
            #expect(task["error"] is NSNull)
            let id = try #require(task["id"] as? String)
            let metrics = try await api.get("/v1/tasks/\(id)/metrics").json()
            let transaction = try #require((metrics["transactionMetrics"] as? [[String: Any]])?.first)
            #expect(transaction["networkProtocolName"] as? String == "h2")
            let file = try await api.get("/v1/tasks/\(id)/file")
            #expect(file.body == FixtureOrigin.bytes(count: 100_000, seed: 2))
        }
    }
}
