public import JSONCodec

/// A delegate call as the service records it: which URLSession delegate method, with its arguments.
/// Every event's `data` is encoded here and nowhere else (`encodedData()`), from the payload types of
/// `TaskEventData.swift` and `TaskDelegateEventData.swift`, with requests and responses `redacted`.
public enum DelegateEvent: Sendable {
    // URLSessionDelegate
    case sessionDidBecomeInvalid(error: TransferError?)
    case sessionDidFinishEventsForBackgroundURLSession
    // URLSessionTaskDelegate
    case didCreateTask(TaskSummary)
    case willBeginDelayedRequest(TaskSummary, request: URLRequestSnapshot)
    case taskIsWaitingForConnectivity(TaskSummary)
    /// A streamed upload's body must be sent again from the start (a 307/308 keeps the body).
    case needNewBodyStream(TaskSummary)
    case willPerformHTTPRedirection(TaskSummary, response: HTTPResponseSnapshot, request: URLRequestSnapshot)
    /// `task.didReceiveChallenge` or `session.didReceiveChallenge` (`method`).
    case didReceiveChallenge(ChallengeEventData, method: TaskEventType)
    case didReceiveInformationalResponse(TaskSummary, response: HTTPResponseSnapshot)
    case didSendBodyData(TaskSummary, bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64)
    /// `metrics`: the task's metrics, already encoded (the store keeps the same bytes in the task's row).
    case didFinishCollectingMetrics(TaskSummary, metrics: EncodedJSON)
    case didCompleteWithError(TaskSummary, error: TransferError?)
    // URLSessionDataDelegate
    case didReceiveResponse(TaskSummary, response: HTTPResponseSnapshot)
    case didBecomeDownloadTask(TaskSummary, downloadTask: TaskSummary)
    /// `data`: the `length` bytes themselves (`delegate.deliverData`), or nil for counts only.
    case didReceiveData(
        TaskSummary, length: Int64, totalBytesReceived: Int64, totalBytesExpectedToReceive: Int64, data: [UInt8]? = nil)
    case willCacheResponse(TaskSummary, proposedResponse: CachedResponseObject)
    // URLSessionDownloadDelegate
    case didWriteData(TaskSummary, bytesWritten: Int64, totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64)
    case didResumeAtOffset(TaskSummary, fileOffset: Int64, expectedTotalBytes: Int64)
    case didFinishDownloading(TaskSummary, location: String)
    // URLSessionWebSocketDelegate
    case webSocketDidOpen(TaskSummary, protocol: String?)
    case webSocketDidClose(TaskSummary, closeCode: Int, reason: String?)
    /// `message`: nil when it is larger than the delegate's `deliverDataMaxBytes` (counts only).
    case webSocketDidReceiveMessage(TaskSummary, sequence: Int64, length: Int, message: WebSocketMessageObject?)
    // URLSessionStreamDelegate (`betterRouteDiscovered` is never sent: the service has no route to prefer)
    case streamReadClosed(TaskSummary)
    case streamWriteClosed(TaskSummary)
    // A download's mirrors (beyond URLSession).
    case didDropMirror(TaskSummary, url: String, reason: String)
    case didRejectPiece(TaskSummary, index: Int, mirror: String)
    // The completion-handler form.
    case completion(CompletionHandlerEventData)

    public var type: TaskEventType {
        switch self {
        case .sessionDidBecomeInvalid: .sessionDidBecomeInvalidWithError
        case .sessionDidFinishEventsForBackgroundURLSession: .sessionDidFinishEventsForBackgroundURLSession
        case .didCreateTask: .taskDidCreateTask
        case .willBeginDelayedRequest: .taskWillBeginDelayedRequest
        case .taskIsWaitingForConnectivity: .taskIsWaitingForConnectivity
        case .needNewBodyStream: .taskNeedNewBodyStream
        case .willPerformHTTPRedirection: .taskWillPerformHTTPRedirection
        case .didReceiveChallenge(_, let method): method
        case .didReceiveInformationalResponse: .taskDidReceiveInformationalResponse
        case .didSendBodyData: .taskDidSendBodyData
        case .didFinishCollectingMetrics: .taskDidFinishCollectingMetrics
        case .didCompleteWithError: .taskDidCompleteWithError
        case .didReceiveResponse: .dataTaskDidReceiveResponse
        case .didBecomeDownloadTask: .dataTaskDidBecomeDownloadTask
        case .didReceiveData: .dataTaskDidReceiveData
        case .willCacheResponse: .dataTaskWillCacheResponse
        case .didWriteData: .downloadTaskDidWriteData
        case .didResumeAtOffset: .downloadTaskDidResumeAtOffset
        case .didFinishDownloading: .downloadTaskDidFinishDownloadingTo
        case .webSocketDidOpen: .webSocketTaskDidOpenWithProtocol
        case .webSocketDidClose: .webSocketTaskDidCloseWith
        case .webSocketDidReceiveMessage: .webSocketTaskDidReceiveMessage
        case .streamReadClosed: .streamTaskReadClosed
        case .streamWriteClosed: .streamTaskWriteClosed
        case .didDropMirror: .taskDidDropMirror
        case .didRejectPiece: .taskDidRejectPiece
        case .completion: .taskCompletion
        }
    }

