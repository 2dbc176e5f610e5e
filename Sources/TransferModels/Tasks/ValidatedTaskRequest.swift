public import Foundation

/// A task creation request after validation: what the store records, with every default applied.
public struct ValidatedTaskRequest: Sendable, Hashable {
    public var kind: TaskKind
    /// Nil only for a download made from `resumeData` (its request is in the resume data).
    public var request: URLRequestSnapshot?
    /// Upload tasks only.
    public var uploadBody: UploadBody?
    /// Download tasks only: the opaque string of a cancel or of an error's `NSURLSessionDownloadTaskResumeData`.
    public var resumeData: String?
    public var taskDescription: String?
    public var priority: Double
    public var earliestBeginDate: Date?
    public var countOfBytesClientExpectsToSend: Int64
    public var countOfBytesClientExpectsToReceive: Int64
    public var completion: TaskCompletionHandler?
    /// The client's secret for signing the completion POST; sealed by the store, never returned.
    public var completionSecret: String?
    /// `sha-256=:<base64>:` the received body must match.
    public var expectedDigest: String?
    /// Start at once (`resume()` right after creation).
    public var resume: Bool
    /// The segments a download runs with (its own, else its session's default); nil: one connection.
    public var segments: SegmentsConfiguration?
    /// WebSocket tasks only: the subprotocols offered and `maximumMessageSize`.
    public var webSocket: WebSocketTaskOptions?
    /// Stream tasks only: the host and port to connect to.
    public var stream: StreamTaskOptions?
    /// The task's own bandwidth limit (data, download and upload tasks); nil: none.
    public var rateLimit: RateLimit?
    /// Download tasks only: `mirrors`, `expectedLength`, `metalink` (`TaskCreateRequest+Mirrors`).
    public var sources: TransferSources?

    public init(
        kind: TaskKind, request: URLRequestSnapshot?, uploadBody: UploadBody? = nil, resumeData: String? = nil,
        taskDescription: String? = nil, priority: Double = TaskPriority.default, earliestBeginDate: Date? = nil,
        countOfBytesClientExpectsToSend: Int64 = -1, countOfBytesClientExpectsToReceive: Int64 = -1,
        completion: TaskCompletionHandler? = nil, completionSecret: String? = nil, expectedDigest: String? = nil,
        resume: Bool = false, segments: SegmentsConfiguration? = nil, webSocket: WebSocketTaskOptions? = nil,
        stream: StreamTaskOptions? = nil
    ) {
        self.kind = kind
        self.request = request
        self.uploadBody = uploadBody
        self.resumeData = resumeData
        self.taskDescription = taskDescription
        self.priority = priority
        self.earliestBeginDate = earliestBeginDate
        self.countOfBytesClientExpectsToSend = countOfBytesClientExpectsToSend
        self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
        self.completion = completion
        self.completionSecret = completionSecret
        self.expectedDigest = expectedDigest
        self.resume = resume
        self.segments = segments
        self.webSocket = webSocket
        self.stream = stream
    }
}

/// Where an upload task's body comes from.
public enum UploadBody: Sendable, Hashable {
    /// A stored blob of the tenant (`uploadTask(with:fromFile:)`).
    case blob(id: String)
    /// Bytes given inline (`uploadTask(with:from:)`).
    case data(Data)
    /// Bytes the client sends while the task runs (`uploadTask(withStreamedRequest:)`), never stored.
    case stream
}

/// The completion-handler form of a task: one `task.completion` POST to `url` when it completes.
public struct TaskCompletionHandler: Codable, Sendable, Hashable {
    public var url: String

    public init(url: String) { self.url = url }
}
