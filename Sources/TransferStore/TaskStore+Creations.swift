import Foundation
import JSONCodec
import TransferModels

extension TaskStore {
    /// A batch of creations in a bounded number of statements, whatever its size: the sessions read, each
    /// creation checked (session, quota, blob) in Swift in the order given, then for those accepted one
    /// claim of task identifiers and sequences per batch, one insert of their rows, of their inline bodies
    /// and of their `didCreateTask` events. A refused creation (an error in its result) writes nothing,
    /// so no savepoint is needed: nothing is written before every check is made.
    ///
    /// The checks read what the transaction sees: on SQLite the one writer holds the database; on
    /// PostgreSQL the sessions are locked first (`lockSessions`), and the usage read here may miss another
    /// node's creations not committed yet, as a check inside each creation's savepoint did before.
    static func create(
        _ db: any StoreConnection, _ batch: [TaskCreation]
    ) throws -> (results: [Result<TaskRecord, any Error>], advances: [SessionAdvance]) {
        try BatchWrites.lockSessions(db, ids: Set(batch.map(\.sessionId)))
        let sessions = try sessionStates(db, Set(batch.map(\.sessionId)))
        let blobs = try blobSizes(db, Set(batch.compactMap { if case .blob(let id)? = $0.request.uploadBody { id } else { nil } }))
        var usage: [String: TenantUsage] = [:]
        var failures: [Int: any Error] = [:]
        var accepted: [Int] = []
        for (index, creation) in batch.enumerated() {
            do {
                // URLSession refuses new tasks once finishTasksAndInvalidate or invalidateAndCancel was called.
                guard let session = sessions[creation.sessionId], session.tenant == creation.tenant else {
                    throw TaskStoreError.sessionNotFound
                }
                guard session.state == SessionState.valid.rawValue else { throw TaskStoreError.sessionNotValid }
                // A task is refused once stored bytes reached their limit: its body would add to them.
                let limits = creation.quotaLimits
                let counted = limits[.tasks] > 0 || limits[.storedBytes] > 0
                if counted {
                    let held = try usage[creation.tenant] ?? UsageStore.usage(db, tenant: creation.tenant)
                    usage[creation.tenant] = held
                    try limits.check(.tasks, usage: held.tasks, adding: 1)
                    try limits.check(.storedBytes, usage: held.storedBytes, adding: 1)
                }
                if case .blob(let id)? = creation.request.uploadBody, blobs[id]?.tenant != creation.tenant {
                    throw TaskStoreError.blobNotFound
                }
                if counted { usage[creation.tenant]?.tasks += 1 }  // what the next member's check sees
                accepted.append(index)
            } catch {
                failures[index] = error
            }
        }

        // Each session's identifiers and sequences for its accepted creations, handed out in order.
        var counts: [String: Int] = [:]
        for index in accepted { counts[batch[index].sessionId, default: 0] += 1 }
        let claimed = try claimIdentifiers(db, counts: counts)
        var next: [String: (identifier: Int, sequence: Int64)] = [:]
        for (sessionId, count) in counts {
            guard let last = claimed[sessionId] else { throw TaskStoreError.sessionNotFound }  // locked and read above
            next[sessionId] = (last.identifier - count + 1, last.sequence - Int64(count) + 1)
        }

        var tasks: [Int: TaskRecord] = [:]
        var rows: [StoreColumns] = []
        var uploads: [(taskId: String, data: Data)] = []
        var events: [EventInsert] = []
        for index in accepted {
            let creation = batch[index]
            let (identifier, sequence) = next[creation.sessionId]!
            next[creation.sessionId] = (identifier + 1, sequence + 1)
            let (task, row) = try record(creation, taskIdentifier: identifier, blobSize: blobs)
            tasks[index] = task
            rows.append(row)
            if case .data(let data)? = creation.request.uploadBody { uploads.append((task.id, data)) }
            // `didCreateTask` sees the task as URLSession creates it: suspended.
            var created = task
            created.state = .suspended
            let event = try DelegateEvent.didCreateTask(created.summary).encoded()
            events.append(
                EventInsert(id: nil, sessionId: creation.sessionId, sequence: sequence, taskId: task.id, type: event.type, data: event.data)
            )
        }
        let rowids = try insertTasks(db, rows)
        try insertUploads(db, uploads)
        try BatchWrites.insertEvents(db, events)

        let results: [Result<TaskRecord, any Error>] = batch.indices.map { index in
            if let failure = failures[index] { return .failure(failure) }
            var task = tasks[index]!
            task.rowid = rowids[task.id]
            return .success(task)
        }
        let advances = claimed.map { sessionId, last in SessionAdvance(sessionId: sessionId, lastSequence: last.sequence) }
        return (results, advances)
    }

