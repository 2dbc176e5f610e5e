import Foundation
import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A delegate that writes down what it is told, for the tests to read.
final class RecordingDelegate: RemoteURLSessionDelegate, @unchecked Sendable {
    struct Progress: Sendable, Equatable {
        var bytesWritten: Int64
        var totalBytesWritten: Int64
        var totalBytesExpectedToWrite: Int64
    }

    /// `@unchecked Sendable`: every field is behind this lock.
    private let lock = NSLock()
    private var _progress: [Progress] = []
    private var _completions: [(task: String, error: (any Error)?)] = []
    private var _files: [(task: String, body: Data)] = []
    private var _calls: [String] = []
    private var _metrics: [RemoteURLSessionTaskMetrics] = []
    private var _responses: [URLResponse] = []

    var progress: [Progress] { self.lock.withLock { self._progress } }
    var completions: [(task: String, error: (any Error)?)] { self.lock.withLock { self._completions } }
    var files: [(task: String, body: Data)] { self.lock.withLock { self._files } }
    var calls: [String] { self.lock.withLock { self._calls } }
    /// The calls that end things: the file, the completion, the session's invalidation.
    var endings: [String] {
        self.calls.filter { ["didFinishDownloadingTo", "didCompleteWithError", "didBecomeInvalidWithError"].contains($0) }
    }
    var metrics: [RemoteURLSessionTaskMetrics] { self.lock.withLock { self._metrics } }
    var responses: [URLResponse] { self.lock.withLock { self._responses } }

    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didReceive response: URLResponse
    ) async -> URLSession.ResponseDisposition {
        self.lock.withLock {
            self._responses.append(response)
            self._calls.append("didReceiveResponse")
        }
        return .allow
    }

    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didFinishCollecting metrics: RemoteURLSessionTaskMetrics
    ) async {
        self.lock.withLock {
            self._metrics.append(metrics)
            self._calls.append("didFinishCollecting")
        }
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) async {
        let entry = Progress(
            bytesWritten: bytesWritten, totalBytesWritten: totalBytesWritten, totalBytesExpectedToWrite: totalBytesExpectedToWrite)
        self.lock.withLock {
            self._progress.append(entry)
            self._calls.append("didWriteData")
        }
    }

    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) async {
        // The file is removed when this returns, as URLSession's is: read it now.
        let body = (try? Data(contentsOf: location)) ?? Data()
        self.lock.withLock {
            self._files.append((downloadTask.identifier, body))
            self._calls.append("didFinishDownloadingTo")
        }
    }

    func urlSession(_ session: RemoteURLSession, task: RemoteURLSessionTask, didCompleteWithError error: (any Error)?) async {
        self.lock.withLock {
            self._completions.append((task.identifier, error))
            self._calls.append("didCompleteWithError")
        }
    }

    func urlSession(_ session: RemoteURLSession, didBecomeInvalidWithError error: (any Error)?) async {
        self.lock.withLock { self._calls.append("didBecomeInvalidWithError") }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: RemoteURLSession) async {
        self.lock.withLock { self._calls.append("urlSessionDidFinishEvents") }
    }
}
