public import Foundation
import JSONCodec
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

/// Tasks: their rows (request, state, counters, response, files), creation in group commits, reads
/// (through the task read cache on SQLite), the controls (`resume`, `suspend`, `cancel`), the engine's
/// batched reports and the completions. Each write appends its events (`EventLog`) and moves its
/// session's sequence and its tenant's usage in the same transaction (`BatchWrites`, `TaskRows`).
public struct TaskStore: Sendable {
    let database: any StoreDatabase
    let secrets: SecretBox
    /// What each tenant may hold (`QuotaLimits`), checked inside the transactions that create.
    let quotaLimits: QuotaLimits
    /// Tasks by id as last read, dropped by every commit that changes their row: only where this process
    /// sees every commit (SQLite); on PostgreSQL another node may change a row, so reads go through.
    let taskReads: TaskReadCache?
    /// Counts reads of the change counts where no commit is seen (PostgreSQL): every count differs, so no
    /// answer made from rows is kept.
    let unobservedChanges = LockedBox<UInt64>(0)
    /// The tasks other nodes completed (task ids), after their commits: wakes this node's `?wait=`
    /// long-polls on them.
    public let completionsElsewhere = EventFeed()
    /// Task creations, group-committed.
    let creations = GroupCommit<TaskCreation, TaskRecord>()
    /// Tasks created and completed, committed by this store since it opened (`/metrics`).
    public let activity = TaskActivity()
    let events: EventLog

    var requestSecrets: RequestSecrets { RequestSecrets(box: secrets) }
}

extension TaskStore {
    /// Creates a suspended task in the tenant's session, as `URLSession.dataTask(with:)` and its siblings
    /// do, and records `task.didCreateTask` — all in one transaction, so a refused request leaves nothing.
    ///
    /// The task gets the session's next `taskIdentifier` (1, 2, 3…) and its event the session's next
    /// `sequence`. An inline upload body is kept in `taskUpload`; the completion secret and the request's
    /// credentials are sealed.
    ///
    /// - Throws: `TaskStoreError.sessionNotFound` (unknown, or another tenant's), `.sessionNotValid`
    ///   (invalidating or invalidated), `.blobNotFound` (an upload's blob is not the tenant's),
    ///   `QuotaExceeded` (`tasks` not completed, or `storedBytes` already at their limit).
    ///
    /// Creations that arrive together share one transaction (group commit), each in its own savepoint, so
    /// one refused request never undoes or holds back another.
    ///
    /// - Parameter node: with several nodes, the node that will run the task when it is created resumed
    ///   (nil: the first node with room claims it, `claimQueuedTasks`).
    public func createTask(
        tenant: String, sessionId: String, request: ValidatedTaskRequest, node: String? = nil
    ) async throws -> TaskRecord {
        var creation = try self.creation(tenant: tenant, sessionId: sessionId, request: request)
        creation.node = node
        return try await creations.submit(creation) { batch in try await self.create(batch) }
    }

    /// Creates the tasks of a batch submission as `createTask` creates each, all in one transaction, in
    /// order (consecutive `taskIdentifier`s and event sequences): one result per request, a refused one
    /// (quota, blob, session) leaving nothing of itself while the others are created.
    public func createTasks(
        tenant: String, sessionId: String, requests: [ValidatedTaskRequest], nodes: [String?]? = nil
    ) async throws -> [Result<TaskRecord, any Error>] {
        var batch = try requests.map { try creation(tenant: tenant, sessionId: sessionId, request: $0) }
        if let nodes { for index in batch.indices where index < nodes.count { batch[index].node = nodes[index] } }
        return await creations.submit(batch) { batch in try await self.create(batch) }
    }

    /// What a creation writes, its secrets sealed before the transaction.
    private func creation(tenant: String, sessionId: String, request: ValidatedTaskRequest) throws -> TaskCreation {
        let sealedSecret = try request.completionSecret.map { try secrets.seal(Data($0.utf8)) }
        var creation = TaskCreation(
            tenant: tenant, sessionId: sessionId, request: request, sealedRequest: try request.request.map(requestSecrets.sealed),
            sealedSecret: sealedSecret)
        creation.quotaLimits = quotaLimits
        return creation
    }