    /// The task a creation makes (for the caller, its request in clear) and its row (the request sealed).
    private static func record(
        _ creation: TaskCreation, taskIdentifier: Int, blobSize blobs: [String: (tenant: String, size: Int64)]
    ) throws -> (TaskRecord, StoreColumns) {
        let request = creation.request
        var upload: UploadSourceReference?
        switch request.uploadBody {
        case .blob(let id)?: upload = .blob(id: id, size: blobs[id]?.size ?? 0)
        case .data(let data)?: upload = .inline(size: Int64(data.count))
        case .stream?: upload = .stream
        case nil: break
        }
        var task = TaskRecord(
            id: ResourceID.make(prefix: "tsk"), sessionId: creation.sessionId, tenant: creation.tenant, taskIdentifier: taskIdentifier,
            request: request, uploadSource: upload, completionSecret: creation.sealedSecret)
        if request.resume {
            // Created and resumed in one transaction: one write per `"resume": true` task.
            task.state = .running
            task.suspendCount = 0
            task.startedAt = .nowMilliseconds
            task.currentRequest = task.originalRequest
            task.node = creation.node
        }
        // The row gets the sealed request; the caller gets the real one.
        var row = task
        row.originalRequest = creation.sealedRequest
        if request.resume { row.currentRequest = row.originalRequest }
        return (task, try row.columns())
    }

    /// Each session's tenant and state.
    private static func sessionStates(_ db: any StoreConnection, _ ids: Set<String>) throws -> [String: (tenant: String, state: String)] {
        let set = StoreRowSet.keys(ids)
        var states: [String: (tenant: String, state: String)] = [:]
        for row in try db.rows("SELECT id, tenant, state FROM session JOIN {rows} ON session.id = u.ref", over: set) {
            states[try row.decode(forColumn: "id")] = (try row.decode(forColumn: "tenant"), try row.decode(forColumn: "state"))
        }
        return states
    }

    /// Each blob's tenant and size.
    private static func blobSizes(_ db: any StoreConnection, _ ids: Set<String>) throws -> [String: (tenant: String, size: Int64)] {
        let set = StoreRowSet.keys(ids)
        var sizes: [String: (tenant: String, size: Int64)] = [:]
        for row in try db.rows("SELECT id, tenant, size FROM blob JOIN {rows} ON blob.id = u.ref", over: set) {
            sizes[try row.decode(forColumn: "id")] = (try row.decode(forColumn: "tenant"), try row.decode(forColumn: "size"))
        }
        return sizes
    }

    /// Takes `counts[session]` task identifiers and as many sequences of each valid session; returns the
    /// last of each.
    private static func claimIdentifiers(
        _ db: any StoreConnection, counts: [String: Int]
    ) throws -> [String: (identifier: Int, sequence: Int64)] {
        var set = StoreRowSet([("ref", .text), ("n", .integer)])
        for (sessionId, count) in counts.sorted(by: { $0.key < $1.key }) { set.append(sessionId, count) }
        var claimed: [String: (identifier: Int, sequence: Int64)] = [:]
        for row in try db.rows(
            """
            UPDATE session SET lastTaskIdentifier = lastTaskIdentifier + u.n, lastSequence = lastSequence + u.n
            FROM {rows} WHERE session.id = u.ref AND session.state = 'valid' RETURNING id, lastTaskIdentifier, lastSequence
            """, over: set)
        {
            claimed[try row.decode(forColumn: "id")] = (
                try row.decode(forColumn: "lastTaskIdentifier"), try row.decode(forColumn: "lastSequence")
            )
        }
        return claimed
    }

    /// The task table's columns that do not hold text, for the arrays PostgreSQL is given (a column null in
    /// every row of a batch still needs its type).
    private static let taskColumnTypes: [String: StoreRowSet.ColumnType] = [
        "rowid": .integer, "taskIdentifier": .integer, "suspendCount": .integer, "countOfBytesSent": .integer,
        "countOfBytesExpectedToSend": .integer, "countOfBytesReceived": .integer, "countOfBytesExpectedToReceive": .integer,
        "countOfBytesClientExpectsToSend": .integer, "countOfBytesClientExpectsToReceive": .integer, "storedBytes": .integer,
        "priority": .real, "completionSecret": .blob,
    ]

    /// Inserts task rows (each the same columns, `TaskRecord.columns()`) with one statement; their rowids by id.
    private static func insertTasks(_ db: any StoreConnection, _ rows: [StoreColumns]) throws -> [String: Int64] {
        guard !rows.isEmpty else { return [:] }
        var rowids: [String: Int64] = [:]
        for row in try db.insert(StoreRowSet(rows: rows, types: taskColumnTypes), into: "task", returning: "id, rowid") {
            rowids[try row.decode(forColumn: "id")] = try row.decode(forColumn: "rowid")
        }
        return rowids
    }

    /// Keeps inline upload bodies (`uploadTask(with:from:)`) with one statement.
    private static func insertUploads(_ db: any StoreConnection, _ uploads: [(taskId: String, data: Data)]) throws {
        var set = StoreRowSet([("ref", .text), ("bytes", .blob)])
        for (taskId, data) in uploads { set.append([taskId.storeValue, .blob(Array(data))]) }
        try db.send("INSERT INTO taskUpload (taskId, data) SELECT ref, bytes FROM {rows} WHERE true", over: set)
    }
}
