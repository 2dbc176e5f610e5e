import Foundation
import JSONCodec
import TransferModels

/// A delegate event to append, its sequence already taken (`reserveSequences(_:counts:)`).
struct EventInsert {
    var id: String?
    var sessionId: String
    var sequence: Int64
    var taskId: String?
    var type: TaskEventType
    var data: String
}

/// The statements a group commit runs once for all its members (`StoreRowSet`): a batch of a hundred
/// tasks' events, counters or completions costs what one task's did. Each takes the rows of every
/// member and treats them independently, so the order of rows within one statement never matters; what
/// must come in order (sequences) is decided here, in Swift, before the statement. Used by `TaskStore`'s
/// creations, reports and completions and by `EventLog`'s appends, inside their transactions.
enum BatchWrites {
    /// Appends `events` with one statement, and wakes the other nodes' readers of their sessions (one
    /// notification per transaction and session).
    static func insertEvents(_ db: any StoreConnection, _ events: [EventInsert]) throws {
        guard !events.isEmpty else { return }
        var set = StoreRowSet([
            ("eid", .text), ("sid", .text), ("seq", .integer), ("tid", .text), ("etype", .text), ("ets", .text), ("edata", .text),
        ])
        let now = Date.nowMilliseconds.storeValue
        for event in events {
            set.append([
                (event.id ?? ResourceID.make(prefix: "evt")).storeValue, event.sessionId.storeValue, event.sequence.storeValue,
                event.taskId.storeValue, event.type.rawValue.storeValue, now, event.data.storeValue,
            ])
            db.notify(.events, event.sessionId)
        }
        try db.send(
            """
            INSERT INTO event (id, sessionId, sequence, taskId, type, timestamp, data)
            SELECT eid, sid, seq, tid, etype, ets, edata FROM {rows} WHERE true
            """, over: set)
    }

    /// Takes `counts[session]` sequence numbers of each session with one statement; returns each session's
    /// new last sequence and its state. A session that is gone is missing from the answer (retention
    /// deletes a session only after its tasks, so the callers never ask for one).
    static func reserveSequences(_ db: any StoreConnection, counts: [String: Int]) throws -> [String: (last: Int64, state: String)] {
        guard !counts.isEmpty else { return [:] }
        try lockSessions(db, ids: Set(counts.keys))
        var set = StoreRowSet([("ref", .text), ("n", .integer)])
        for (sessionId, count) in counts.sorted(by: { $0.key < $1.key }) { set.append(sessionId, count) }
        var reserved: [String: (last: Int64, state: String)] = [:]
        for row in try db.rows(
            "UPDATE session SET lastSequence = lastSequence + u.n FROM {rows} WHERE session.id = u.ref RETURNING id, lastSequence, state",
            over: set)
        {
            reserved[try row.decode(forColumn: "id")] = (try row.decode(forColumn: "lastSequence"), try row.decode(forColumn: "state"))
        }
        return reserved
    }

    /// On PostgreSQL, locks the sessions `ids` in the order of their ids when there are several, with one
    /// statement sent ahead of the caller's next (no round trip of its own). Every writer of several
    /// sessions' rows takes them so: a creation batch, and a report batch before its sequences. An
    /// `UPDATE session … FROM unnest(…)` alone locks its rows in the order its plan meets them — a hash
    /// join over the session table, so the table's physical order, which each update of a row moves — and
    /// three nodes deadlocked 1 to 4 times in a run of 4,000 tasks (a creation's id order against a
    /// report's table order), each deadlock stalling both for `deadlock_timeout` (1 s) before a retry.
    /// Each creation also takes the tenant's usage (by trigger) after its session: a batch holding the
    /// usage while it waited for its next session deadlocked with another node's completion in that
    /// session. (One session: its own `UPDATE session` takes the one row.)
    static func lockSessions(_ db: any StoreConnection, ids: Set<String>) throws {
        guard db.locksRows, ids.count > 1 else { return }
        let set = StoreRowSet.keys(ids)
        try db.send("SELECT id FROM session WHERE id IN (SELECT ref FROM {rows}) ORDER BY id FOR UPDATE", over: set)
    }

