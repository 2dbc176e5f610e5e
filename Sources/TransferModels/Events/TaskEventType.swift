/// Every delegate method the service reports, named `<protocol>.<method>` after URLSession's delegates.
public enum TaskEventType: String, Codable, Sendable, CaseIterable {
    // URLSessionDelegate
    case sessionDidBecomeInvalidWithError = "session.didBecomeInvalidWithError"
    case sessionDidReceiveChallenge = "session.didReceiveChallenge"
    case sessionDidFinishEventsForBackgroundURLSession = "session.didFinishEventsForBackgroundURLSession"
    // URLSessionTaskDelegate
    case taskDidCreateTask = "task.didCreateTask"
    case taskWillBeginDelayedRequest = "task.willBeginDelayedRequest"
    case taskIsWaitingForConnectivity = "task.taskIsWaitingForConnectivity"
    case taskNeedNewBodyStream = "task.needNewBodyStream"
    case taskWillPerformHTTPRedirection = "task.willPerformHTTPRedirection"
    case taskDidReceiveChallenge = "task.didReceiveChallenge"
    case taskDidSendBodyData = "task.didSendBodyData"
    case taskDidReceiveInformationalResponse = "task.didReceiveInformationalResponse"
    case taskDidFinishCollectingMetrics = "task.didFinishCollectingMetrics"
    case taskDidCompleteWithError = "task.didCompleteWithError"
    // URLSessionDataDelegate
    case dataTaskDidReceiveResponse = "dataTask.didReceiveResponse"
    case dataTaskDidBecomeDownloadTask = "dataTask.didBecomeDownloadTask"
    case dataTaskDidReceiveData = "dataTask.didReceiveData"
    case dataTaskWillCacheResponse = "dataTask.willCacheResponse"
    // URLSessionDownloadDelegate
    case downloadTaskDidWriteData = "downloadTask.didWriteData"
    case downloadTaskDidResumeAtOffset = "downloadTask.didResumeAtOffset"
    case downloadTaskDidFinishDownloadingTo = "downloadTask.didFinishDownloadingTo"
    // URLSessionWebSocketDelegate (and `didReceiveMessage`, beyond it: `receive` as an event)
    case webSocketTaskDidOpenWithProtocol = "webSocketTask.didOpenWithProtocol"
    case webSocketTaskDidCloseWith = "webSocketTask.didCloseWith"
    case webSocketTaskDidReceiveMessage = "webSocketTask.didReceiveMessage"
    // URLSessionStreamDelegate (`betterRouteDiscovered` never comes: no route is preferred)
    case streamTaskReadClosed = "streamTask.readClosed"
    case streamTaskWriteClosed = "streamTask.writeClosed"
    // Beyond URLSession: a download's mirrors (`mirrors`, `metalink`).
    case taskDidDropMirror = "task.didDropMirror"
    case taskDidRejectPiece = "task.didRejectPiece"
    // The completion-handler form (`dataTask(with:completionHandler:)`).
    case taskCompletion = "task.completion"

    /// Methods whose return value (or completion handler) decides what the transfer does next.
    public var isDecision: Bool {
        switch self {
        case .sessionDidReceiveChallenge, .taskWillBeginDelayedRequest, .taskWillPerformHTTPRedirection,
            .taskDidReceiveChallenge, .dataTaskDidReceiveResponse, .dataTaskWillCacheResponse:
            true
        default:
            false
        }
    }
}
