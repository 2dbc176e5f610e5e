import Foundation
import JSONCodec
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

extension TaskStore {
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
            let (completed, sessions) = try await database.writeReports { db in
                try Self.write(
                    db, progress: progress, responses: responses, events: events, partialFiles: partialFiles, completions: completions)
            }
            for advance in sessions.values { self.events.publish(advance) }
            activity.completed(completed.values)
            return (Set(completed.keys), [:])
        } catch {
            guard !completions.isEmpty else { throw error }
            let (_, sessions) = try await database.writeReports { db in
                try Self.write(db, progress: progress, responses: responses, events: events, partialFiles: partialFiles, completions: [])
            }
            for advance in sessions.values { self.events.publish(advance) }
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

    /// The whole batch in a bounded number of statements, whatever its size (`BatchWrites`):
    /// which tasks with events are still open (locked), every running task's news, every completion, every
    /// kept body, the sequences of every session (locking them), every event. Events keep URLSession's
    /// order: a session's reported events as given, then each completion's, completion by completion.
    static func write(
        _ db: any StoreConnection, progress: [String: TaskByteCounts], responses: [String: ResponseReport], events: [TaskEventAppend],
        partialFiles: [String: String] = [:], completions: [TaskCompletion]
    ) throws -> ([String: BatchWrites.CompletedRow], [String: SessionAdvance]) {
        let tasks = Set(progress.keys).union(responses.keys).union(events.map(\.taskId)).union(completions.map(\.id))
            .union(partialFiles.keys)
        // A task that has completed takes no more events (a late report of a stopped transfer); asked
        // before this batch's own completions are written, which its events precede. On PostgreSQL the
        // open tasks are locked here, in the order of their ids, and their sessions only by the sequences
        // below: a session's row is held from there to the commit, not through the whole batch, so nodes
        // completing tasks of one session take turns for moments (see `lockingUnfinished`).
        let open = try BatchWrites.lockingUnfinished(db, tasks)
        // (a completing task's counters and head come with its completion)
        try BatchWrites.writeTaskReports(db, progress: progress, responses: responses, partialFiles: partialFiles)
        // The metrics are the largest value of a completion: encoded once, for the column and the event.
        let metrics = try completions.map { try StoredJSON.text($0.metrics) }
        let completed = try BatchWrites.writeCompletions(db, completions, metrics: metrics)

        var appends: [(sessionId: String, taskId: String?, id: String?, type: TaskEventType, data: String)] = []
        appends.reserveCapacity(events.count + completions.count * 2)
        for event in events where open.contains(event.taskId) {
            appends.append((event.sessionId, event.taskId, event.id, event.type, event.data))
        }
        var bodies: [(taskId: String, body: [UInt8])] = []
        var ended = Set<String>()  // a task's completion given twice ends it once (the second finds it completed)
        for (completion, metricsJSON) in zip(completions, metrics) {
            guard let row = completed[completion.id], ended.insert(completion.id).inserted else { continue }
            var ending = completion.precedingEvents
            if let metricsJSON {
                ending.append(try DelegateEvent.didFinishCollectingMetrics(row.summary, metrics: EncodedJSON(metricsJSON)).encoded())
            }
            ending.append(try DelegateEvent.didCompleteWithError(row.summary, error: completion.error).encoded())
            ending += completion.followingEvents
            for event in ending { appends.append((row.sessionId, completion.id, nil, event.type, event.data)) }
            if let body = completion.body { bodies.append((completion.id, body)) }
        }
        // The bodies before the sequences: on PostgreSQL the sessions' rows are held from their sequences
        // to the commit, and other nodes' batches of the same sessions wait that long.
        try BatchWrites.keepBodies(db, bodies)
        let (inserts, reserved) = try BatchWrites.sequenced(db, appends)
        try BatchWrites.insertEvents(db, inserts)

        var sessions: [String: SessionAdvance] = [:]
        for (sessionId, reservation) in reserved {
            var advance = SessionAdvance(sessionId: sessionId, lastSequence: reservation.last)
            // The last unfinished task of an `invalidating` session (finishTasksAndInvalidate) has completed:
            // the session becomes `invalidated` and `session.didBecomeInvalidWithError` follows.
            if reservation.state == SessionState.invalidating.rawValue,
                var session = try db.row("SELECT * FROM session WHERE id = ?" + db.forUpdate, sessionId)?.decode(SessionRecord.self),
                try finishInvalidationIfIdle(db, session: &session)
            {
                advance.changedRecord = session
                advance.lastSequence = session.lastSequence
            }
            sessions[sessionId] = advance
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
}
