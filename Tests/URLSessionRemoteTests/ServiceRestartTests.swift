import Foundation
import TestSupport
import Testing
import URLSessionRemote

/// The service goes away under a running client (killed, then started again at the same address): the
/// client's event stream reconnects with `Last-Event-ID` and its delegate hears the rest of the download once.
@Suite("URLSessionRemote: service restarts")
struct ServiceRestartTests {
    @Test(.timeLimit(.minutes(2)))
    func theEventStreamReconnectsAndTheDelegateHearsTheFileOnce() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessionremote-restart")
        defer { directory.remove() }
        let state = try TemporaryDirectory.make(prefix: "urlsessionremote-state")
        defer { state.remove() }
        let count = 1_000_000
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: RemoteService.environment)
        let delegate = RecordingDelegate()
        var configuration = RemoteURLSessionConfiguration.background(
            withIdentifier: "com.example.restart", connection: try RemoteService.connection(first))
        configuration.stateDirectory = state.url
        let session = RemoteURLSession(configuration: configuration, delegate: delegate)
        // Paced (4 s) so that the kill lands inside the transfer; ranges let the service pick it up again.
        let task = try await session.downloadTask(with: .fixture(origin.url("/bytes/\(count)?seed=13&rate=250000")))
        try await task.resume()
        try await eventually(timeout: 30) { !delegate.progress.isEmpty }
        await first.kill9()
        // The same address again (the client's connection names it), the same data directory.
        let second = try await ServiceProcess.start(
            dataDirectory: directory.url, environment: RemoteService.environment, arguments: ["--port", String(first.port)])
        #expect(second.port == first.port)
        try await eventually(timeout: 60) { !delegate.completions.isEmpty }
        #expect(delegate.completions.count == 1)
        #expect(delegate.completions.first?.error == nil, "\(String(describing: delegate.completions.first?.error))")
        #expect(delegate.files.count == 1)
        #expect(delegate.files.first?.body == Data(FixtureOrigin.bytes(count: count, seed: 13)))
        #expect(try await second.terminate() == 0)
    }
}
