import Foundation
import TestSupport
import Testing
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `downloadTask(with:)`, `resume`, `suspend`, `cancel`, `cancel(byProducingResumeData:)` and
/// `downloadTask(withResumeData:)`, with the session's delegate hearing the file and the completion.
@Suite("URLSessionRemote: task API")
struct TaskAPITests {
    @Test(.timeLimit(.minutes(1)))
    func aDownloadTaskHandsItsFileToTheDelegateThenCompletes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.downloadTask(
                with: .fixture(origin.url("/bytes/300000?seed=9")), options: .init(taskDescription: "nightly"))
            #expect(task.state == .suspended)
            #expect(task.taskDescription == "nightly")
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.files.map(\.body) == [Data(FixtureOrigin.bytes(count: 300_000, seed: 9))])
            #expect(delegate.completions.first?.error == nil)
            #expect(delegate.endings == ["didFinishDownloadingTo", "didCompleteWithError"])
            #expect(task.state == .completed)
            #expect(task.countOfBytesReceived == 300_000)
            #expect((task.response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelByProducingResumeDataThenResumingCompletesTheFile() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let count = 1_500_000
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            // Paced so the cancel lands inside the transfer.
            let task = try await session.downloadTask(with: .fixture(origin.url("/bytes/\(count)?seed=21&rate=250000")))
            try await task.resume()
            try await eventually(timeout: 30) { (delegate.progress.last?.totalBytesWritten ?? 0) > 100_000 }
            let resumeData = try #require(try await task.cancelByProducingResumeData())
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            let error = try #require(delegate.completions.first?.error as? URLError)
            #expect(error.code == .cancelled)
            #expect(delegate.files.isEmpty)

            let (file, response) = try await session.download(resumeFrom: resumeData)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect((response as? HTTPURLResponse).map { [200, 206].contains($0.statusCode) } == true)
            #expect(try Data(contentsOf: file) == Data(FixtureOrigin.bytes(count: count, seed: 21)))
            let range = try #require(origin.requests.last?.header("Range"))
            #expect(range.hasPrefix("bytes=") && range != "bytes=0-")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func suspendStopsATaskAndResumeFinishesIt() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.downloadTask(with: .fixture(origin.url("/bytes/600000?seed=4&rate=300000")))
            try await task.resume()
            #expect(task.state == .running)
            try await eventually(timeout: 30) { !delegate.progress.isEmpty }
            try await task.suspend()
            #expect(task.state == .suspended)
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
            #expect(delegate.files.first?.body == Data(FixtureOrigin.bytes(count: 600_000, seed: 4)))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelCompletesTheTaskWithCancelled() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let task = try await session.dataTask(with: URLRequest(url: .fixture(origin.url("/stall?bytes=10&total=1000"))))
            try await task.resume()
            try await task.cancel()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect((delegate.completions.first?.error as? URLError)?.code == .cancelled)
            #expect(task.state == .completed)
            #expect((task.error as? URLError)?.code == .cancelled)
            // Cancelling again, once completed, does nothing (as URLSession).
            try await task.cancel()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskKeepsItsDescriptionPriorityAndEarliestBeginDate() async throws {
        try await withRemoteService { connection, _ in
            let session = RemoteURLSession(configuration: .default(connection))
            let begin = Date(timeIntervalSinceNow: 3600)
            let options = RemoteURLSessionTask.Options(
                taskDescription: "later", priority: RemoteURLSessionTask.highPriority, earliestBeginDate: begin)
            let task = try await session.dataTask(with: URLRequest(url: .fixture("http://127.0.0.1:9/later")), options: options)
            #expect(task.taskDescription == "later")
            #expect(task.priority == RemoteURLSessionTask.highPriority)
            let kept = try #require(task.earliestBeginDate)
            #expect(abs(kept.timeIntervalSince(begin)) < 0.01)
            #expect(task.taskIdentifier >= 1)
            #expect(task.state == .suspended)
            let listed = try await session.getAllTasks()
            #expect(listed.first === task)
        }
    }
}

@Suite("URLSessionRemote: mirrors")
struct RemoteMirrorsTests {
    /// The service's events beyond URLSession (`task.didDropMirror`) reach the library, which goes on.
    @Test(.timeLimit(.minutes(1)))
    func aDownloadWithAFailingFirstMirrorCompletesFromTheNext() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRemoteService { connection, _ in
            let delegate = RecordingDelegate()
            let session = RemoteURLSession(configuration: .default(connection), delegate: delegate)
            let mirror = try #require(URL(string: origin.url("/bytes/300000?seed=9")))
            let task = try await session.downloadTask(
                with: .fixture(origin.url("/status/503")), options: .init(mirrors: [mirror]))
            try await task.resume()
            try await eventually(timeout: 30) { !delegate.completions.isEmpty }
            #expect(delegate.completions.first?.error == nil)
            #expect(delegate.files.map(\.body) == [Data(FixtureOrigin.bytes(count: 300_000, seed: 9))])
            #expect(delegate.endings == ["didFinishDownloadingTo", "didCompleteWithError"])
            #expect((task.response as? HTTPURLResponse)?.statusCode == 200)
        }
    }
}
