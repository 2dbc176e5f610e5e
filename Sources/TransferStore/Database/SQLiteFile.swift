import Foundation
import GRDB
import Logging
import TransferModels

/// What only the SQLite backend has: the file's connections (GRDB's pool, and the checkpointer that copies
/// the WAL back off the writer) and the state of its maintenance. A store on PostgreSQL has none of it.
final class SQLiteFile: Sendable {
    let pool: DatabasePool
    /// A connection of its own that copies the WAL back into the database file (`runCheckpoints`), so a
    /// checkpoint — megabytes copied and fsynced — never runs on the writer, inside some task's commit.
    let checkpointer: DatabaseQueue
    /// A checkpoint after freed pages that a reader kept from completing: the file keeps its size until
    /// one completes (`releaseFreePages`).
    let checkpointOwed = LockedBox(false)

    /// Opens (creating if needed) the database at `path` in WAL mode, every commit durable.
    init(path: String, logger: Logger) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = 4
        configuration.publicStatementArguments = false  // never log values: they may hold secrets
        configuration.prepareDatabase { db in
            // The checkpointer's connection checkpoints (`runCheckpoints`); a commit checkpoints only if the
            // WAL has grown past 64,000 pages (256 MB), which means no checkpointer runs (a store without
            // the service, in tests) or it cannot keep up.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 64000")
            // The WAL is cut back to 64 MiB after a checkpoint that let it restart: a burst does not keep
            // its size on disk.
            try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
            // Savepoint and statement journals in memory: on disk (the default) every creation's savepoint
            // of a group commit wrote its first-touched pages to a fresh `/var/tmp/etilqs_*` file (more
            // pwrites than the WAL itself). They hold only what one transaction touched, and are thrown
            // away at its end: durability is the WAL's.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        // WAL + FULL: every commit is on disk (the WAL fsynced) before it returns, so it survives a power
        // cut too. Events are sent by webhooks and read by clients as soon as they commit: at NORMAL a
        // power cut could take back an event already delivered and hand its sequence number to another.
        // Group commit keeps the fsyncs to one per batch of writes. Set here, on the one writer
        // connection: GRDB sets NORMAL when it turns WAL on, after `prepareDatabase`.
        // The writer's page cache is 16 MiB, not SQLite's 2 MB: a group commit of completions touches more
        // pages than 2 MB hold, and SQLite then spilled dirty pages to the WAL in the middle of the
        // transaction (`sqlite3PcacheFetchStress`, 4 % of the small-task profile), writing them again at
        // the commit. The readers keep the default.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA cache_size = -16384")
        }
        var checkpointing = Configuration()
        checkpointing.busyMode = .timeout(10)
        checkpointing.publicStatementArguments = false
        checkpointing.label = "checkpointer"
        checkpointer = try DatabaseQueue(path: path, configuration: checkpointing)
        try TransferStore.useIncrementalVacuum(pool, logger: logger)
        // The schema's migrations in one transaction on the writer, before anything else writes; their
        // statements are not the service's, so they are not counted with its own.
        _ = try pool.write { db in
            try StoreMigrator(dialect: .sqlite).migrate(SQLiteStoreConnection(db: db, statements: StatementCounter()))
        }
    }

    /// Checkpoints the WAL and closes every connection.
    func close() throws {
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try checkpointer.close()
        try pool.close()
    }
}
