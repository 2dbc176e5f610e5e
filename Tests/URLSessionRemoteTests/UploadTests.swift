import Crypto
import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `upload(for:from:)` and `upload(for:fromFile:)`: the origin receives the bytes; the call answers its body.
@Suite("URLSessionRemote: uploads")
struct UploadTests {
    /// What the fixture origin's `/upload` says it received.
    struct Received: Decodable {
        var method: String
        var bodySize: Int
        var bodySHA256: String
    }

    @Test(.timeLimit(.minutes(1)))
    func uploadFromDataSendsTheBodyInlineOrThroughABlob() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            var request = URLRequest(url: try .fixture(origin.url("/upload")))
            request.httpMethod = "PUT"
            // Small bodies go inline; past 1 MiB they go through a blob first.
            for size in [1000, 1_500_000] {
                let body = Data(FixtureOrigin.bytes(count: size, seed: 8))
                let (data, response) = try await session.upload(for: request, from: body)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let received = try JSONDecoder().decode(Received.self, from: data)
                #expect(received.method == "PUT")
                #expect(received.bodySize == size)
                #expect(received.bodySHA256 == sha256Hex(body))
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func uploadFromFileSendsTheFile() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessionremote-upload")
        defer { directory.remove() }
        let file = directory.appending("body.bin")
        let body = Data(FixtureOrigin.bytes(count: 300_000, seed: 12))
        try body.write(to: file)
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            var request = URLRequest(url: try .fixture(origin.url("/upload")))
            request.httpMethod = "POST"
            let (data, _) = try await session.upload(for: request, fromFile: file)
            let received = try JSONDecoder().decode(Received.self, from: data)
            #expect(received.bodySize == body.count)
            #expect(received.bodySHA256 == sha256Hex(body))
        }
    }
}

/// Lowercase hex SHA-256, as the fixture origin reports `bodySHA256`.
func sha256Hex(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
}