    /// Gives each event its session's next sequence, in the order given, reserving them first.
    static func sequenced(
        _ db: any StoreConnection, _ events: [(sessionId: String, taskId: String?, id: String?, type: TaskEventType, data: String)]
    ) throws -> (events: [EventInsert], sessions: [String: (last: Int64, state: String)]) {
        guard !events.isEmpty else { return ([], [:]) }
        let counts = events.reduce(into: [String: Int]()) { counts, event in counts[event.sessionId, default: 0] += 1 }
        let reserved = try reserveSequences(db, counts: counts)
        var next: [String: Int64] = [:]
        for (sessionId, count) in counts {
            guard let last = reserved[sessionId]?.last else { throw TaskStoreError.sessionNotFound }
            next[sessionId] = last - Int64(count) + 1
        }
        let inserts = events.map { event in
            let sequence = next[event.sessionId]!
            next[event.sessionId] = sequence + 1
            return EventInsert(
                id: event.id, sessionId: event.sessionId, sequence: sequence, taskId: event.taskId, type: event.type, data: event.data)
        }
        return (inserts, reserved)
    }

    /// Which of `ids` name tasks that have not completed, with one query; on PostgreSQL it also locks
    /// them, in the order of their ids.
    ///
    /// The order of locks that keeps writers of one session from deadlocking: tasks first (in id order),
    /// then the tenant's usage (by trigger; a row per connection, so never waited for), then sessions (in
    /// id order, by `reserveSequences`, which numbers their events). A task control takes its task, then
    /// its session (`fetchTask`); a creation takes its sessions, then rows no one else can hold yet (its
    /// new tasks, its own usage row). A report batch therefore holds its sessions only from its sequences
    /// to its commit. (It used to lock them first, to order them before a usage row two connections could
    /// share, and three nodes completing tasks of eight sessions then waited 107 ms a batch for them.)
    static func lockingUnfinished(_ db: any StoreConnection, _ ids: Set<String>) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let set = StoreRowSet.keys(ids)
        let locked = db.locksRows ? " ORDER BY task.id FOR UPDATE OF task" : ""
        return Set(
            try db.rows("SELECT task.id FROM {rows} JOIN task ON task.id = u.ref WHERE task.state <> 'completed'" + locked, over: set)
                .map { try $0.decodeFirst(String.self) })
    }

    /// Writes running tasks' counters, response heads (sealed by the caller) and partial files with one
    /// statement; what a task has no news of keeps its value. Completed tasks keep their final ones.
    static func writeTaskReports(
        _ db: any StoreConnection, progress: [String: TaskByteCounts], responses: [String: ResponseReport],
        partialFiles: [String: String]
    ) throws {
        let ids = Set(progress.keys).union(responses.keys).union(partialFiles.keys)
        guard !ids.isEmpty else { return }
        var set = StoreRowSet([
            ("ref", .text), ("sent", .integer), ("tosend", .integer), ("received", .integer), ("toreceive", .integer),
            ("head", .text), ("sending", .text), ("partial", .text),
        ])
        for id in ids.sorted() {
            let counts = progress[id]
            let report = responses[id]
            set.append([
                id.storeValue, counts?.sent.storeValue ?? .null, counts?.expectedToSend.storeValue ?? .null,
                counts?.received.storeValue ?? .null, counts?.expectedToReceive.storeValue ?? .null,
                try StoredJSON.text(report?.response).storeValue, try StoredJSON.text(report?.currentRequest).storeValue,
                partialFiles[id].storeValue,
            ])
        }
        try db.send(
            """
            UPDATE task SET countOfBytesSent = COALESCE(u.sent, task.countOfBytesSent),
              countOfBytesExpectedToSend = COALESCE(u.tosend, task.countOfBytesExpectedToSend),
              countOfBytesReceived = COALESCE(u.received, task.countOfBytesReceived),
              countOfBytesExpectedToReceive = COALESCE(u.toreceive, task.countOfBytesExpectedToReceive),
              response = COALESCE(u.head, task.response), currentRequest = COALESCE(u.sending, task.currentRequest),
              partialPath = COALESCE(u.partial, task.partialPath)
            FROM {rows} WHERE task.id = u.ref AND task.state <> 'completed'
            """, over: set)
    }

    /// A completed task as its completion's `UPDATE … RETURNING` gave it back.
    struct CompletedRow {
        var sessionId: String
        var summary: TaskSummary
        var tenant: String
        var error: TransferError?
        var bytesReceived: Int64
        var bytesSent: Int64
    }

    /// Marks every completion's task completed with one statement (sealed by the caller). Returns the
    /// tasks that completed now: not those unknown, completed already, or another node's now (`node`).
    static func writeCompletions(_ db: any StoreConnection, _ completions: [TaskCompletion], metrics: [String?]) throws -> [String:
        CompletedRow]
    {
        guard !completions.isEmpty else { return [:] }
        var set = StoreRowSet([
            ("ref", .text), ("failure", .text), ("endedat", .text), ("partial", .text), ("file", .text), ("object", .text),
            ("expires", .text), ("kept", .integer), ("measured", .text), ("head", .text), ("sending", .text), ("sent", .integer),
            ("tosend", .integer), ("received", .integer), ("toreceive", .integer), ("socket", .text), ("owner", .text),
        ])
        var seen = Set<String>()
        for (completion, metricsJSON) in zip(completions, metrics) where seen.insert(completion.id).inserted {
            let counts = completion.counts
            set.append([
                completion.id.storeValue, try StoredJSON.text(completion.error).storeValue, completion.completedAt.storeValue,
                completion.partialPath.storeValue, completion.filePath.storeValue, completion.fileObject.storeValue,
                completion.fileExpiresAt.storeValue,
                (completion.storedBytes ?? completion.body.map { Int64($0.count) }).storeValue,
                metricsJSON.storeValue, try StoredJSON.text(completion.response).storeValue,
                try StoredJSON.text(completion.currentRequest).storeValue, counts?.sent.storeValue ?? .null,
                counts?.expectedToSend.storeValue ?? .null, counts?.received.storeValue ?? .null,
                counts?.expectedToReceive.storeValue ?? .null, try StoredJSON.text(completion.webSocket).storeValue,
                completion.node.storeValue,
            ])
        }
        let rows = try db.rows(
            """
            UPDATE task SET state = 'completed', error = u.failure, completedAt = u.endedat, partialPath = u.partial,
              filePath = COALESCE(u.file, task.filePath), fileObject = COALESCE(u.object, task.fileObject),
              fileExpiresAt = COALESCE(u.expires, task.fileExpiresAt), storedBytes = COALESCE(u.kept, task.storedBytes),
              metrics = COALESCE(u.measured, task.metrics), response = COALESCE(u.head, task.response),
              currentRequest = COALESCE(u.sending, task.currentRequest),
              countOfBytesSent = COALESCE(u.sent, task.countOfBytesSent),
              countOfBytesExpectedToSend = COALESCE(u.tosend, task.countOfBytesExpectedToSend),
              countOfBytesReceived = COALESCE(u.received, task.countOfBytesReceived),
              countOfBytesExpectedToReceive = COALESCE(u.toreceive, task.countOfBytesExpectedToReceive),
              webSocket = COALESCE(u.socket, task.webSocket)
            FROM {rows} WHERE task.id = u.ref AND task.state <> 'completed' AND (u.owner IS NULL OR task.node IS NULL OR task.node = u.owner)
            RETURNING id, sessionId, taskIdentifier, kind, taskDescription, tenant, countOfBytesReceived, countOfBytesSent
            """, over: set)
        let errors = Dictionary(completions.map { ($0.id, $0.error) }, uniquingKeysWith: { first, _ in first })
        var completed: [String: CompletedRow] = [:]
        for row in rows {
            let id: String = try row.decode(forColumn: "id")
            guard let kind = TaskKind(rawValue: try row.decode(forColumn: "kind")) else { throw StoredJSON.CorruptValue(column: "kind") }
            let summary = TaskSummary(
                id: id, taskIdentifier: try row.decode(forColumn: "taskIdentifier"), kind: kind, state: .completed,
                taskDescription: try row.decode(forColumn: "taskDescription"))
            completed[id] = CompletedRow(
                sessionId: try row.decode(forColumn: "sessionId"), summary: summary, tenant: try row.decode(forColumn: "tenant"),
                error: errors[id] ?? nil, bytesReceived: try row.decode(forColumn: "countOfBytesReceived"),
                bytesSent: try row.decode(forColumn: "countOfBytesSent"))
            db.notify(.completions, id)
        }
        return completed
    }

    /// Keeps small response bodies (`TaskCompletion.body`) with one statement, replacing any kept before.
    static func keepBodies(_ db: any StoreConnection, _ bodies: [(taskId: String, body: [UInt8])]) throws {
        guard !bodies.isEmpty else { return }
        var set = StoreRowSet([("ref", .text), ("bytes", .blob)])
        for (taskId, body) in bodies { set.append([taskId.storeValue, .blob(body)]) }
        try db.send(
            """
            INSERT INTO taskBody (taskId, data) SELECT ref, bytes FROM {rows} WHERE true
            ON CONFLICT (taskId) DO UPDATE SET data = excluded.data
            """, over: set)
    }
}
