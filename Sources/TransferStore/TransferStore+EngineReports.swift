import Foundation
public import TransferModels

/// A task's response head as the engine last saw it, and the request it now sends after a redirect.
public struct ResponseReport: Sendable {
    public var response: HTTPResponseSnapshot
    public var currentRequest: URLRequestSnapshot?

    public init(response: HTTPResponseSnapshot, currentRequest: URLRequestSnapshot? = nil) {
        self.response = response
        self.currentRequest = currentRequest
    }
}

/// A delegate event of a running task, its `data` already encoded.
public struct TaskEventAppend: Sendable {
    /// A decision event's id, made before it is written so its answer can be awaited; nil: a new one.
    public var id: String?
    public var sessionId: String
    public var taskId: String
    public var type: TaskEventType
    public var data: String

    public init(id: String? = nil, sessionId: String, taskId: String, type: TaskEventType, data: String) {
        self.id = id
        self.sessionId = sessionId
        self.taskId = taskId
        self.type = type
        self.data = data
    }
}

extension TransferStore {
    /// Writes what the engine reported since the last call in ONE transaction: counters, response heads,
    /// delegate events (in the order given), then completions. Group commit is what lets thousands of
    /// small tasks a second complete: the cost of a transaction is shared by every report in it. Reports
    /// of tasks that have completed are skipped (their final values came with the completion). Returns
    /// the ids that completed now.
    ///
    /// A completion that cannot be written does not hold back the others: when the batch fails, the
    /// reports are written again without the completions, then each completion in its own transaction,
    /// and the failures are returned as errors.
    public func recordEngineReports(
        progress: [String: TaskByteCounts], responses: [String: ResponseReport], events: [TaskEventAppend] = [],
        partialFiles: [String: String] = [:], completions: [TaskCompletion]
    ) async throws -> (completed: Set<String>, failures: [String: any Error]) {
        guard !progress.isEmpty || !responses.isEmpty || !events.isEmpty || !partialFiles.isEmpty || !completions.isEmpty
        else { return ([], [:]) }
        // Sealed once, outside the transaction (sealing again in `completeTasks` below keeps sealed values).
        let responses = try responses.mapValues(requestSecrets.sealed)
        let completions = try completions.map(requestSecrets.sealed)
        do {
            let (completed, sessions) = try await database.write { db in
                try Self.writePartialFiles(db, partialFiles)
                return try Self.write(db, progress: progress, responses: responses, events: events, completions: completions)
            }
            for advance in sessions.values { publish(advance) }
            return (completed, [:])
        } catch {
            guard !completions.isEmpty else { throw error }
            let (_, sessions) = try await database.write { db in
                try Self.writePartialFiles(db, partialFiles)
                return try Self.write(db, progress: progress, responses: responses, events: events, completions: [])
            }
            for advance in sessions.values { publish(advance) }
            var completed = Set<String>()
            var failures: [String: any Error] = [:]
            for completion in completions {
                do {
                    completed.formUnion(try await completeTasks([completion]))
                } catch let failure {
                    failures[completion.id] = failure
                }
            }
            return (completed, failures)
        }
    }

    static func write(
        _ db: any StoreConnection, progress: [String: TaskByteCounts], responses: [String: ResponseReport], events: [TaskEventAppend],
        completions: [TaskCompletion]
    ) throws -> (Set<String>, [String: SessionAdvance]) {
        let tasks = Set(progress.keys).union(responses.keys).union(events.map(\.taskId)).union(completions.map(\.id))
        try lockSessions(db, ofTasks: tasks)
        try writeProgress(db, progress)  // (a completing task's counters and head come with its completion)
        try writeResponses(db, responses)
        // A task that has completed takes no more events (a late report of a stopped transfer).
        var unfinished: [String: Bool] = [:]
        var kept: [TaskEventAppend] = []
        var counts: [String: Int] = [:]
        for event in events {
            let open = try unfinished[event.taskId] ?? isUnfinished(db, taskId: event.taskId)
            unfinished[event.taskId] = open
            guard open else { continue }
            kept.append(event)
            counts[event.sessionId, default: 0] += 1
        }
        // One sequence reservation per session for the whole batch, handed out in the events' order.
        var sessions: [String: SessionAdvance] = [:]
        var next: [String: Int64] = [:]
        for (sessionId, count) in counts {
            let (last, _) = try reserveSequences(db, sessionId: sessionId, count: count)
            next[sessionId] = last - Int64(count) + 1
            sessions[sessionId] = SessionAdvance(sessionId: sessionId, lastSequence: last)
        }
        for event in kept {
            let sequence = next[event.sessionId]!
            next[event.sessionId] = sequence + 1
            try insertEvent(
                db, id: event.id, sessionId: event.sessionId, sequence: sequence, taskId: event.taskId, type: event.type,
                data: event.data)
        }
        var completed = Set<String>()
        for completion in completions {
            guard let advance = try complete(db, completion) else { continue }
            completed.insert(completion.id)
            sessions[advance.sessionId, default: advance].merge(advance)
        }
        return (completed, sessions)
    }

