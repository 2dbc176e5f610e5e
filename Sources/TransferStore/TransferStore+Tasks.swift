public import Foundation
import GRDB
public import TransferModels

/// A task's byte counters, as URLSessionTask reports them (-1: unknown).
public struct TaskByteCounts: Sendable, Hashable {
    public var sent: Int64
    public var expectedToSend: Int64
    public var received: Int64
    public var expectedToReceive: Int64

    public init(sent: Int64, expectedToSend: Int64, received: Int64, expectedToReceive: Int64) {
        self.sent = sent
        self.expectedToSend = expectedToSend
        self.received = received
        self.expectedToReceive = expectedToReceive
    }
}

extension TransferStore {
    /// Creates a suspended task in the tenant's session, as `URLSession.dataTask(with:)` and its siblings
    /// do, and records `task.didCreateTask` — all in one transaction, so a refused request leaves nothing.
    ///
    /// The task gets the session's next `taskIdentifier` (1, 2, 3…) and its event the session's next
    /// `sequence`. An inline upload body is kept in `taskUpload`; the completion secret is sealed.
    ///
    /// - Throws: `TaskStoreError.sessionNotFound` (unknown, or another tenant's), `.sessionNotValid`
    ///   (invalidating or invalidated), `.blobNotFound` (an upload's blob is not the tenant's).
    public func createTask(
        tenant: String, sessionId: String, request: ValidatedTaskRequest
    ) async throws -> TaskRecord {
        let sealedSecret = try request.completionSecret.map { try secrets.seal(Data($0.utf8)) }
        let (task, session): (TaskRecord, SessionRecord) = try await pool.write { db in
            guard
                var session = try SessionRecord
                    .filter(Column("id") == sessionId && Column("tenant") == tenant).fetchOne(db)
            else { throw TaskStoreError.sessionNotFound }
            // URLSession refuses new tasks once finishTasksAndInvalidate or invalidateAndCancel was called.
            guard session.state == .valid else { throw TaskStoreError.sessionNotValid }

            var upload: UploadSourceReference?
            switch request.uploadBody {
            case .blob(let id)?:
                guard let blob = try BlobRecord.filter(Column("id") == id && Column("tenant") == tenant).fetchOne(db)
                else { throw TaskStoreError.blobNotFound }
                upload = .blob(id: id, size: blob.size)
            case .data(let data)?:
                upload = .inline(size: Int64(data.count))
            case nil:
                break
            }

            session.lastTaskIdentifier += 1
            var task = TaskRecord(
                id: ResourceID.make(prefix: "tsk"), sessionId: session.id, tenant: tenant,
                taskIdentifier: Int(session.lastTaskIdentifier), request: request, uploadSource: upload,
                completionSecret: sealedSecret)
            try task.insert(db)
            if case .data(let data)? = request.uploadBody {
                try db.execute(sql: "INSERT INTO taskUpload (taskId, data) VALUES (?, ?)", arguments: [task.id, data])
            }
            try db.execute(
                sql: "UPDATE session SET lastTaskIdentifier = ? WHERE id = ?",
                arguments: [session.lastTaskIdentifier, session.id])
            try Self.appendEvent(
                db, session: &session, taskId: task.id, type: .taskDidCreateTask,
                data: try Self.eventJSON(TaskCreatedEventData(task: task.summary)))
            if request.resume {
                // Created and resumed in one transaction: one SQLite write per `"resume": true` task.
                task.state = .running
                task.startedAt = .nowMilliseconds
                task.currentRequest = task.originalRequest
                try task.update(db)
            }
            return (task, session)
        }
        refreshCachedSession(session)
        return task
    }

    /// The tenant's task `id`, or nil when it does not exist or belongs to another tenant.
    public func task(id: String, tenant: String) async throws -> TaskRecord? {
        guard ResourceID.isWellFormed(id, prefix: "tsk") else { return nil }
        return try await pool.read { db in
            try TaskRecord.filter(Column("id") == id && Column("tenant") == tenant).fetchOne(db)
        }
    }

    /// The task `id` whoever owns it: for the engine, which works by id once the API has checked the tenant.
    public func task(id: String) async throws -> TaskRecord? {
        try await pool.read { db in try TaskRecord.filter(Column("id") == id).fetchOne(db) }
    }

