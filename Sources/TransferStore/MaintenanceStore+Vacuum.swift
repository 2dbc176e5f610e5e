import Foundation
import GRDB
import Logging
import TransferModels

/// Giving the pages of deleted rows back to the file system, so the file does not keep the size of its
/// largest backlog: the database is in `auto_vacuum = INCREMENTAL` mode, and the housekeeping pass
/// releases the free pages after pruning, a few hundred per write transaction.
extension MaintenanceStore {
    /// Releases the free pages, `pagesPerStep` per write transaction, until none is left or `stopping`
    /// says so; then checkpoints, so the file itself shrinks. Returns the pages released.
    /// On PostgreSQL the pruned tables are vacuumed instead (`vacuumPrunedTables`); it returns 0.
    public func releaseFreePages(pagesPerStep: Int = 64, stopping: @Sendable () -> Bool = { false }) async throws -> Int {
        guard let sqlite else {
            try await vacuumPrunedTables()
            return 0
        }
        var released = 0
        // Bounded: each step releases up to `pagesPerStep` of the pages counted before it.
        for _ in 0..<10_000 where !stopping() {
            let free = try await sqlite.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") } ?? 0
            guard free > 0 else { break }
            let step = min(free, pagesPerStep)
            try await housekeepingWriteWithoutTransaction(sqlite) { db in try db.execute(sql: "PRAGMA incremental_vacuum(\(step))") }
            released += step
            await Task.yield()
        }
        if released > 0 || checkpointIsOwed {
            // The file shrinks only when a checkpoint copies every frame back; a reader whose snapshot is
            // older than the vacuum holds part of them, and the next pass tries again.
            let result = try await checkpointPassively(sqlite)
            sqlite.checkpointOwed.withLock { $0 = result.checkpointedFrameCount < result.walFrameCount }
        }
        return released
    }

    /// PostgreSQL keeps a deleted row's space until a vacuum marks it reusable; autovacuum would, within a
    /// minute or so of its thresholds, but a pass that just pruned thousands of rows vacuums the tables it
    /// pruned at once, so the next burst reuses their space rather than growing the files. It does not
    /// take the tables' write locks: writers on every node go on.
    func vacuumPrunedTables() async throws {
        guard let postgres = database as? PostgresStoreDatabase else { return }
        try await postgres.runOutsideTransaction("VACUUM event, task, taskBody, taskUpload, session, idempotencyKey")
    }

    /// `housekeepingWrite` outside a transaction, on SQLite's writer (the vacuum steps).
    func housekeepingWriteWithoutTransaction<T: Sendable>(
        _ sqlite: SQLiteFile, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await housekeeping.timedOnWriter(body) { try await sqlite.pool.writeWithoutTransaction($0) }
    }

    /// Whether the last checkpoint after freed pages was incomplete (see `releaseFreePages`).
    public var checkpointIsOwed: Bool { sqlite?.checkpointOwed.withLock { $0 } ?? false }
}
