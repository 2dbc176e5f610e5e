import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects without a decision (the service follows them, as URLSession does for a delegate that does not
/// implement `willPerformHTTPRedirection`), and what the delegate hears of them.
@Suite("URLSessionRemote: redirects")
struct RedirectTests {
    @Test(.timeLimit(.minutes(1)))
    func aRedirectIsFollowedAndTheResponseIsTheFinalOne() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let (data, response) = try await session.data(from: .fixture(origin.url("/redirect-chain/2")))
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url?.path == "/redirect-chain/0")
            #expect(String(decoding: data, as: UTF8.self).contains("2"))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDataTasksDelegateHearsTheResponseMetricsAndCompletionInOrder() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/redirect/302?to=/bytes/100"))))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.calls == ["didReceiveResponse", "didFinishCollecting", "didCompleteWithError"])
            #expect((delegate.responses.first as? HTTPURLResponse)?.url?.path == "/bytes/100")
            #expect(delegate.metrics.first?.redirectCount == 1)
            #expect(delegate.metrics.first?.transactionCount == 2)
            #expect(delegate.metrics.first?.taskInterval != nil)
        }
    }
}
