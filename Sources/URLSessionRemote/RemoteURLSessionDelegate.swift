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
/// The decision methods (`willPerformHTTPRedirection`, `didReceive challenge`, `didReceive response`'s
/// disposition, `willCacheResponse`, `willBeginDelayedRequest`) are asked only for the events the session's
/// delegate lists in ``decisions``: the service cannot see which methods a Swift delegate implements, and
/// a transfer waits (up to 10 s) for each decision it asks. The session's delegate's `decisions` decide
/// which events are asked, for every task of the session; a task-specific delegate answers the decisions
/// of its task (as URLSession asks a task's delegate first), but cannot add any. Events not listed get
/// URLSession's handling without a delegate: redirects are followed, challenges get the stored default
/// credential, responses are allowed, cacheable responses stored, delayed requests begun.
public protocol RemoteURLSessionDelegate: AnyObject, Sendable {
    /// The decision methods this delegate implements (default none): the service asks only these.
    var decisions: RemoteURLSessionDecisions { get }
    /// The session is invalidated (`finishTasksAndInvalidate`, `invalidateAndCancel`).
    func urlSession(_ session: RemoteURLSession, didBecomeInvalidWithError error: (any Error)?) async
    /// A background session delivered every event it held for the client (after a re-attach).
    func urlSessionDidFinishEvents(forBackgroundURLSession session: RemoteURLSession) async
    func urlSession(_ session: RemoteURLSession, taskIsWaitingForConnectivity task: RemoteURLSessionTask) async
    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64) async
    /// The origin's response to a data task. The disposition counts when ``decisions`` has `.response`
    /// (`.becomeDownload`, `.cancel` — the task fails with `URLError(.cancelled)` —, else allowed).
    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didReceive response: URLResponse
    ) async -> URLSession.ResponseDisposition
    /// After `.becomeDownload`: the task goes on as `downloadTask` (same `identifier`), whose
    /// `didWriteData` and `didFinishDownloadingTo` follow; `dataTask` completes with it.
    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didBecome downloadTask: RemoteURLSessionDownloadTask
    ) async
    /// `.redirection`: the request to follow the 3xx with — `request` itself, a modified one, or nil to
    /// make the 3xx the task's final response.
    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest
    ) async -> URLRequest?
    /// `.taskChallenge`: an HTTP challenge (Basic, Digest; and the session-wide ones when `.sessionChallenge`
    /// is not listed). `challenge.proposedCredential` carries no password (the service keeps it): answer
    /// `.useCredential` with it to use the stored credential.
    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?)
    /// `.sessionChallenge`: server trust, client certificates, NTLM, Negotiate. For server trust any
    /// credential with `.useCredential` accepts the chain (the service evaluates it, not this process).
    func urlSession(
        _ session: RemoteURLSession, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?)
    /// `.caching`: the response to store (its `storagePolicy` and `userInfo`, which must be JSON), or nil
    /// not to store it. `proposedResponse.data` is the body when it is at most 64 KiB, else empty.
    func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse
    ) async -> CachedURLResponse?
    /// `.delayedRequest`: a task with an `earliestBeginDate` is about to begin.
    func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, willBeginDelayedRequest request: URLRequest
    ) async -> (URLSession.DelayedRequestDisposition, URLRequest?)
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
    public var decisions: RemoteURLSessionDecisions { [] }
    public func urlSession(_ session: RemoteURLSession, didBecomeInvalidWithError error: (any Error)?) async {}
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: RemoteURLSession) async {}
    public func urlSession(_ session: RemoteURLSession, taskIsWaitingForConnectivity task: RemoteURLSessionTask) async {}
    public func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) async {}
    public func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didReceive response: URLResponse
    ) async -> URLSession.ResponseDisposition { .allow }
    public func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, didBecome downloadTask: RemoteURLSessionDownloadTask
    ) async {}
    public func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest
    ) async -> URLRequest? { request }
    public func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) { (.performDefaultHandling, nil) }
    public func urlSession(
        _ session: RemoteURLSession, didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) { (.performDefaultHandling, nil) }
    public func urlSession(
        _ session: RemoteURLSession, dataTask: RemoteURLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse
    ) async -> CachedURLResponse? { proposedResponse }
    public func urlSession(
        _ session: RemoteURLSession, task: RemoteURLSessionTask, willBeginDelayedRequest request: URLRequest
    ) async -> (URLSession.DelayedRequestDisposition, URLRequest?) { (.continueLoading, nil) }
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
