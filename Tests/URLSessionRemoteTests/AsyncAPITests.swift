import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `data(for:)`, `download(for:)` and their kin, tested as URLSession's own would be, against the real
/// binary and the fixture origin.
@Suite("URLSessionRemote: async API")
struct AsyncAPITests {
    @Test(.timeLimit(.minutes(1)))
    func dataFromAURLAnswersTheBodyAndTheResponse() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let (data, response) = try await session.data(from: .fixture(origin.url("/bytes/4096?seed=7")))
            #expect(data == Data(FixtureOrigin.bytes(count: 4096, seed: 7)))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url?.absoluteString == origin.url("/bytes/4096?seed=7"))
            #expect(http.value(forHTTPHeaderField: "Content-Length") == "4096")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aNotFoundIsAResponseNotAnError() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let (data, response) = try await session.data(from: .fixture(origin.url("/status/404")))
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            #expect(String(decoding: data, as: UTF8.self).contains("404"))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefusedConnectionIsCannotConnectToHost() async throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let url = try URL.fixture("http://127.0.0.1:\(refusing.port)/nothing")
            let error = try await #require(throws: URLError.self) { try await session.data(from: url) }
            #expect(error.code == .cannotConnectToHost)
            #expect(error.failingURL == url)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDownloadReportsProgressToItsDelegateAndAnswersTheFile() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let count = 1_000_000
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let delegate = RecordingDelegate()
            // Paced (2 s) so that the service reports progress more than once (every 0.5 s or 5 %).
            let url = try URL.fixture(origin.url("/bytes/\(count)?seed=3&rate=500000"))
            let (file, response) = try await session.download(from: url, delegate: delegate)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try Data(contentsOf: file) == Data(FixtureOrigin.bytes(count: count, seed: 3)))
            let progress = delegate.progress
            #expect(progress.count >= 2, "\(progress)")
            #expect(progress.last?.totalBytesWritten == Int64(count))
            #expect(progress.allSatisfy { $0.totalBytesExpectedToWrite == Int64(count) })
            #expect(progress.map(\.bytesWritten).reduce(0, +) == Int64(count), "deltas add up to the total")
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.totalBytesWritten < $1.totalBytesWritten })
            // The async API returns the file: its delegate is not handed one.
            #expect(delegate.files.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingADownloadCallThrowsCancelledWithResumeData() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let delegate = RecordingDelegate()
            let url = try URL.fixture(origin.url("/bytes/2000000?seed=5&rate=250000"))
            let call = Task { try await session.download(from: url, delegate: delegate) }
            try await eventually(timeout: 30) { (delegate.progress.last?.totalBytesWritten ?? 0) > 100_000 }
            call.cancel()
            let error = try await withTimeout(seconds: 30) {
                try await #require(throws: URLError.self) { try await call.value }
            }
            #expect(error.code == .cancelled)
            // What was downloaded is kept: resuming from the error's resume data completes the file.
            let resumeData = try #require(error.downloadTaskResumeData)
            let (file, _) = try await session.download(resumeFrom: resumeData)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(try Data(contentsOf: file) == Data(FixtureOrigin.bytes(count: 2_000_000, seed: 5)))
            let range = try #require(origin.requests.last?.header("Range"))
            #expect(range != "bytes=0-")
        }
    }
}
