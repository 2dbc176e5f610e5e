public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// `URLSessionDelegate`, `URLSessionTaskDelegate`, `URLSessionDataDelegate` and `URLSessionDownloadDelegate`
/// in one protocol, called in the client process as the session's events arrive, in their order, one at
/// a time (like a serial `delegateQueue`). Every method has a default implementation that does nothing.
///
/// A task made with a `delegate:` argument (`data(for:delegate:)`, `download(from:delegate:)`) reports to
/// that delegate instead of the session's, as URLSession's task-specific delegates do.
///
/// The decision methods (`willPerformHTTPRedirection`, `didReceive challenge`, `didReceive response` with
/// its disposition, `willCacheResponse`) are not here: the service asks for decisions only through a
/// webhook, and a client without a public URL has no way to answer them (see the package's README).
/// The service then handles them as URLSession does without a delegate: redirects are followed, challenges
/// get the stored default credential, responses are allowed.
public protocol RemoteURLSessionDelegate: AnyObject, Sendable {
    /// The session is invalidated (`finishTasksAndInvalidate`, `invalidateAndCancel`).
    func urlSession(_ session: RemoteURLSession, didBecomeInvalidWithError error: (any Error)?) async
    /// A background session delivered every event it held for the client (after a re-attach).
    func urlSessionDidFinishEvents(forBackgroundURLSession session: RemoteURLSession) async
    func urlSession(_ session: RemoteURLSession, taskIsWaitingForConnectivity task: RemoteURLSessionTask) async
    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64) async
    /// The origin's response to a data task (the service allows it: see the protocol's note on decisions).
    func urlSession(_ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didReceive response: URLResponse) async
    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) async
    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
        expectedTotalBytes: Int64) async
    /// The downloaded file, fetched from the service to a temporary local file that is removed when this
    /// returns (move it to keep it), as URLSession does. Not called for `download(for:)`'s tasks, which
    /// return the file instead.
    func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didFinishDownloadingTo location: URL) async
    func urlSession(_ session: RemoteURLSession, task: RemoteURLSessionTask, didFinishCollecting metrics: RemoteURLSessionTaskMetrics) async
    /// The task completed: `error` is nil on success (a 404 is a success with a response), else a `URLError`.
    func urlSession(_ session: RemoteURLSession, task: RemoteURLSessionTask, didCompleteWithError error: (any Error)?) async
}

extension RemoteURLSessionDelegate {
    public func urlSession(_ session: RemoteURLSession, didBecomeInvalidWithError error: (any Error)?) async {}
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: RemoteURLSession) async {}
    public func urlSession(_ session: RemoteURLSession, taskIsWaitingForConnectivity task: RemoteURLSessionTask) async {}
    public func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) async {}
    public func urlSession(_ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didReceive response: URLResponse) async {}
    public func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) async {}
    public func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didResumeAtOffset fileOffset: Int64,
        expectedTotalBytes: Int64
    ) async {}
    public func urlSession(
        _ session: RemoteURLSession, downloadTask: RemoteURLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) async {}
    public func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didFinishCollecting metrics: RemoteURLSessionTaskMetrics
    ) async {}
    public func urlSession(_ session: RemoteURLSession, task: RemoteURLSessionTask, didCompleteWithError error: (any Error)?) async {}
}
