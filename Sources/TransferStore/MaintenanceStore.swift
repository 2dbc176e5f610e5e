import Logging
import TransferModels

/// Maintenance: what keeps the store small and the writer free — retention (pruning delivered events,
/// finished tasks, invalidated sessions, old idempotency keys), giving freed pages back (incremental
/// vacuum on SQLite, `VACUUM` on PostgreSQL), passive WAL checkpoints off the writer, the start-up
/// janitor's questions (which files rows still name), and recognising a full disk. It owns no rows: it
/// deletes other aggregates' rows once they are finished, in small timed batches (`HousekeepingWrites`).
public struct MaintenanceStore: Sendable {
    let database: any StoreDatabase
    /// The SQLite file's own connections (the checkpointer, the writer outside transactions); nil on
    /// PostgreSQL.
    let sqlite: SQLiteFile?
    let housekeeping: HousekeepingWrites
    /// `SessionStore`'s cache: a pruned session leaves it.
    let sessionCache: LockedBox<[String: SessionRecord]>
    /// Opens the resume data tokens of tasks, whose files the janitor keeps.
    let resumeDataTokens: ResumeDataTokens
    let logger: Logger

    /// The longest housekeeping write since the last call, and starts counting again.
    public func takeLongestHousekeepingWrite() -> Duration { housekeeping.takeLongest() }
}
