public import JSONCodec

/// The task fields every task event carries in `data.task`.
public struct TaskSummary: Codable, Sendable, Hashable {
    public var id: String
    public var taskIdentifier: Int
    public var kind: TaskKind
    public var state: TaskState
    public var taskDescription: String?

    public init(id: String, taskIdentifier: Int, kind: TaskKind, state: TaskState, taskDescription: String?) {
        self.id = id
        self.taskIdentifier = taskIdentifier
        self.kind = kind
        self.state = state
        self.taskDescription = taskDescription
    }

    enum CodingKeys: String, CodingKey { case id, taskIdentifier, kind, state, taskDescription }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(taskIdentifier, forKey: .taskIdentifier)
        try c.encode(kind, forKey: .kind)
        try c.encode(state, forKey: .state)
        try c.encode(taskDescription, forKey: .taskDescription)
    }
}

/// `data` of `task.didCreateTask`: `{"task": {...}}`.
public struct TaskCreatedEventData: Encodable, Sendable {
    public var task: TaskSummary

    public init(task: TaskSummary) { self.task = task }
}

/// `data` of `task.didCompleteWithError`: `{"task": {...}, "error": {...} | null}`.
public struct TaskCompletedEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var error: TransferError?

    public init(task: TaskSummary, error: TransferError?) {
        self.task = task
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case task, error }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(task, forKey: .task)
        try c.encode(error.map(TransferErrorWire.init), forKey: .error)  // null on success, as the delegate gets nil
    }
}

/// `data` of `task.didFinishCollectingMetrics`: `{"task": {...}, "metrics": {...}}`.
public struct TaskMetricsEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var metrics: EncodedJSON

    public init(task: TaskSummary, metrics: EncodedJSON) {
        self.task = task
        self.metrics = metrics
    }
}

/// `TransferError` with every member written: the `TransferError` schema requires `underlying`
/// (null when there is none), which synthesized encoding would leave out.
struct TransferErrorWire: Encodable {
    var error: TransferError

    init(_ error: TransferError) { self.error = error }

    enum CodingKeys: String, CodingKey { case domain, code, name, localizedDescription, userInfo, underlying }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(error.domain, forKey: .domain)
        try c.encode(error.code, forKey: .code)
        try c.encode(error.name, forKey: .name)
        try c.encode(error.localizedDescription, forKey: .localizedDescription)
        try c.encode(error.userInfo, forKey: .userInfo)
        try c.encode(error.underlying, forKey: .underlying)
    }
}
