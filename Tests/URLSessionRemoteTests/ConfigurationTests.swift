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
}