    /// A page of a session's tasks in creation order (`getAllTasks`), after the row `after` (exclusive),
    /// optionally only of one kind and one state. The caller has checked the session is the tenant's.
    public func tasks(
        sessionId: String, kind: TaskKind? = nil, state: TaskState? = nil, after: Int64?, limit: Int
    ) async throws -> [TaskRecord] {
        try await pool.read { db in
            var query = TaskRecord.filter(Column("sessionId") == sessionId && Column("rowid") > (after ?? 0))
            if let kind { query = query.filter(Column("kind") == kind.rawValue) }
            if let state { query = query.filter(Column("state") == state.rawValue) }
            return try query.order(Column("rowid")).limit(limit).fetchAll(db)
        }
    }

    /// Every task not yet completed, of every tenant, in creation order: what the engine picks up again
    /// after a restart.
    public func unfinishedTasks() async throws -> [TaskRecord] {
        try await pool.read { db in
            try TaskRecord.filter(Column("state") != TaskState.completed.rawValue).order(Column("rowid")).fetchAll(db)
        }
    }

    /// Moves a task through `resume()`, `suspend()` or `cancel()` (see `TaskState.allowsTransition(to:)`)
    /// and returns it. The same state again is a no-op, as `resume()` on a running task is. The first
    /// move to `running` stamps `startedAt` and makes `currentRequest` the original request.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` (from `completed`, from
    ///   `canceling` back to work, or to `completed`, which only `completeTask` records).
    public func updateTaskState(id: String, to next: TaskState) async throws -> TaskRecord {
        try await pool.write { db in
            var task = try Self.fetchTask(db, id: id)
            guard task.state != next else { return task }
            guard task.state.allowsTransition(to: next) else { throw TaskStoreError.invalidStateTransition }
            task.state = next
            if next == .running && task.startedAt == nil {
                task.startedAt = .nowMilliseconds
                task.currentRequest = task.currentRequest ?? task.originalRequest
            }
            try task.update(db)
            return task
        }
    }

    /// Records the response headers (and, after a redirect, the request now being sent) of a task that
    /// has not completed.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` when the task has completed.
    @discardableResult
    public func recordResponse(
        id: String, response: HTTPResponseSnapshot, currentRequest: URLRequestSnapshot? = nil
    ) async throws -> TaskRecord {
        try await pool.write { db in
            var task = try Self.fetchTask(db, id: id)
            guard task.state != .completed else { throw TaskStoreError.invalidStateTransition }
            task.response = response
            if let currentRequest { task.currentRequest = currentRequest }
            try task.update(db)
            return task
        }
    }

    /// Records one task's counters with a single UPDATE. A task that has completed keeps its final
    /// counters: a late progress report cannot move them back.
    public func recordProgress(
        id: String, sent: Int64, expectedToSend: Int64, received: Int64, expectedToReceive: Int64
    ) async throws {
        let counts = TaskByteCounts(
            sent: sent, expectedToSend: expectedToSend, received: received, expectedToReceive: expectedToReceive)
        try await recordProgress([id: counts])
    }

    /// Records many tasks' counters in one transaction (the engine's periodic flush), one cached
    /// statement for all. Unknown or completed tasks are skipped.
    public func recordProgress(_ updates: [String: TaskByteCounts]) async throws {
        guard !updates.isEmpty else { return }
        try await pool.write { db in
            let statement = try db.cachedStatement(sql: """
                UPDATE task SET countOfBytesSent = ?, countOfBytesExpectedToSend = ?, countOfBytesReceived = ?,
                countOfBytesExpectedToReceive = ? WHERE id = ? AND state <> 'completed'
                """)
            for (id, counts) in updates {
                try statement.execute(arguments: [
                    counts.sent, counts.expectedToSend, counts.received, counts.expectedToReceive, id,
                ])
            }
        }
    }