    /// Writes a batch of creations in one transaction; one result per creation, in order.
    private func create(_ batch: [TaskCreation]) async throws -> [Result<TaskRecord, any Error>] {
        let (results, advances) = try await database.write { db in try Self.create(db, batch) }
        for advance in advances { events.publish(advance) }
        activity.created(results.compactMap { try? $0.get() })
        return results
    }

    /// The tenant's task `id`, or nil when it does not exist or belongs to another tenant.
    public func task(id: String, tenant: String) async throws -> TaskRecord? {
        guard ResourceID.isWellFormed(id, prefix: "tsk") else { return nil }
        guard let record = try await task(id: id), record.tenant == tenant else { return nil }
        return record
    }

    /// The task `id` whoever owns it: for the engine, which works by id once the API has checked the tenant.
    public func task(id: String) async throws -> TaskRecord? {
        if let cached = taskReads?.record(id: id) { return cached }
        let ticket = taskReads?.ticket()
        guard
            let record = try await database.read({ db in try db.row("SELECT * FROM task WHERE id = ?", id).map(TaskRecord.init(row:)) })
                .map(requestSecrets.opened)
        else { return nil }
        if let taskReads, let ticket { taskReads.keep(record, readAt: ticket) }
        return record
    }

    /// The tenant's task from memory only, without touching the database (nil: not in memory, ask `task`).
    /// It is the row as last committed: every commit that changes the row drops it.
    public func cachedTask(id: String, tenant: String) -> TaskRecord? {
        guard let record = taskReads?.record(id: id), record.tenant == tenant else { return nil }
        return record
    }

    /// Counts the commits that changed any task row: an answer made from task rows read after taking the
    /// count is current while the count is unchanged.
    public var taskChangeCount: UInt64 { taskReads?.taskCommits ?? nextUnobservedChange() }

    /// Counts the commits that changed the event log (appends and removals alike), as `taskChangeCount`.
    public var eventChangeCount: UInt64 { taskReads?.eventCommits ?? nextUnobservedChange() }

    /// Where commits are not observed (PostgreSQL), a count no earlier answer was made at.
    private func nextUnobservedChange() -> UInt64 {
        unobservedChanges.withLock { count in
            count += 1
            return count
        }
    }

    /// A page of a session's tasks in creation order (`getAllTasks`), after the row `after` (exclusive),
    /// optionally only of one kind and one state. The caller has checked the session is the tenant's.
    public func tasks(
        sessionId: String, kind: TaskKind? = nil, state: TaskState? = nil, after: Int64?, limit: Int
    ) async throws -> [TaskRecord] {
        try await database.read { db in
            var sql = "SELECT * FROM task WHERE sessionId = ? AND rowid > ?"
            var arguments = [sessionId.storeValue, (after ?? 0).storeValue]
            if let kind {
                sql += " AND kind = ?"
                arguments.append(kind.rawValue.storeValue)
            }
            if let state {
                sql += " AND state = ?"
                arguments.append(state.rawValue.storeValue)
            }
            return try db.rows(sql + " ORDER BY rowid LIMIT ?", arguments + [limit.storeValue]).map(TaskRecord.init(row:))
        }.map(requestSecrets.opened)
    }

    /// Every task not yet completed, of every tenant, in creation order: what the engine picks up again
    /// after a restart.
    public func unfinishedTasks() async throws -> [TaskRecord] {
        try await database.read { db in
            try db.rows("SELECT * FROM task WHERE state <> 'completed' ORDER BY rowid").map(TaskRecord.init(row:))
        }.map(requestSecrets.opened)
    }

    /// Moves a task through `resume()`, `suspend()` or `cancel()` (see `TaskState.allowsTransition(to:)`)
    /// and returns it. The same state again is a no-op, as `resume()` on a running task is. The first
    /// move to `running` stamps `startedAt` and makes `currentRequest` the original request.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` (from `completed`, from
    ///   `canceling` back to work, or to `completed`, which only `completeTask` records).
    public func updateTaskState(id: String, to next: TaskState) async throws -> TaskRecord {
        let task = try await database.write { db in
            var task = try TaskRows.fetchTask(db, id: id)
            guard task.state != next else { return task }
            guard task.state.allowsTransition(to: next) else { throw TaskStoreError.invalidStateTransition }
            task.state = next
            if next == .running { task.suspendCount = 0 }
            if next == .suspended { task.suspendCount = max(task.suspendCount, 1) }
            if next == .running && task.startedAt == nil {
                task.startedAt = .nowMilliseconds
                task.currentRequest = task.currentRequest ?? task.originalRequest
            }
            try TaskRows.updateTask(db, task)
            return task
        }
        return try requestSecrets.opened(task)
    }

