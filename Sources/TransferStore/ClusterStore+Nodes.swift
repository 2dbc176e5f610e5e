public import Foundation
public import JSONCodec
public import TransferModels

extension NodeRecord {
    init(row: StoreRow) throws {
        self.init(
            id: try row.decode(forColumn: "id"), startedAt: try row.decode(forColumn: "startedAt"),
            heartbeatAt: try row.decode(forColumn: "heartbeatAt"), stoppedAt: try row.decode(forColumn: "stoppedAt"),
            activeTasks: try row.decode(forColumn: "activeTasks"), maximumTransfers: try row.decode(forColumn: "maximumTransfers"),
            claimedTasks: try row.decode(forColumn: "claimedTasks"))
    }
}

/// Who runs a task, as a node asking to control it finds out (`claim(taskId:node:lease:)`).
public enum TaskClaim: Sendable, Equatable {
    /// This node runs it now (it did, or it took it from no node or from a node whose lease expired).
    case claimed(TaskRecord)
    /// Another live node runs it: a control must go to that node.
    case ownedBy(String)
}

/// The nodes sharing a PostgreSQL database, and which of them runs each task. A node's heartbeat is its
/// lease on the tasks it claimed: a node that stops writing it (kill -9, a lost network) loses them, after
/// `lease` seconds, to whichever node claims them next (`takeOverTasks`), which picks each up as a
/// restart does. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so nodes claiming at once never take the
/// same task and never wait for each other.
extension ClusterStore {
    /// Writes this node's row at start (again, if the id is reused after a restart).
    public func registerNode(id: String, maximumTransfers: Int, now: Date = .nowMilliseconds) async throws {
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO node (id, startedAt, heartbeatAt, stoppedAt, activeTasks, maximumTransfers) VALUES (?, ?, ?, NULL, 0, ?)
                ON CONFLICT (id) DO UPDATE SET startedAt = excluded.startedAt, heartbeatAt = excluded.heartbeatAt,
                  stoppedAt = NULL, activeTasks = 0, maximumTransfers = excluded.maximumTransfers
                """, id, now, now, maximumTransfers)
        }
    }

    /// Renews this node's lease and reports its load. False when its row says it stopped or is gone (an
    /// operator removed it): the node must not go on claiming.
    public func heartbeat(node: String, activeTasks: Int, now: Date = .nowMilliseconds) async throws -> Bool {
        // Apart from the writer: queued behind a burst of group commits, a renewal would arrive late and
        // the node fence itself off while the database is fine.
        try await database.writeApart { db in
            try db.execute(
                "UPDATE node SET heartbeatAt = ?, activeTasks = ? WHERE id = ? AND stoppedAt IS NULL", now, activeTasks, node) == 1
        }
    }

    /// A graceful stop: the other nodes may take this node's tasks over at once.
    public func stopNode(_ node: String, now: Date = .nowMilliseconds) async throws {
        try await database.write { db in
            try db.execute("UPDATE node SET stoppedAt = ?, activeTasks = 0 WHERE id = ?", now, node)
        }
    }

    /// Every node, oldest first, with the unfinished tasks each runs.
    public func nodes() async throws -> [NodeRecord] {
        try await database.read { db in
            try db.rows(
                """
                SELECT node.*, (SELECT COUNT(*) FROM task WHERE task.node = node.id AND task.state <> 'completed') AS claimedTasks
                FROM node ORDER BY startedAt, id
                """
            ).map(NodeRecord.init(row:))
        }
    }

    /// Claims up to `limit` running tasks that no node runs (created or resumed with no node free to take
    /// them at once): in turn between the tenants with queued tasks, oldest first within each, so one
    /// tenant's backlog never holds another's tasks back (the engine's queue shares its slots the same
    /// way among what the node holds).
    public func claimQueuedTasks(node: String, limit: Int) async throws -> [TaskRecord] {
        guard limit > 0 else { return [] }
        return try await database.write { db in
            let ids = db.locksRows ? try Self.queuedInTurn(db, limit: limit) : try Self.queuedInTurnNumberingAll(db, limit: limit)
            return try Self.assign(db, ids, to: node)
        }.map(requestSecrets.opened)
    }

    /// PostgreSQL, where nodes claim: no claim reads the backlog. The tenants with queued tasks are found
    /// by skipping through the index `task_unclaimed_tenant` (a probe per tenant), and only each tenant's
    /// oldest `limit` are numbered. (Numbering every queued task cost 19 ms a claim with 10,000 queued,
    /// and a node claims after every completion: a backlog made each task cost in proportion to it.)
    ///
    /// The rows are locked by their id alone (the index a fresh table's planner picks for the queued
    /// conditions is the whole backlog), one probe of the id's index each: a lateral lookup, because as
    /// `id = ANY(…)` a table not analyzed yet (a new database, its first minute) was read whole for every
    /// claim — 4,000 rows and 6–13 ms a claim, a quarter of PostgreSQL's time in a run of small tasks. A row
    /// another node claimed meanwhile is locked as it is now and passed over here, and one another node
    /// holds is skipped.
    private static func queuedInTurn(_ db: any StoreConnection, limit: Int) throws -> [String] {
        try db.rows(
            """
            WITH RECURSIVE queued(tenant) AS (
              SELECT (SELECT tenant FROM task WHERE state = 'running' AND node IS NULL ORDER BY tenant LIMIT 1)
              UNION ALL
              SELECT (SELECT tenant FROM task WHERE state = 'running' AND node IS NULL AND tenant > queued.tenant
                      ORDER BY tenant LIMIT 1)
              FROM queued WHERE queued.tenant IS NOT NULL
            )
            SELECT claimed.id, claimed.state, claimed.node FROM unnest(ARRAY(
              SELECT oldest.id FROM queued CROSS JOIN LATERAL (
                SELECT id, rowid, row_number() OVER (ORDER BY rowid) AS turn FROM (
                  SELECT id, rowid FROM task WHERE state = 'running' AND node IS NULL AND task.tenant = queued.tenant
                  ORDER BY rowid LIMIT ?
                ) AS first
              ) AS oldest
              WHERE queued.tenant IS NOT NULL ORDER BY oldest.turn, oldest.rowid LIMIT ?
            )) AS picked(ref) CROSS JOIN LATERAL (
              SELECT id, state, node, rowid FROM task WHERE task.id = picked.ref FOR UPDATE SKIP LOCKED
            ) AS claimed ORDER BY claimed.rowid
            """, limit, limit
        ).filter { row in
            try row.decode(String.self, forColumn: "state") == "running"
                && row.decode(String?.self, forColumn: "node") == nil
        }.map { try $0.decode(String.self, forColumn: "id") }
    }

    /// SQLite (one node: claims run only in tests): every queued task numbered by its tenant's turn.
    private static func queuedInTurnNumberingAll(_ db: any StoreConnection, limit: Int) throws -> [String] {
        try db.values(
            """
            SELECT id FROM (
              SELECT id, rowid, row_number() OVER (PARTITION BY tenant ORDER BY rowid) AS turn
              FROM task WHERE state = 'running' AND node IS NULL
            ) AS queued ORDER BY turn, rowid LIMIT ?
            """, limit, as: String.self)
    }

    /// Claims up to `limit` unfinished, unsuspended tasks of nodes whose lease has expired at `now` (or that
    /// stopped), oldest first: the caller picks each up as a restart does.
    public func takeOverTasks(node: String, lease: TimeInterval, limit: Int, now: Date = .nowMilliseconds) async throws -> [TaskRecord] {
        guard limit > 0 else { return [] }
        let cutoff = now.addingTimeInterval(-lease)
        return try await database.write { db in
            let ids = try db.values(
                """
                SELECT id FROM task WHERE state IN ('running', 'canceling') AND node IS NOT NULL AND node <> ?
                  AND node IN (SELECT id FROM node WHERE stoppedAt IS NOT NULL OR heartbeatAt < ?)
                ORDER BY rowid LIMIT ?
                """ + db.forUpdateSkipLocked, node, cutoff, limit, as: String.self)
            return try Self.assign(db, ids, to: node)
        }.map(requestSecrets.opened)
    }

    /// The unfinished tasks the database shows `node` running (a node restarted under the same id takes
    /// its own back at once).
    public func tasks(ofNode node: String) async throws -> [TaskRecord] {
        try await database.read { db in
            try db.rows("SELECT * FROM task WHERE node = ? AND state <> 'completed' ORDER BY rowid", node).map(TaskRecord.init(row:))
        }.map(requestSecrets.opened)
    }

    /// Makes `node` the one that runs the task, unless another live node runs it: a task no node runs,
    /// or whose node's lease expired, is taken.
    public func claim(taskId: String, node: String, lease: TimeInterval, now: Date = .nowMilliseconds) async throws -> TaskClaim {
        let cutoff = now.addingTimeInterval(-lease)
        let result: TaskClaim = try await database.write { db in
            var task = try TaskRows.fetchTask(db, id: taskId)  // locks the row
            if let owner = task.node, owner != node,
                try db.value("SELECT 1 FROM node WHERE id = ? AND stoppedAt IS NULL AND heartbeatAt >= ?", owner, cutoff, as: Int.self)
                    != nil
            {
                return .ownedBy(owner)
            }
            if task.node != node {
                try db.execute("UPDATE task SET node = ? WHERE id = ?", node, taskId)
                task.node = node
            }
            return .claimed(task)
        }
        if case .claimed(let task) = result { return .claimed(try requestSecrets.opened(task)) }
        return result
    }

    /// Leaves a task to whichever node claims it next (this node has no room for it).
    public func release(taskId: String, node: String) async throws {
        try await database.write { db in
            try db.execute("UPDATE task SET node = NULL WHERE id = ? AND node = ?", taskId, node)
        }
    }

    /// Sets `node` on the tasks `ids` (locked by the caller's select) and returns their rows.
    private static func assign(_ db: any StoreConnection, _ ids: [String], to node: String) throws -> [TaskRecord] {
        guard !ids.isEmpty else { return [] }
        var set = StoreRowSet([("ref", .text), ("owner", .text)])
        for id in ids { set.append(id, node) }
        // One statement writes and returns them (`*`: the task's columns, and on PostgreSQL the set's too).
        return try db.rows("UPDATE task SET node = u.owner FROM {rows} WHERE task.id = u.ref RETURNING *", over: set)
            .map(TaskRecord.init(row:)).sorted { ($0.rowid ?? 0) < ($1.rowid ?? 0) }
    }
}