    /// Completes a task with its outcome and records the delegate's last calls in one transaction:
    /// `task.didFinishCollectingMetrics` when `metrics` is given, then `task.didCompleteWithError`
    /// (error null on success) — URLSession's order. When this was the last unfinished task of a session
    /// that is `invalidating` (finishTasksAndInvalidate), the session becomes `invalidated` and
    /// `session.didBecomeInvalidWithError` follows, as URLSession invalidates it after its last task.
    ///
    /// - Parameters:
    ///   - filePath: the downloaded file, or the spilled body of a data task; nil keeps what the task has.
    ///   - counts: the final counters, if the engine has not recorded them already.
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` when it has already completed
    ///   (a task completes exactly once).
    public func completeTask(
        id: String, error: TransferError?, filePath: String? = nil, fileExpiresAt: Date? = nil,
        metrics: TaskMetrics? = nil, counts: TaskByteCounts? = nil, response: HTTPResponseSnapshot? = nil,
        completedAt: Date = .nowMilliseconds
    ) async throws -> TaskRecord {
        let (task, session): (TaskRecord, SessionRecord) = try await pool.write { db in
            var task = try Self.fetchTask(db, id: id)
            guard task.state != .completed else { throw TaskStoreError.invalidStateTransition }
            guard var session = try SessionRecord.filter(Column("id") == task.sessionId).fetchOne(db) else {
                throw TaskStoreError.sessionNotFound  // cannot happen: the foreign key cascades deletions
            }
            task.state = .completed
            task.error = error
            task.completedAt = completedAt
            if let filePath { task.filePath = filePath }
            if let fileExpiresAt { task.fileExpiresAt = fileExpiresAt }
            if let metrics { task.metrics = metrics }
            if let response { task.response = response }  // the final response, in the same transaction
            if let counts {
                task.countOfBytesSent = counts.sent
                task.countOfBytesExpectedToSend = counts.expectedToSend
                task.countOfBytesReceived = counts.received
                task.countOfBytesExpectedToReceive = counts.expectedToReceive
            }
            try task.update(db)

            if let metrics {
                try Self.appendEvent(
                    db, session: &session, taskId: task.id, type: .taskDidFinishCollectingMetrics,
                    data: try Self.eventJSON(TaskMetricsEventData(task: task.summary, metrics: metrics)))
            }
            try Self.appendEvent(
                db, session: &session, taskId: task.id, type: .taskDidCompleteWithError,
                data: try Self.eventJSON(TaskCompletedEventData(task: task.summary, error: error)))
            try Self.finishInvalidationIfIdle(db, session: &session)
            return (task, session)
        }
        refreshCachedSession(session)
        return task
    }

    /// The bytes of an inline upload (`uploadTask(with:from:)`), nil for other tasks.
    public func inlineUploadData(taskId: String) async throws -> Data? {
        try await pool.read { db in
            try Data.fetchOne(db, sql: "SELECT data FROM taskUpload WHERE taskId = ?", arguments: [taskId])
        }
    }

    /// The completion handler's own secret in clear, for signing (never for answering a client);
    /// nil when the client gave none (the session delegate's secret applies).
    public func completionSecret(of task: TaskRecord) throws -> String? {
        guard let sealed = task.completionSecret else { return nil }
        return String(decoding: try secrets.open(sealed), as: UTF8.self)
    }

    // MARK: Helpers

    static func fetchTask(_ db: Database, id: String) throws -> TaskRecord {
        guard let task = try TaskRecord.filter(Column("id") == id).fetchOne(db) else {
            throw TaskStoreError.taskNotFound
        }
        return task
    }

    static func eventJSON(_ data: some Encodable) throws -> String {
        String(decoding: try WireJSON.encode(data), as: UTF8.self)
    }

    /// `invalidating` → `invalidated` once no task of the session is left unfinished.
    private static func finishInvalidationIfIdle(_ db: Database, session: inout SessionRecord) throws {
        guard session.state == .invalidating else { return }
        let unfinished = try TaskRecord
            .filter(Column("sessionId") == session.id && Column("state") != TaskState.completed.rawValue)
            .fetchCount(db)
        guard unfinished == 0 else { return }
        session.state = .invalidated
        session.invalidatedAt = .nowMilliseconds
        try appendEvent(
            db, session: &session, taskId: nil, type: .sessionDidBecomeInvalidWithError, data: #"{"error":null}"#)
        try session.update(db)
    }

    /// Puts a session written by a task verb into the cache unless the cache already holds a later
    /// version. Writes finish in order but their callers resume in any order; `lastSequence` only grows
    /// and every task write that caches here advanced it, so "greater" means "later". A write that did
    /// not advance it (moving to `invalidating`) is later than ours when the sequences are equal.
    func refreshCachedSession(_ record: SessionRecord) {
        sessionCache.withLock { cache in
            if let cached = cache[record.id], cached.lastSequence >= record.lastSequence { return }
            cache[record.id] = record
        }
    }
}