    /// `willBeginDelayedRequest` answered `useNewRequest`: the task sends `request` (its `currentRequest`).
    public func replaceCurrentRequest(id: String, with request: URLRequestSnapshot) async throws {
        let json = try StoredJSON.text(try requestSecrets.sealed(request))
        try await database.write { db in
            try db.execute("UPDATE task SET currentRequest = ? WHERE id = ? AND state <> 'completed'", json, id)
        }
    }

    /// `dataTask.didReceiveResponse` answered `becomeDownload`: the data task is a download from now on.
    public func becomeDownload(taskId: String) async throws {
        try await database.write { db in
            try db.execute("UPDATE task SET kind = 'download' WHERE id = ? AND kind = 'data'", taskId)
        }
    }

    /// Whether the task exists and has not completed (its state compared here: a comparison's result is
    /// a boolean in PostgreSQL, not the integer both backends hold).
    static func isUnfinished(_ db: any StoreConnection, taskId: String) throws -> Bool {
        guard let state = try db.value("SELECT state FROM task WHERE id = ?", taskId, as: String.self) else { return false }
        return state != TaskState.completed.rawValue
    }

    /// The partial file each running download writes (its checkpoint: the bytes on disk are the offset).
    static func writePartialFiles(_ db: any StoreConnection, _ paths: [String: String]) throws {
        for (id, path) in paths { try db.execute("UPDATE task SET partialPath = ? WHERE id = ? AND state <> 'completed'", path, id) }
    }

    static func writeProgress(_ db: any StoreConnection, _ updates: [String: TaskByteCounts]) throws {
        for (id, counts) in updates {
            try db.execute(
                """
                UPDATE task SET countOfBytesSent = ?, countOfBytesExpectedToSend = ?, countOfBytesReceived = ?,
                countOfBytesExpectedToReceive = ? WHERE id = ? AND state <> 'completed'
                """, counts.sent, counts.expectedToSend, counts.received, counts.expectedToReceive, id)
        }
    }

    /// `reports` are sealed (`RequestSecrets.sealed`) by the caller, outside the transaction.
    static func writeResponses(_ db: any StoreConnection, _ reports: [String: ResponseReport]) throws {
        for (id, report) in reports {
            try db.execute(
                """
                UPDATE task SET response = ?, currentRequest = COALESCE(?, currentRequest)
                WHERE id = ? AND state <> 'completed'
                """, try StoredJSON.text(report.response), try StoredJSON.text(report.currentRequest), id)
        }
    }

    /// On PostgreSQL, locks the sessions of `tasks` first, in the order of their ids: a completion then
    /// locks its task, the tenant's usage (by trigger) and its session's sequence in the order a creation
    /// on another node takes the same (session, then usage), and two nodes' batches take sessions in one
    /// order. Without it, a batch holding a tenant's usage waited for a session another node's creation held
    /// while that creation waited for the usage: a deadlock.
    static func lockSessions(_ db: any StoreConnection, ofTasks tasks: Set<String>) throws {
        guard db.locksRows, !tasks.isEmpty else { return }
        let ids = tasks.sorted()
        _ = try db.rows(
            "SELECT id FROM session WHERE id IN (SELECT sessionId FROM task WHERE id IN (\(placeholders(ids.count)))) ORDER BY id FOR UPDATE",
            ids.map(\.storeValue))
    }

    /// On PostgreSQL, locks the sessions `ids` first, in the order of their ids, when a creation batch spans
    /// several: each creation takes its session's row, then the tenant's usage (by trigger), so a batch
    /// holding the usage while it waited for its next session deadlocked with another node's completion
    /// in that session, which holds the session and waits for the usage. (One session: the creation's own
    /// `UPDATE session` comes first already.)
    static func lockSessions(_ db: any StoreConnection, ids: Set<String>) throws {
        guard db.locksRows, ids.count > 1 else { return }
        let sorted = ids.sorted()
        _ = try db.rows(
            "SELECT id FROM session WHERE id IN (\(placeholders(sorted.count))) ORDER BY id FOR UPDATE", sorted.map(\.storeValue))
    }
}