    /// The event as the store keeps it: its type and its `data`.
    public func encoded() throws -> EncodedEvent {
        EncodedEvent(type: type, data: try encodedData())
    }

    /// The event's `data` object, as the API's JSON.
    public func encodedData() throws -> String {
        let bytes: [UInt8]
        switch self {
        case .sessionDidBecomeInvalid(let error):
            bytes = try WireJSON.encode(SessionInvalidatedEventData(error: error))
        case .sessionDidFinishEventsForBackgroundURLSession:
            bytes = try WireJSON.encode(EmptyEventData())
        case .didCreateTask(let task), .taskIsWaitingForConnectivity(let task), .needNewBodyStream(let task),
            .streamReadClosed(let task), .streamWriteClosed(let task):
            bytes = try WireJSON.encode(TaskCreatedEventData(task: task))  // each carries `{task}` alone
        case .willBeginDelayedRequest(let task, let request):
            bytes = try WireJSON.encode(DelayedRequestEventData(task: task, request: request.redacted))
        case .willPerformHTTPRedirection(let task, let response, let request):
            bytes = try WireJSON.encode(RedirectEventData(task: task, response: response.redacted, request: request.redacted))
        case .didReceiveChallenge(var challenge, _):
            challenge.challenge.failureResponse = challenge.challenge.failureResponse?.redacted
            bytes = try WireJSON.encode(challenge)
        case .didSendBodyData(let task, let sent, let total, let expected):
            bytes = try WireJSON.encode(
                SendBodyDataEventData(
                    task: task, bytesSent: sent, totalBytesSent: total, totalBytesExpectedToSend: expected))
        case .didFinishCollectingMetrics(let task, let metrics):
            bytes = try WireJSON.encode(TaskMetricsEventData(task: task, metrics: metrics))
        case .didCompleteWithError(let task, let error):
            bytes = try WireJSON.encode(TaskCompletedEventData(task: task, error: error))
        case .didReceiveResponse(let task, let response), .didReceiveInformationalResponse(let task, let response):
            bytes = try WireJSON.encode(ResponseEventData(task: task, response: response.redacted))
        case .didBecomeDownloadTask(let task, let download):
            bytes = try WireJSON.encode(BecomeDownloadEventData(task: task, downloadTask: download))
        case .didReceiveData(let task, let length, let total, let expected, let data):
            bytes = try WireJSON.encode(
                ReceiveDataEventData(
                    task: task, length: length, totalBytesReceived: total, totalBytesExpectedToReceive: expected,
                    data: data))
        case .willCacheResponse(let task, var proposed):
            proposed.response = proposed.response.redacted
            bytes = try WireJSON.encode(WillCacheResponseEventData(task: task, proposedResponse: proposed))
        case .didWriteData(let task, let written, let total, let expected):
            bytes = try WireJSON.encode(
                WriteDataEventData(
                    task: task, bytesWritten: written, totalBytesWritten: total, totalBytesExpectedToWrite: expected))
        case .didResumeAtOffset(let task, let offset, let expected):
            bytes = try WireJSON.encode(ResumeEventData(task: task, fileOffset: offset, expectedTotalBytes: expected))
        case .didFinishDownloading(let task, let location):
            bytes = try WireJSON.encode(FinishDownloadingEventData(task: task, location: location))
        case .webSocketDidOpen(let task, let chosen):
            bytes = try WireJSON.encode(WebSocketOpenEventData(task: task, protocol: chosen))
        case .webSocketDidClose(let task, let code, let reason):
            bytes = try WireJSON.encode(WebSocketCloseEventData(task: task, closeCode: code, reason: reason))
        case .webSocketDidReceiveMessage(let task, let sequence, let length, let message):
            bytes = try WireJSON.encode(WebSocketMessageEventData(task: task, sequence: sequence, length: length, message: message))
        case .didDropMirror(let task, let url, let reason):
            bytes = try WireJSON.encode(DropMirrorEventData(task: task, url: url, reason: reason))
        case .didRejectPiece(let task, let index, let mirror):
            bytes = try WireJSON.encode(RejectPieceEventData(task: task, index: index, mirror: mirror))
        case .completion(var data):
            data.response = data.response?.redacted
            bytes = try WireJSON.encode(data)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// An event ready for the store: its type and its `data` as JSON text.
public struct EncodedEvent: Sendable, Equatable {
    public var type: TaskEventType
    public var data: String

    public init(type: TaskEventType, data: String) {
        self.type = type
        self.data = data
    }
}

/// `data` of `session.didBecomeInvalidWithError`: `{"error": {...} | null}`.
struct SessionInvalidatedEventData: Encodable {
    var error: TransferError?

    enum CodingKeys: String, CodingKey { case error }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(error.map(TransferErrorWire.init), forKey: .error)
    }
}

/// `data` of an event whose method has no argument: `{}`.
struct EmptyEventData: Encodable {}
