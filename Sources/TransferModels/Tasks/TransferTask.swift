public import Foundation

/// The task object of the API: a `URLSessionTask` with its id, requests, response, counters and outcome.
/// Every property of `URLSessionTask` is written, absent ones as explicit `null`; the properties of one
/// subclass only for its kind, as the classes have them: `location` and `segments` for a download
/// (`URLSessionDownloadTask`), `protocols`, `maximumMessageSize`, `closeCode` and `closeReason` for a
/// webSocket task, `hostName` and `port` for a stream task.
public struct TransferTask: Codable, Sendable, Hashable {
    public var id: String
    public var sessionId: String
    /// `URLSessionTask.taskIdentifier`: 1, 2, 3… within the session, in creation order.
    public var taskIdentifier: Int
    public var kind: TaskKind
    public var state: TaskState
    public var priority: Double
    public var taskDescription: String?
    public var earliestBeginDate: Date?
    /// Nil for a download made from `resumeData` until it starts.
    public var originalRequest: URLRequestSnapshot?
    /// Nil before the task first runs; after redirects, the request being sent.
    public var currentRequest: URLRequestSnapshot?
    public var response: HTTPResponseSnapshot?
    public var countOfBytesSent: Int64
    public var countOfBytesExpectedToSend: Int64
    public var countOfBytesReceived: Int64
    public var countOfBytesExpectedToReceive: Int64
    public var progress: TaskProgress
    public var error: TransferError?
    /// Download tasks, once finished and while the file is kept: `/v1/tasks/{id}/file`.
    public var location: String?
    public var createdAt: Date
    public var startedAt: Date?
    public var completedAt: Date?
    /// The segments a download runs with (beyond URLSession); null: one connection.
    public var segments: SegmentsConfiguration?
    /// A webSocket task's subprotocols offered, `maximumMessageSize`, `closeCode` and `closeReason`
    /// (`WebSocketTaskOptions`); null for the other kinds.
    public var protocols: [String]? = nil
    public var maximumMessageSize: Int? = nil
    public var closeCode: Int? = nil
    public var closeReason: String? = nil
    /// A stream task's `hostName` and `port` (`streamTask(withHostName:port:)`); null for the other kinds.
    public var hostName: String? = nil
    public var port: Int? = nil
    /// Data, download and upload tasks (beyond URLSession): while the task runs on the node answering, the
    /// bandwidth limit in force now (the lowest of its own, its session's, its tenant's and the service's,
    /// timetables evaluated; null: unlimited); otherwise the task's own `rateLimit` as set.
    public var rateLimit: RateLimit? = nil
    /// A download's `mirrors`, `expectedLength` and `metalink` as created (beyond URLSession); absent when
    /// it has none (`TransferTask+Sources`).
    public var mirrors: [String]? = nil
    public var expectedLength: Int64? = nil
    public var metalink: MetalinkInput? = nil

    /// Sets the webSocket fields from a task's options.
    public mutating func setWebSocket(_ options: WebSocketTaskOptions?) {
        protocols = options?.protocols
        maximumMessageSize = options?.maximumMessageSize
        closeCode = options?.closeCode
        closeReason = options?.closeReason
    }

    public init(
        id: String, sessionId: String, taskIdentifier: Int, kind: TaskKind, state: TaskState, priority: Double,
        taskDescription: String?, earliestBeginDate: Date?, originalRequest: URLRequestSnapshot?,
        currentRequest: URLRequestSnapshot?, response: HTTPResponseSnapshot?, countOfBytesSent: Int64,
        countOfBytesExpectedToSend: Int64, countOfBytesReceived: Int64, countOfBytesExpectedToReceive: Int64,
        progress: TaskProgress, error: TransferError?, location: String?, createdAt: Date, startedAt: Date?,
        completedAt: Date?, segments: SegmentsConfiguration? = nil
    ) {
        self.id = id
        self.sessionId = sessionId
        self.taskIdentifier = taskIdentifier
        self.kind = kind
        self.state = state
        self.priority = priority
        self.taskDescription = taskDescription
        self.earliestBeginDate = earliestBeginDate
        self.originalRequest = originalRequest
        self.currentRequest = currentRequest
        self.response = response
        self.countOfBytesSent = countOfBytesSent
        self.countOfBytesExpectedToSend = countOfBytesExpectedToSend
        self.countOfBytesReceived = countOfBytesReceived
        self.countOfBytesExpectedToReceive = countOfBytesExpectedToReceive
        self.progress = progress
        self.error = error
        self.location = location
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.segments = segments
    }

