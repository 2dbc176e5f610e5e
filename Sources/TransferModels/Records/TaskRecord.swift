public import Foundation
public import JSONCodec

/// A row of `task`: one `URLSessionTask` of a session, with what the engine needs to run it again
/// after a restart. `wire` is the API's view of it.
///
/// Columns are read and written by hand rather than through `Codable`: JSON columns use the API's own
/// JSON (RFC 3339 dates, explicit forms), enumerations are checked, and `originalRequest` — NOT NULL
/// since v1 — holds the JSON text `null` for a download made from resume data.
public struct TaskRecord: Sendable, Hashable {
    /// Insertion order, used for pagination cursors.
    public var rowid: Int64?
    public var id: String
    public var sessionId: String
    public var tenant: String
    public var taskIdentifier: Int
    public var kind: TaskKind
    public var state: TaskState
    /// `suspend()` calls not yet balanced by `resume()`; the task runs at zero (it is created at one).
    public var suspendCount: Int
    public var priority: Double
    public var taskDescription: String?
    public var earliestBeginDate: Date?
    public var originalRequest: URLRequestSnapshot?
    public var currentRequest: URLRequestSnapshot?
    public var response: HTTPResponseSnapshot?
    public var countOfBytesSent: Int64
    public var countOfBytesExpectedToSend: Int64
    public var countOfBytesReceived: Int64
    public var countOfBytesExpectedToReceive: Int64
    public var countOfBytesClientExpectsToSend: Int64
    public var countOfBytesClientExpectsToReceive: Int64
    public var error: TransferError?
    /// Where an upload's body is: a blob, or the `taskUpload` row (`inlineUploadData(taskId:)`).
    public var uploadSource: UploadSourceReference?
    public var completion: TaskCompletionHandler?
    /// The completion handler's own signing secret, sealed (`completionSecret(of:)` opens it).
    public var completionSecret: Data?
    public var expectedDigest: String?
    /// The opaque string a download was created from, until the engine has used it.
    public var resumeData: String?
    /// The downloaded file (download tasks) or the spilled response body (data and upload tasks).
    public var filePath: String?
    /// When the file is removed unless deleted before.
    public var fileExpiresAt: Date?
    /// The key of a finished download's file in the object store, once it was put there
    /// (`URLSESSIOND_OBJECT_STORE_URL`); `filePath` then names the local copy, which is gone.
    public var fileObject: String?
    /// A running download's partial file (checkpointed by the engine), for picking it up again.
    public var partialPath: String?
    public var metrics: TaskMetrics?
    /// The segments a download runs with (its own, or its session's default when it was created).
    public var segments: SegmentsConfiguration?
    /// A webSocket task's subprotocols, `maximumMessageSize`, and once closed its close code and reason.
    public var webSocket: WebSocketTaskOptions?
    /// A stream task's host and port.
    public var stream: StreamTaskOptions?
    /// The task's own bandwidth limit, as created or last patched; nil: none of its own.
    public var rateLimit: RateLimit?
    /// A download's mirrors, expected length, piece hashes and metalink (`TransferSources`).
    public var sources: TransferSources?
    /// The node running the task's attempt when several share a PostgreSQL database; nil on SQLite, and
    /// while a running task waits for a node to claim it.
    public var node: String?
    public var createdAt: Date
    public var startedAt: Date?
    public var completedAt: Date?

    /// A new suspended task of `sessionId` from a validated request; counters as URLSession starts them.
    public init(
        id: String, sessionId: String, tenant: String, taskIdentifier: Int, request: ValidatedTaskRequest,
        uploadSource: UploadSourceReference?, completionSecret: Data?, createdAt: Date = .nowMilliseconds
    ) {
        self.id = id
        self.sessionId = sessionId
        self.tenant = tenant
        self.taskIdentifier = taskIdentifier
        self.kind = request.kind
        self.state = .suspended
        self.suspendCount = 1
        self.priority = request.priority
        self.taskDescription = request.taskDescription
        self.earliestBeginDate = request.earliestBeginDate
        self.originalRequest = request.request
        self.countOfBytesSent = 0
        // Known before the first byte: the upload's size, or the request body's length.
        self.countOfBytesExpectedToSend = uploadSource?.size ?? Int64(request.request?.httpBody?.count ?? 0)
        self.countOfBytesReceived = 0
        self.countOfBytesExpectedToReceive = -1
        self.countOfBytesClientExpectsToSend = request.countOfBytesClientExpectsToSend
        self.countOfBytesClientExpectsToReceive = request.countOfBytesClientExpectsToReceive
        self.uploadSource = uploadSource
        self.completion = request.completion
        self.completionSecret = completionSecret
        self.expectedDigest = request.expectedDigest
        self.resumeData = request.resumeData
        self.segments = request.segments
        self.webSocket = request.webSocket
        self.stream = request.stream
        self.rateLimit = request.rateLimit
        self.sources = request.sources
        self.createdAt = createdAt
    }

