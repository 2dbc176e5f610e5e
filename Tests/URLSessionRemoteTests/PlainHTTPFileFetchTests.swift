import Foundation
import TestSupport
import Testing

@testable import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The plain-`http` fetch of a task's file takes only a `200` with a `Content-Length`, byte for byte;
/// anything else answers false with nothing left behind, for the caller to ask again through URLSession.
@Suite("A task's file over plain http")
struct PlainHTTPFileFetchTests {
    private func fetch(_ origin: FixtureOrigin, _ path: String) async throws -> (fetched: Bool, file: Data?) {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("plain-fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        var request = URLRequest(url: URL(string: origin.url(path))!)
        request.setValue("Bearer token", forHTTPHeaderField: "Authorization")
        let fetched = await PlainHTTPFileFetch.fetch(request, to: destination)
        return (fetched, FileManager.default.contents(atPath: destination.path))
    }

    @Test(.timeLimit(.minutes(1)))
    func aSizedOKIsReadByteForByteWithTheCallersHeaders() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let (fetched, file) = try await fetch(origin, "/bytes/3000000?seed=7")
        #expect(fetched)
        #expect(file == Data(FixtureOrigin.bytes(count: 3_000_000, seed: 7)))
        #expect(origin.requests(path: "/bytes/3000000").first?.header("Authorization") == "Bearer token")
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["/status/404", "/bytes/1000?chunked=1", "/truncated?length=1000&send=10", "/close"])
    func anythingElseIsLeftToURLSession(path: String) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let (fetched, file) = try await fetch(origin, path)
        #expect(!fetched)
        #expect(file == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func httpsIsLeftToURLSession() async throws {
        var request = URLRequest(url: URL(string: "https://127.0.0.1:1/file")!)
        request.timeoutInterval = 5
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("plain-fetch-\(UUID().uuidString)")
        #expect(await PlainHTTPFileFetch.fetch(request, to: destination) == false)
    }
}
