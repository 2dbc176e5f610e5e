import Foundation
import TestSupport
import Testing
import URLSessionRemote

/// Background sessions by identifier: the client goes away (killed), the service keeps downloading, and
/// the client that comes back with the same identifier hears the rest — the file once.
@Suite("URLSessionRemote: background sessions")
struct BackgroundSessionTests {
    @Test(.timeLimit(.minutes(2)))
    func aDownloadWhoseClientWasKilledCompletesAndTheRestartedClientHearsTheFileOnce() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let state = try TemporaryDirectory.make(prefix: "urlsessionremote-state")
        defer { state.remove() }
        let count = 400_000
        try await withRemoteService { connection, _ in
            let common = [connection.url.absoluteString, connection.token, "com.example.relaunch", state.path]
            // The origin sends a first part, then holds the rest until the gate opens: the client is killed
            // in the middle of the transfer.
            let url = origin.url("/gate/relaunch?bytes=100000&total=\(count)&seed=2")
            let first = try ProbeProcess(arguments: common + ["60", url])
            let started = try await first.line(startingWith: "started ", within: 30)
            let taskID = String(started.dropFirst("started ".count))
            try await first.line(startingWith: "didWriteData", within: 30)
            try await first.kill9()
            origin.openGate("relaunch")

            let second = try ProbeProcess(arguments: common + ["60", "until-complete"])
            try await second.exit(within: 60)
            let heard = second.lines
            #expect(heard.filter { $0.hasPrefix("didFinishDownloadingTo") } == ["didFinishDownloadingTo \(taskID) \(count)"], "\(heard)")
            #expect(heard.filter { $0.hasPrefix("didCompleteWithError") } == ["didCompleteWithError \(taskID) nil"], "\(heard)")

            // A third run hears nothing of that task again: only the end of the held events.
            let third = try ProbeProcess(arguments: common + ["30", "until-finish-events"])
            try await third.exit(within: 40)
            #expect(third.lines.contains("urlSessionDidFinishEvents"), "\(third.lines)")
            #expect(!third.lines.contains { $0.contains(taskID) }, "\(third.lines)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSecondSessionWithTheSameIdentifierIsTheSameSession() async throws {
        let state = try TemporaryDirectory.make(prefix: "urlsessionremote-state")
        defer { state.remove() }
        try await withRemoteService { connection, _ in
            var configuration = RemoteURLSessionConfiguration.background(withIdentifier: "com.example.same", connection: connection)
            configuration.stateDirectory = state.url
            let first = try await RemoteURLSession(configuration: configuration).sessionIdentifier()
            let again = try await RemoteURLSession(configuration: configuration).sessionIdentifier()
            #expect(first == again)
            var other = configuration
            other.identifier = "com.example.other"
            #expect(try await RemoteURLSession(configuration: other).sessionIdentifier() != first)
        }
    }
}
