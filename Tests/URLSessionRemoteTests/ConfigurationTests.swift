import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The configuration's properties reach the service's session and act as URLSessionConfiguration's do.
@Suite("URLSessionRemote: configuration")
struct ConfigurationTests {
    @Test(.timeLimit(.minutes(1)))
    func timeoutIntervalForRequestEndsAStalledTransferWithTimedOut() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            var configuration = RemoteURLSessionConfiguration.default(connection)
            configuration.timeoutIntervalForRequest = 1
            let session = RemoteURLSession(configuration: configuration)
            let error = try await #require(throws: URLError.self) {
                try await session.data(from: .fixture(origin.url("/stall?bytes=10&total=1000")))
            }
            #expect(error.code == .timedOut)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func httpAdditionalHeadersAreSentWithEveryRequest() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            var configuration = RemoteURLSessionConfiguration.ephemeral(connection)
            configuration.httpAdditionalHeaders = ["X-Api-Token": "abc"]
            configuration.tlsMinimumSupportedProtocolVersion = .tlsV12
            configuration.httpCookieStorage = .private
            let session = RemoteURLSession(configuration: configuration)
            var request = URLRequest(url: try .fixture(origin.url("/echo")))
            request.setValue("yes", forHTTPHeaderField: "X-Request")
            _ = try await session.data(for: request)
            let seen = try #require(origin.requests(path: "/echo").last)
            #expect(seen.header("X-Api-Token") == "abc")
            #expect(seen.header("X-Request") == "yes")
        }
    }

    /// `progressInterval` and `progressStep` (beyond URLSession) pace `didWriteData`: with 0.05 s and no
    /// step, a download paced over about 3 s is reported many times (up to 60; fewer on a busy machine);
    /// with the defaults (0.5 s, 5 %) at most about 8 times; either way the calls add up to the file.
    @Test(.timeLimit(.minutes(1)))
    func progressIntervalPacesTheProgressCalls() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            var counts: [Int] = []
            for interval in [0.05, nil] {
                var configuration = RemoteURLSessionConfiguration.default(connection)
                (configuration.progressInterval, configuration.progressStep) = (interval, interval == nil ? nil : 0)
                let delegate = RecordingDelegate()
                let session = RemoteURLSession(configuration: configuration, delegate: delegate)
                let task = try await session.downloadTask(with: .fixture(origin.url("/bytes/600000?seed=3&rate=200000")))
                try await task.resume()
                try await eventually(timeout: 30) { !delegate.completions.isEmpty }
                #expect(delegate.completions.first?.error == nil)
                #expect(delegate.progress.last?.totalBytesWritten == 600_000)
                #expect(delegate.progress.map(\.bytesWritten).reduce(0, +) == 600_000, "the deltas add up")
                counts.append(delegate.progress.count)
            }
            #expect(counts[1] <= 8, "every 0.5 s at most by default: \(counts)")
            #expect(counts[0] >= 2 * max(counts[1], 4), "every 0.05 s, many more: \(counts)")
        }
    }
}