    /// The fields every task event carries.
    public var summary: TaskSummary {
        TaskSummary(id: id, taskIdentifier: taskIdentifier, kind: kind, state: state, taskDescription: taskDescription)
    }

    enum CodingKeys: String, CodingKey {
        case id, sessionId, taskIdentifier, kind, state, priority, taskDescription, earliestBeginDate
        case originalRequest, currentRequest, response, countOfBytesSent, countOfBytesExpectedToSend
        case countOfBytesReceived, countOfBytesExpectedToReceive, progress, error, location
        case createdAt, startedAt, completedAt, completionSecret, segments
        case protocols, maximumMessageSize, closeCode, closeReason, hostName, port, rateLimit
        case mirrors, expectedLength, metalink
    }

    /// The `completion.secret` the service generated for a completion handler that brought none and has
    /// no delegate secret to be signed with: in the creation's 201 only, never again.
    public var completionSecret: String?

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(sessionId, forKey: .sessionId)
        try c.encode(taskIdentifier, forKey: .taskIdentifier)
        try c.encode(kind, forKey: .kind)
        try c.encode(state, forKey: .state)
        try c.encode(priority, forKey: .priority)
        try c.encode(taskDescription, forKey: .taskDescription)
        try c.encode(earliestBeginDate, forKey: .earliestBeginDate)
        try c.encode(originalRequest, forKey: .originalRequest)
        try c.encode(currentRequest, forKey: .currentRequest)
        try c.encode(response, forKey: .response)
        try c.encode(countOfBytesSent, forKey: .countOfBytesSent)
        try c.encode(countOfBytesExpectedToSend, forKey: .countOfBytesExpectedToSend)
        try c.encode(countOfBytesReceived, forKey: .countOfBytesReceived)
        try c.encode(countOfBytesExpectedToReceive, forKey: .countOfBytesExpectedToReceive)
        try c.encode(progress, forKey: .progress)
        try c.encode(error.map(TransferErrorWire.init), forKey: .error)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(completedAt, forKey: .completedAt)
        switch kind {
        case .download:
            try c.encode(location, forKey: .location)
            try c.encode(segments, forKey: .segments)
            try c.encodeIfPresent(mirrors, forKey: .mirrors)
            try c.encodeIfPresent(expectedLength, forKey: .expectedLength)
            try c.encodeIfPresent(metalink, forKey: .metalink)
        case .webSocket:
            try c.encode(protocols, forKey: .protocols)
            try c.encode(maximumMessageSize, forKey: .maximumMessageSize)
            try c.encode(closeCode, forKey: .closeCode)
            try c.encode(closeReason, forKey: .closeReason)
        case .stream:
            try c.encode(hostName, forKey: .hostName)
            try c.encode(port, forKey: .port)
        case .data, .upload:
            break
        }
        if kind.isRateLimited { try c.encode(rateLimit, forKey: .rateLimit) }
        if let completionSecret { try c.encode(completionSecret, forKey: .completionSecret) }
    }
}

/// The task's `progress` (`Progress`) with the transfer rate.
public struct TaskProgress: Codable, Sendable, Hashable {
    public var fractionCompleted: Double
    /// Bytes per second over the last seconds of the transfer (the body `fractionCompleted` measures);
    /// 0 when not running, or when the node answering does not run the transfer.
    public var throughput: Double
    /// Seconds at `throughput` for the bytes still expected; nil when unknown (no expected size, or a
    /// `throughput` of 0).
    public var estimatedTimeRemaining: Double?

    public init(fractionCompleted: Double, throughput: Double = 0, estimatedTimeRemaining: Double? = nil) {
        self.fractionCompleted = fractionCompleted
        self.throughput = throughput
        self.estimatedTimeRemaining = estimatedTimeRemaining
    }

    /// The fraction URLSession's `progress` shows for these counters, with no rate: an upload measures
    /// the body sent, the others the body received; an unknown total is 0 until a successful completion,
    /// which is 1.
    public static func fraction(
        kind: TaskKind, state: TaskState, succeeded: Bool, sent: Int64, expectedToSend: Int64, received: Int64,
        expectedToReceive: Int64
    ) -> Double {
        if state == .completed && succeeded { return 1 }
        let (done, total) = kind == .upload ? (sent, expectedToSend) : (received, expectedToReceive)
        guard total > 0 else { return 0 }
        return min(1, max(0, Double(done) / Double(total)))
    }

    enum CodingKeys: String, CodingKey { case fractionCompleted, throughput, estimatedTimeRemaining }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fractionCompleted, forKey: .fractionCompleted)
        try c.encode(throughput, forKey: .throughput)
        try c.encode(estimatedTimeRemaining, forKey: .estimatedTimeRemaining)
    }
}
