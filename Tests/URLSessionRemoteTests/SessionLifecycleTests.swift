import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `getAllTasks`, `finishTasksAndInvalidate`, `invalidateAndCancel`, `reset`, `flush`, `.shared`, and the
/// service's refusals as ``RemoteServiceError``.
@Suite("URLSessionRemote: sessions")
struct SessionLifecycleTests {
    @Test(.timeLimit(.minutes(1)))
    func getAllTasksListsTheTasksThatHaveNotCompleted() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            _ = try await session.data(from: .fixture(origin.url("/bytes/10")))
            let waiting = try await session.downloadTask(with: .fixture(origin.url("/bytes/10")))
            let all = try await session.getAllTasks()
            #expect(all.map(\.identifier) == [waiting.identifier])
            #expect(all.first === waiting, "the same object the client holds")
            #expect(all.first?.state == .suspended)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidateAndCancelCancelsTheRunningTaskThenTheDelegateHearsTheSessionIsInvalid() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/stall?bytes=10&total=1000"))))
            try await task.resume()
            try await session.invalidateAndCancel()
            try await eventually(timeout: 30) { delegate.calls.contains("didBecomeInvalidWithError") }
            #expect(delegate.endings == ["didCompleteWithError", "didBecomeInvalidWithError"])
            #expect((delegate.completions.first?.error as? URLError)?.code == .cancelled)
            let refused = try await #require(throws: RemoteServiceError.self) {
                try await session.data(from: .fixture(origin.url("/bytes/10")))
            }
            #expect(refused.status == 409)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func finishTasksAndInvalidateLetsTheRunningTaskFinishFirst() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.downloadTask(with: .fixture(origin.url("/bytes/200000?seed=1&rate=400000")))
            try await task.resume()
            try await session.finishTasksAndInvalidate()
            try await eventually(timeout: 30) { delegate.calls.contains("didBecomeInvalidWithError") }
            #expect(delegate.endings == ["didFinishDownloadingTo", "didCompleteWithError", "didBecomeInvalidWithError"])
            #expect(delegate.completions.first?.error == nil)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func resetAndFlushAreAnswered() async throws {
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .ephemeral(connection))
            try await session.reset()
            try await session.flush()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theSharedSessionRunsTasksAndCannotBeInvalidated() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let shared = RemoteURLSession(sharedSessionOf: connection)
            let (data, _) = try await shared.data(from: .fixture(origin.url("/bytes/64?seed=2")))
            #expect(data == Data(FixtureOrigin.bytes(count: 64, seed: 2)))
            // A second client of the same shared session only hears its own tasks.
            let again = RemoteURLSession(sharedSessionOf: connection)
            let (more, _) = try await again.data(from: .fixture(origin.url("/bytes/32?seed=3")))
            #expect(more == Data(FixtureOrigin.bytes(count: 32, seed: 3)))
            let refused = try await #require(throws: RemoteServiceError.self) { try await shared.finishTasksAndInvalidate() }
            #expect(refused.status == 409)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aWrongTokenIsTheServicesRefusalNotATransferError() async throws {
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(RemoteConnection(url: connection.url, token: "wrong-token-0123456789")))
            let refused = try await #require(throws: RemoteServiceError.self) {
                try await session.data(from: .fixture("http://127.0.0.1:9/"))
            }
            #expect(refused.status == 401)
        }
    }

    @Test
    func theEnvironmentNamesTheConnection() throws {
        let connection = RemoteConnection.environment(["URLSESSIOND_URL": "http://127.0.0.1:9999", "URLSESSIOND_TOKEN": "t"])
        #expect(connection == RemoteConnection(url: try .fixture("http://127.0.0.1:9999"), token: "t"))
        #expect(RemoteConnection.environment([:]).url.absoluteString == "http://127.0.0.1:8080")
    }
}