    /// A record of these fields with every other one empty (nothing counted, no request, no response): the
    /// store fills in the rest from a row.
    public init(
        id: String, sessionId: String, tenant: String, taskIdentifier: Int, kind: TaskKind, state: TaskState, createdAt: Date
    ) {
        (self.id, self.sessionId, self.tenant, self.taskIdentifier) = (id, sessionId, tenant, taskIdentifier)
        (self.kind, self.state, self.createdAt) = (kind, state, createdAt)
        (self.suspendCount, self.priority) = (0, 0)
        (self.countOfBytesSent, self.countOfBytesExpectedToSend, self.countOfBytesReceived) = (0, 0, 0)
        (self.countOfBytesExpectedToReceive, self.countOfBytesClientExpectsToSend) = (0, 0)
        self.countOfBytesClientExpectsToReceive = 0
    }

    /// The API's view of the row; `locations` names the path of its kept file. The rate fields of
    /// `progress` are not in the row: here they are 0 and unknown, and the task layer fills them in for a
    /// running task whose transfer its node runs (`TaskService.withLiveRate`).
    public func wire(locations: any TaskBodyLocations) -> TransferTask {
        let fraction = TaskProgress.fraction(
            kind: kind, state: state, succeeded: error == nil, sent: countOfBytesSent,
            expectedToSend: countOfBytesExpectedToSend, received: countOfBytesReceived,
            expectedToReceive: countOfBytesExpectedToReceive)
        var task = TransferTask(
            id: id, sessionId: sessionId, taskIdentifier: taskIdentifier, kind: kind, state: state, priority: priority,
            taskDescription: taskDescription, earliestBeginDate: earliestBeginDate, originalRequest: originalRequest?.redacted,
            currentRequest: currentRequest?.redacted, response: response?.redacted, countOfBytesSent: countOfBytesSent,
            countOfBytesExpectedToSend: countOfBytesExpectedToSend, countOfBytesReceived: countOfBytesReceived,
            countOfBytesExpectedToReceive: countOfBytesExpectedToReceive,
            progress: TaskProgress(fractionCompleted: fraction), error: error,
            location: keepsDownload ? locations.fileLocation(ofTask: id) : nil,
            createdAt: createdAt, startedAt: startedAt, completedAt: completedAt, segments: segments)
        task.setWebSocket(webSocket)
        (task.hostName, task.port) = (stream?.hostName, stream?.port)
        task.rateLimit = rateLimit
        task.setSources(sources)
        return task
    }

    /// A download whose file (on disk, in the object store, or when small its bytes in the store) is kept:
    /// the API serves it.
    public var keepsDownload: Bool { kind == .download && (filePath != nil || fileObject != nil || bodyIsStored) }

    /// The body (a data task's, or a small download's file) is kept in the store, not in a file: it has
    /// a time-to-live but no path and no object.
    public var bodyIsStored: Bool { filePath == nil && fileObject == nil && fileExpiresAt != nil }

    /// The fields every task event carries.
    public var summary: TaskSummary {
        TaskSummary(id: id, taskIdentifier: taskIdentifier, kind: kind, state: state, taskDescription: taskDescription)
    }
}

/// Where an upload task's body is kept.
public enum UploadSourceReference: Codable, Sendable, Hashable {
    /// A blob of the tenant, `size` bytes when the task was made.
    case blob(id: String, size: Int64)
    /// Inline bytes in the `taskUpload` table.
    case inline(size: Int64)
    /// A body streamed by the client through `PUT /v1/tasks/{id}/body` while the task runs: nothing kept.
    case stream

    /// -1 for a stream (its length is known once sent).
    public var size: Int64 {
        switch self {
        case .blob(_, let size), .inline(let size): size
        case .stream: -1
        }
    }
}