    /// `resume()`: takes one `suspend()` away; at zero a suspended task runs (the first time, `startedAt`
    /// is stamped and `currentRequest` becomes the original request). Returns the task and whether its
    /// transfer must start now. On a running task it changes nothing, as URLSession's does.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` once canceling or completed.
    public func resumeTask(id: String) async throws -> (TaskRecord, starts: Bool) {
        let (task, starts) = try await database.write { db in
            var task = try TaskRows.fetchTask(db, id: id)
            guard task.state == .running || task.state == .suspended else { throw TaskStoreError.invalidStateTransition }
            guard task.suspendCount > 0 else { return (task, false) }
            task.suspendCount -= 1
            let starts = task.suspendCount == 0
            if starts {
                task.state = .running
                if task.startedAt == nil {
                    task.startedAt = .nowMilliseconds
                    task.currentRequest = task.currentRequest ?? task.originalRequest
                }
            }
            try TaskRows.updateTask(db, task)
            return (task, starts)
        }
        return (try requestSecrets.opened(task), starts)
    }

    /// `suspend()`: adds one to the suspend count; a running task stops (returns `stops: true`) and takes
    /// as many `resume()` calls as `suspend()` calls to run again.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` once canceling or completed.
    /// `counts`: the transfer's counters when it stopped, written in the same transaction.
    public func suspendTask(id: String, counts: TaskByteCounts? = nil) async throws -> (TaskRecord, stops: Bool) {
        let (task, stops) = try await database.write { db in
            var task = try TaskRows.fetchTask(db, id: id)
            guard task.state == .running || task.state == .suspended else { throw TaskStoreError.invalidStateTransition }
            task.suspendCount += 1
            let stops = task.state == .running
            if stops, let counts {
                task.countOfBytesSent = counts.sent
                task.countOfBytesExpectedToSend = counts.expectedToSend
                task.countOfBytesReceived = counts.received
                task.countOfBytesExpectedToReceive = counts.expectedToReceive
            }
            task.state = .suspended
            try TaskRows.updateTask(db, task)
            return (task, stops)
        }
        return (try requestSecrets.opened(task), stops)
    }

    /// Records the response headers (and, after a redirect, the request now being sent) of a task that
    /// has not completed.
    ///
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` when the task has completed.
    @discardableResult
    public func recordResponse(
        id: String, response: HTTPResponseSnapshot, currentRequest: URLRequestSnapshot? = nil
    ) async throws -> TaskRecord {
        let response = try requestSecrets.sealed(response)
        let currentRequest = try currentRequest.map(requestSecrets.sealed)
        let task = try await database.write { db in
            var task = try TaskRows.fetchTask(db, id: id)
            guard task.state != .completed else { throw TaskStoreError.invalidStateTransition }
            task.response = response
            if let currentRequest { task.currentRequest = currentRequest }
            try TaskRows.updateTask(db, task)
            return task
        }
        return try requestSecrets.opened(task)
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

    /// Records many tasks' counters in one transaction, one cached statement for all. Unknown or
    /// completed tasks are skipped.
    public func recordProgress(_ updates: [String: TaskByteCounts]) async throws {
        guard !updates.isEmpty else { return }
        try await database.write { db in try BatchWrites.writeTaskReports(db, progress: updates, responses: [:], partialFiles: [:]) }
    }

    /// The bytes of an inline upload (`uploadTask(with:from:)`), nil for other tasks.
    public func inlineUploadData(taskId: String) async throws -> Data? {
        try await database.read { db in try db.value("SELECT data FROM taskUpload WHERE taskId = ?", taskId, as: Data.self) }
    }

    /// The completion handler's own secret in clear, for signing (never for answering a client);
    /// nil when the client gave none (the session delegate's secret applies).
    public func completionSecret(of task: TaskRecord) throws -> String? {
        guard let sealed = task.completionSecret else { return nil }
        return String(decoding: try secrets.open(sealed), as: UTF8.self)
    }
}
