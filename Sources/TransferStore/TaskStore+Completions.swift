public import Foundation
public import JSONCodec
public import TransferModels

/// What the engine knows when a task ends: everything `completeTask` writes, in one value so that many
/// completions can share one transaction.
public struct TaskCompletion: Sendable {
    public var id: String
    public var error: TransferError?
    /// The downloaded file, or the spilled body of a data task; nil keeps what the task has.
    public var filePath: String?
    /// The key under which the download's file was put into the object store; the local copy
    /// (`filePath`) is removed once this completion is recorded.
    public var fileObject: String?
    /// Not written: the local copy of a file put into the object store (`fileObject`), removed once this
    /// completion is recorded (so a completion that is not recorded loses no file).
    public var localCopy: String?
    /// A small response body kept in the store instead of a file (data and upload tasks).
    public var body: [UInt8]?
    /// When the file or kept body is released unless deleted before.
    public var fileExpiresAt: Date?
    /// The bytes of the file (`filePath`) the task keeps, for the tenant's `storedBytes` quota; nil: the
    /// kept `body`'s length, or nothing.
    public var storedBytes: Int64?
    public var metrics: TaskMetrics?
    /// The final counters, if the engine has not recorded them already.
    public var counts: TaskByteCounts?
    /// The final response, when the engine has not recorded it already.
    public var response: HTTPResponseSnapshot?
    /// A failed download's partial file that its resume data points at; removed with the task's files.
    public var partialPath: String?
    /// The request sent last, when a redirect the engine has not recorded yet changed it.
    public var currentRequest: URLRequestSnapshot?
    /// Delegate calls that come before `didFinishCollectingMetrics` (e.g. `didFinishDownloadingTo`),
    /// as (type, JSON of `data`), in order.
    public var precedingEvents: [EncodedEvent]
    /// Calls that come after `didCompleteWithError` (the completion handler's `task.completion`).
    public var followingEvents: [EncodedEvent] = []
    /// A webSocket task's options with the close code and reason it ended with; nil keeps what the task has.
    public var webSocket: WebSocketTaskOptions?
    public var completedAt: Date
    /// The node whose transfer this ends (a cluster's node): written only while the task is still that
    /// node's, so a node fenced off (its lease taken over) never completes a task another now runs.
    public var node: String?

    public init(
        id: String, error: TransferError?, filePath: String? = nil, body: [UInt8]? = nil, fileExpiresAt: Date? = nil,
        metrics: TaskMetrics? = nil, counts: TaskByteCounts? = nil, response: HTTPResponseSnapshot? = nil,
        precedingEvents: [EncodedEvent] = [], completedAt: Date = .nowMilliseconds
    ) {
        self.id = id
        self.error = error
        self.filePath = filePath
        self.body = body
        self.fileExpiresAt = fileExpiresAt
        self.metrics = metrics
        self.counts = counts
        self.response = response
        self.precedingEvents = precedingEvents
        self.completedAt = completedAt
    }
}

extension TaskStore {
    /// Completes many tasks in one transaction (the engine's completions, group-committed), each as
    /// `completeTask` would. Returns the ids that completed now; a task that is unknown or had already
    /// completed is skipped, not an error, so one of them cannot hold the others back.
    @discardableResult
    func completeTasks(_ completions: [TaskCompletion]) async throws -> Set<String> {
        guard !completions.isEmpty else { return [] }
        let completions = try completions.map(requestSecrets.sealed)
        let (completed, sessions) = try await database.writeReports { db in
            try Self.write(db, progress: [:], responses: [:], events: [], completions: completions)
        }
        for advance in sessions.values { events.publish(advance) }
        activity.completed(completed.values)
        return Set(completed.keys)
    }

    /// Completes a task with its outcome and records the delegate's last calls in one transaction:
    /// `completion.precedingEvents`, `task.didFinishCollectingMetrics` when metrics are given, then
    /// `task.didCompleteWithError` (error null on success) — URLSession's order. When this was the last
    /// unfinished task of an `invalidating` session (finishTasksAndInvalidate), the session becomes
    /// `invalidated` and `session.didBecomeInvalidWithError` follows.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` when it has already completed
    ///   (a task completes exactly once).
    public func completeTask(_ completion: TaskCompletion) async throws -> TaskRecord {
        let completion = try requestSecrets.sealed(completion)
        let (task, advance, row): (TaskRecord, SessionAdvance, BatchWrites.CompletedRow) = try await database.write { db in
            let (completed, sessions) = try Self.write(db, progress: [:], responses: [:], events: [], completions: [completion])
            guard let row = completed[completion.id], let advance = sessions.values.first else {
                _ = try TaskRows.fetchTask(db, id: completion.id)  // throws taskNotFound when unknown
                throw TaskStoreError.invalidStateTransition
            }
            return (try TaskRows.fetchTask(db, id: completion.id), advance, row)
        }
        events.publish(advance)
        activity.completed([row])
        return try requestSecrets.opened(task)
    }

    /// `completeTask(_:)` with its fields as arguments.
    public func completeTask(
        id: String, error: TransferError?, filePath: String? = nil, fileExpiresAt: Date? = nil,
        metrics: TaskMetrics? = nil, counts: TaskByteCounts? = nil, response: HTTPResponseSnapshot? = nil,
        completedAt: Date = .nowMilliseconds
    ) async throws -> TaskRecord {
        try await completeTask(
            TaskCompletion(
                id: id, error: error, filePath: filePath, fileExpiresAt: fileExpiresAt, metrics: metrics, counts: counts,
                response: response, completedAt: completedAt))
    }

    /// A small response body kept in the store (`TaskCompletion.body`), nil when the task has none.
    public func keptBody(taskId: String) async throws -> Data? {
        try await database.read { db in try db.value("SELECT data FROM taskBody WHERE taskId = ?", taskId, as: Data.self) }
    }

    // MARK: Inside transactions

    /// `invalidating` → `invalidated` once no task of the session is left unfinished; true when it did.
    static func finishInvalidationIfIdle(_ db: any StoreConnection, session: inout SessionRecord) throws -> Bool {
        guard session.state == .invalidating else { return false }
        let unfinished =
            try db.value("SELECT COUNT(*) FROM task WHERE sessionId = ? AND state <> 'completed'", session.id, as: Int.self) ?? 0
        guard unfinished == 0 else { return false }
        session.state = .invalidated
        session.invalidatedAt = .nowMilliseconds
        try EventLog.appendEvent(db, session: &session, taskId: nil, event: .sessionDidBecomeInvalid(error: nil))
        try db.update(session, in: "session", key: "id")
        db.notify(.sessions, session.id)
        return true
    }
}
