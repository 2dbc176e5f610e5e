public import Foundation
import GRDB
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
    /// Sessions whose row went (their in-memory state can go too).
    public var sessions: [String] = []
    /// Whether the batch found nothing more to do.
    public var isLast = false
}

/// The retention verbs. Each finds its candidates on a reader (no write lock held while it looks) and
/// deletes at most `batchSize` rows per write transaction; the caller loops, yielding in between.
extension TransferStore {
    /// Deletes up to `limit` events delivered before `cutoff`.
    public func pruneDeliveredEvents(deliveredBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        // Served by the partial index `event_deliveredAt`.
        let rowids = try await pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM event WHERE deliveredAt IS NOT NULL AND deliveredAt < ? LIMIT ?",
                arguments: [cutoff.storageText, limit])
        }
        guard !rowids.isEmpty else { return PrunedBatch(isLast: true) }
        let deleted = try await housekeepingWrite { db in
            try db.execute(
                sql: "DELETE FROM event WHERE rowid IN (\(Self.placeholders(rowids.count))) AND deliveredAt < ?",
                arguments: StatementArguments(rowids) + [cutoff.storageText])
            return db.changesCount
        }
        return PrunedBatch(rows: deleted, isLast: rowids.count < limit)
    }

    /// Deletes up to `limit` idempotency keys created before `cutoff` (`idempotencyWindow` ago).
    public func pruneIdempotencyKeys(createdBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        let rowids = try await pool.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT rowid FROM idempotencyKey WHERE createdAt < ? LIMIT ?", arguments: [cutoff, limit])
        }
        guard !rowids.isEmpty else { return PrunedBatch(isLast: true) }
        let deleted = try await housekeepingWrite { db in
            try db.execute(
                sql: "DELETE FROM idempotencyKey WHERE rowid IN (\(Self.placeholders(rowids.count))) AND createdAt < ?",
                arguments: StatementArguments(rowids) + [cutoff])
            return db.changesCount
        }
        return PrunedBatch(rows: deleted, isLast: rowids.count < limit)
    }

    /// Deletes tasks completed before `cutoff`, events first (a crash between batches leaves a task
    /// with fewer events, never events without a task): up to `limit` rows per call.
    public func pruneFinishedTasks(completedBefore cutoff: Date, limit: Int) async throws -> PrunedBatch {
        // Served by the partial index `task_completedAt`.
        let ids = try await pool.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT id FROM task WHERE completedAt IS NOT NULL AND completedAt < ? AND state = 'completed' LIMIT ?",
                arguments: [cutoff.storageText, limit])
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
        let candidates = try await pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM session WHERE state = 'invalidated' AND invalidatedAt < ?
                    AND NOT EXISTS (SELECT 1 FROM task WHERE task.sessionId = session.id AND task.state <> 'completed')
                    LIMIT 1
                    """, arguments: [cutoff.storageText])
        }
        guard let sessionId = candidates.first else { return PrunedBatch(isLast: true) }
        let taskIds = try await pool.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM task WHERE sessionId = ? LIMIT ?", arguments: [sessionId, limit])
        }
        if !taskIds.isEmpty {
            var batch = try await deleteTasks(taskIds, limit: limit)
            batch.isLast = false  // the session itself is still to go
            return batch
        }
        let batch = try await housekeepingWrite { db in
            var batch = PrunedBatch()
            try db.execute(
                sql: "DELETE FROM event WHERE rowid IN (SELECT rowid FROM event WHERE sessionId = ? LIMIT ?)",
                arguments: [sessionId, limit])
            batch.rows = db.changesCount
            guard batch.rows < limit else { return batch }
            // The last events went in this transaction: the row (and its small storages, by cascade) goes
            // with them. No task can have appeared since the read: the session is invalidated.
            try db.execute(
                sql: """
                    DELETE FROM session WHERE id = ? AND state = 'invalidated'
                    AND NOT EXISTS (SELECT 1 FROM task WHERE sessionId = ?)
                    """, arguments: [sessionId, sessionId])
            if db.changesCount > 0 { batch.sessions = [sessionId] }
            batch.rows += db.changesCount
            return batch
        }
        for id in batch.sessions { sessionCache.withLock { $0[id] = nil } }
        return batch
    }

    /// Deletes up to `limit` events of `ids`; once none is left, the tasks themselves (their kept bodies
    /// and inline uploads by cascade), returning their files.
    private func deleteTasks(_ ids: [String], limit: Int) async throws -> PrunedBatch {
        try await housekeepingWrite { db in
            var batch = PrunedBatch()
            let list = Self.placeholders(ids.count)
            try db.execute(
                sql: "DELETE FROM event WHERE rowid IN (SELECT rowid FROM event WHERE taskId IN (\(list)) LIMIT ?)",
                arguments: StatementArguments(ids) + [limit])
            batch.rows = db.changesCount
            guard batch.rows < limit else { return batch }
            // Still completed: a task is never reopened, but re-checking costs nothing here.
            let files = try Row.fetchAll(
                db, sql: "SELECT filePath, partialPath FROM task WHERE id IN (\(list))", arguments: StatementArguments(ids))
            batch.files = files.flatMap { row in [row["filePath"] as String?, row["partialPath"] as String?].compactMap { $0 } }
            try db.execute(sql: "DELETE FROM task WHERE id IN (\(list))", arguments: StatementArguments(ids))
            batch.rows += db.changesCount
            batch.isLast = true
            return batch
        }
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}
