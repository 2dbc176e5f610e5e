import Crypto
import Foundation
import TestSupport
import Testing

/// `/v1/blobs`: raw bodies streamed to `<data>/blobs`, with size and RFC 9530 digest.
@Suite("Blobs API")
struct BlobsAPITests {
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        var index = 0
        while index < count {
            var word = generator.next() as UInt64
            for _ in 0..<8 where index < count {
                bytes[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
        return bytes
    }

    static func digest(of bytes: [UInt8]) -> String {
        "sha-256=:\(Data(SHA256.hash(data: bytes)).base64EncodedString()):"
    }

    static func blobFiles(_ service: ServiceProcess) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: service.dataDirectory.appendingPathComponent("blobs").path).sorted()
    }

    @Test(.timeLimit(.minutes(1)))
    func uploadReadAndDeleteABlob() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let bytes = Self.randomBytes(3 * 1024 * 1024 + 17)
            let response = try await api.post("/v1/blobs", bytes: bytes, contentType: "application/octet-stream")
            #expect(response.status == 201, "\(response.text)")
            let blob = try response.json()
            let id = try #require(blob["id"] as? String)
            #expect(id.hasPrefix("blb_"))
            #expect(response.header("Location") == "/v1/blobs/\(id)")
            #expect(number(blob["size"]) == Double(bytes.count))
            #expect(blob["digest"] as? String == Self.digest(of: bytes))
            #expect(blob["createdAt"] is String)

            // The bytes on disk are exactly what was sent.
            let file = service.dataDirectory.appendingPathComponent("blobs").appendingPathComponent(id)
            let stored = try Data(contentsOf: file)
            #expect(stored.count == bytes.count)
            #expect(Data(SHA256.hash(data: stored)) == Data(SHA256.hash(data: bytes)))
            try await eventually(timeout: 5) { try Self.blobFiles(service) == [id] }

            let read = try await api.get("/v1/blobs/\(id)")
            #expect(read.status == 200)
            expectSameJSON(try read.json(), blob, "GET differs from the 201:")

            let deleted = try await api.delete("/v1/blobs/\(id)")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            expectProblem(try await api.get("/v1/blobs/\(id)"), status: 404, slug: "not-found")
            expectProblem(try await api.delete("/v1/blobs/\(id)"), status: 404, slug: "not-found")
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(try Self.blobFiles(service).isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anyContentTypeAndEmptyBodiesAreBlobs() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let json = Array(#"{"not":"parsed"}"#.utf8)
            let response = try await api.post("/v1/blobs", bytes: json, contentType: "application/json")
            #expect(response.status == 201, "\(response.text)")
            #expect(try response.json()["digest"] as? String == Self.digest(of: json))

            let empty = try await api.post("/v1/blobs", bytes: [], contentType: "application/octet-stream")
            #expect(empty.status == 201, "\(empty.text)")
            let blob = try empty.json()
            #expect(number(blob["size"]) == 0)
            #expect(blob["digest"] as? String == Self.digest(of: []))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func blobsOverTheLimitAreRejectedAndLeaveNoFile() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_BLOB_SIZE": "1048576"]) { $1 }
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            let bytes = Self.randomBytes(2 * 1024 * 1024)
            let response = try await api.post("/v1/blobs", bytes: bytes, contentType: "application/octet-stream")
            expectProblem(response, status: 413, slug: "payload-too-large")
            try await eventually(timeout: 5) { try Self.blobFiles(service).isEmpty }

            // Exactly the limit is accepted.
            let limit = Self.randomBytes(1_048_576)
            let accepted = try await api.post("/v1/blobs", bytes: limit, contentType: "application/octet-stream")
            #expect(accepted.status == 201, "\(accepted.text)")
            let id = try #require(try accepted.json()["id"] as? String)
            try await eventually(timeout: 5) { try Self.blobFiles(service) == [id] }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aBodyRefusedOnItsLengthIsReadSoTheAnswerArrivesIntact() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_BLOB_SIZE": "1048576"]) { $1 }
        try await withRunningService(environment: environment) { service, client in
            // Closing on 2 MiB of unread body would reset the connection under a client still sending; the
            // body is read and dropped instead, so the connection even serves the next request.
            let body = Self.randomBytes(2 * 1024 * 1024)
            var request = Array(
                ("POST /v1/blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Tokens.tenantA)\r\n"
                    + "Content-Type: application/octet-stream\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
            request += body + Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            let reply = String(decoding: try await client.sendRaw(port: service.port, bytes: request, timeout: 10), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(300))")
            #expect(reply.contains("HTTP/1.1 200"), "\(reply.suffix(300))")

            // A client that waits for 100 Continue is answered at once and sends nothing.
            let waiting = Array(
                ("POST /v1/blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Tokens.tenantA)\r\n"
                    + "Content-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n").utf8)
            let refused = String(decoding: try await client.sendRaw(port: service.port, bytes: waiting, timeout: 10), as: UTF8.self)
            #expect(refused.hasPrefix("HTTP/1.1 413"), "\(refused.prefix(300))")
            #expect(!refused.contains("100 Continue"))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func chunkedUploadsOverTheLimitAreRejectedToo() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_BLOB_SIZE": "65536"]) { $1 }
        try await withRunningService(environment: environment) { service, client in
            // No Content-Length: the limit is found while the body streams in.
            let chunk = Self.randomBytes(100_000)
            var request = Array(
                ("POST /v1/blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Tokens.tenantA)\r\n"
                    + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + String(chunk.count, radix: 16) + "\r\n").utf8)
            request += chunk + Array("\r\n0\r\n\r\n".utf8)
            let reply = String(decoding: try await client.sendRaw(port: service.port, bytes: request, timeout: 10), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(300))")
            #expect(reply.contains("urn:urlsessiond:problem:payload-too-large"))
            try await eventually(timeout: 5) { try Self.blobFiles(service).isEmpty }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func unknownBlobIdsAreNotFound() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            for id in ["blb_" + String(repeating: "z", count: 22), "nope"] {
                expectProblem(try await api.get("/v1/blobs/\(id)"), status: 404, slug: "not-found")
                expectProblem(try await api.delete("/v1/blobs/\(id)"), status: 404, slug: "not-found")
            }
        }
    }
}
