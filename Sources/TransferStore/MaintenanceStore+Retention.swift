public import Foundation
import JSONCodec
import TransferModels

/// How long finished work is kept before the housekeeping pass deletes it (`URLSESSIOND_*_RETENTION`).
public struct RetentionPolicy: Sendable, Equatable {
    /// An event acknowledged by a webhook, counted from its delivery. Undelivered events stay (readable
    /// with `GET …/events`) until their task or session goes.
    public var deliveredEvents: TimeInterval = 7 * 86_400
    /// A completed task, with its events, kept body and files, counted from its completion.
    public var finishedTasks: TimeInterval = 30 * 86_400
    /// An invalidated session, with everything left of it, counted from its invalidation.
    public var invalidatedSessions: TimeInterval = 7 * 86_400
    /// Rows one transaction deletes at most: a writer waits for one batch, never for a whole pass.
    public var batchSize = 100

    public init() {}
}

/// What one batch deleted: the rows, and the files no row names any more (for the caller to remove).
public struct PrunedBatch: Sendable {
    public var rows = 0
    public var files: [String] = []
    /// Keys of objects in the object store the deleted rows named, for the caller to delete.
    public var objects: [String] = []
    /// Sessions whose row went (their in-memory state can go too).
    public var sessions: [String] = []
    /// Whether the batch found nothing more to do.
    public var isLast = false
}

/// The retention verbs. Each finds its candidates on a reader (no write lock held while it looks) and
/// deletes at most `batchSize` rows per write transaction; the caller loops, yielding in between.
extension MaintenanceStore {
    /// Deletes up to `limit` events delivered before `cutoff`.
    public func pruneDeliveredEvents(deliveredBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        // Served by the partial index `event_deliveredAt`.
        let rowids = try await database.read { db in
            try db.values(
                "SELECT rowid FROM event WHERE deliveredAt IS NOT NULL AND deliveredAt < ? LIMIT ?", cutoff, limit, as: Int64.self)
        }
        guard !rowids.isEmpty else { return PrunedBatch(isLast: true) }
        let deleted = try await housekeeping.write { db in
            try db.execute(
                "DELETE FROM event WHERE rowid IN (\(StoreSQL.placeholders(rowids.count))) AND deliveredAt < ?",
                rowids.map(\.storeValue) + [cutoff.storeValue])
        }
        return PrunedBatch(rows: deleted, isLast: rowids.count < limit)
    }

    /// Deletes up to `limit` idempotency keys created before `cutoff` (`idempotencyWindow` ago).
    public func pruneIdempotencyKeys(createdBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        // By the primary key: the table has no `rowid` of its own on PostgreSQL.
        let deleted = try await housekeeping.write { db in
            try db.execute(
                """
                DELETE FROM idempotencyKey WHERE (tenant, key) IN
                  (SELECT tenant, key FROM idempotencyKey WHERE createdAt < ? LIMIT ?)
                """, cutoff, limit)
        }
        return PrunedBatch(rows: deleted, isLast: deleted < limit)
    }

    /// Deletes tasks completed before `cutoff`, events first (a crash between batches leaves a task
    /// with fewer events, never events without a task): up to `limit` rows per call.
    public func pruneFinishedTasks(completedBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        // Served by the partial index `task_completedAt`.
        let ids = try await database.read { db in
            try db.values(
                "SELECT id FROM task WHERE completedAt IS NOT NULL AND completedAt < ? AND state = 'completed' LIMIT ?", cutoff, limit,
                as: String.self)
        }
        guard !ids.isEmpty else { return PrunedBatch(isLast: true) }
        var batch = try await deleteTasks(ids, limit: limit)
        batch.isLast = batch.isLast && ids.count < limit
        return batch
    }

    /// Deletes, in pieces of `limit` rows, what is left of sessions invalidated before `cutoff`: their
    /// events, tasks and then their rows (cookies, credentials and cache rows follow by cascade). A
    /// session with an unfinished task is left alone.
    public func pruneInvalidatedSessions(invalidatedBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        // Served by the partial index `session_invalidatedAt`.
        let candidates = try await database.read { db in
            try db.values(
                """
                SELECT id FROM session WHERE state = 'invalidated' AND invalidatedAt < ?
                AND NOT EXISTS (SELECT 1 FROM task WHERE task.sessionId = session.id AND task.state <> 'completed')
                LIMIT 1
                """, cutoff, as: String.self)
        }
        guard let sessionId = candidates.first else { return PrunedBatch(isLast: true) }
        let taskIds = try await database.read { db in
            try db.values("SELECT id FROM task WHERE sessionId = ? LIMIT ?", sessionId, limit, as: String.self)
        }
        if !taskIds.isEmpty {
            var batch = try await deleteTasks(taskIds, limit: limit)
            batch.isLast = false  // the session itself is still to go
            return batch
        }
        let batch = try await housekeeping.write { db in
            var batch = PrunedBatch()
            batch.rows = try db.execute(
                "DELETE FROM event WHERE rowid IN (SELECT rowid FROM event WHERE sessionId = ? LIMIT ?)", sessionId, limit)
            guard batch.rows < limit else { return batch }
            // The last events went in this transaction: the row (and its small storages, by cascade) goes
            // with them. No task can have appeared since the read: the session is invalidated.
            let deleted = try db.execute(
                """
                DELETE FROM session WHERE id = ? AND state = 'invalidated'
                AND NOT EXISTS (SELECT 1 FROM task WHERE sessionId = ?)
                """, sessionId, sessionId)
            if deleted > 0 {
                batch.sessions = [sessionId]
                db.notify(.sessions, sessionId)
            }
            batch.rows += deleted
            return batch
        }
        for id in batch.sessions { sessionCache.withLock { $0[id] = nil } }
        return batch
    }

    /// Deletes up to `limit` events of `ids`; once none is left, the tasks themselves with their kept
    /// bodies (and inline uploads, by cascade), returning their files.
    private func deleteTasks(_ ids: [String], limit: Int) async throws -> PrunedBatch {
        try await housekeeping.write { db in
            var batch = PrunedBatch()
            let list = StoreSQL.placeholders(ids.count)
            let arguments = ids.map(\.storeValue)
            batch.rows = try db.execute(
                "DELETE FROM event WHERE rowid IN (SELECT rowid FROM event WHERE taskId IN (\(list)) LIMIT ?)",
                arguments + [limit.storeValue])
            guard batch.rows < limit else { return batch }
            // Still completed: a task is never reopened, but re-checking costs nothing here.
            let files = try db.rows("SELECT filePath, partialPath, fileObject FROM task WHERE id IN (\(list))", arguments)
            batch.files = try files.flatMap { row in try StoreSQL.paths(row) }
            batch.objects = try files.compactMap { row in try row.decode(String?.self, forColumn: "fileObject") }
            // The kept bodies by name: PostgreSQL has no cascade for them (`v24-unchecked-hot-references`).
            batch.rows += try db.execute("DELETE FROM taskBody WHERE taskId IN (\(list))", arguments)
            batch.rows += try db.execute("DELETE FROM task WHERE id IN (\(list))", arguments)
            batch.isLast = true
            return batch
        }
    }
}
