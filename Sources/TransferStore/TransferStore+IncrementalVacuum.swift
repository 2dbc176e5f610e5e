import GRDB
import Logging

/// Opening a SQLite file switches it to incremental vacuum (`MaintenanceStore.releaseFreePages` then
/// gives the pages of deleted rows back to the file system).
extension TransferStore {
    /// `PRAGMA auto_vacuum` value of incremental mode.
    static let incrementalVacuum = 2

    /// A database made before incremental vacuum (or a new, empty one) is switched to it: the mode only
    /// takes effect through a `VACUUM`, which rewrites the file once (logged, since a large file takes a
    /// while and needs its size again in free space).
    static func useIncrementalVacuum(_ pool: DatabasePool, logger: Logger) throws {
        try pool.writeWithoutTransaction { db in
            guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != incrementalVacuum else { return }
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let hasTables = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0 > 0
            let started = ContinuousClock.now
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
            guard hasTables else { return }
            logger.notice(
                "Converted the database to incremental vacuum",
                metadata: ["pages": "\(pages)", "duration": "\(ContinuousClock.now - started)"])
        }
    }
}
