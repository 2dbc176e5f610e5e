import Foundation
import GRDB
public import Logging
public import TransferModels

/// The service's state in one SQLite file (WAL): sessions, tasks, events, blobs, idempotency keys.
///
/// The only module that speaks SQL. Its API is domain verbs; every write is one transaction, so a
/// rejected or interrupted request leaves nothing half-made. Sessions are also kept in a read-through
/// cache (they change only through this type), so the hot `GET /v1/sessions/{id}` path needs no query.
public final class TransferStore: Sendable {
    let pool: DatabasePool
    /// The same database behind the interface both backends share (the verbs move onto it one by one).
    let database: any StoreDatabase
    /// A connection of its own that copies the WAL back into the database file (`runCheckpoints`), so a
    /// checkpoint — megabytes copied and fsynced — never runs on the writer, inside some task's commit.
    let checkpointer: DatabaseQueue
    let secrets: SecretBox
    let logger: Logger
    /// Sessions by id, filled on first read and updated by every write of this store.
    let sessionCache = LockedBox<[String: SessionRecord]>([:])
    /// Tasks by id as last read, dropped by every commit that changes their row.
    let taskReads = TaskReadCache()
    /// Which sessions have new events, after each commit that appended some.
    public let eventFeed = EventFeed()
    /// Which sessions' delegates changed (a patch, a re-attach with another delegate), after the commit.
    public let delegateChanges = EventFeed()
    /// The `Idempotency-Key` claims whose requests this process is answering (never taken over).
    let liveIdempotencyClaims = LockedBox<Set<String>>([])
    /// Task creations, group-committed.
    let creations = GroupCommit<TaskCreation, TaskRecord>()
    /// What each tenant may hold (`QuotaLimits`), checked inside the transactions that create.
    public let quotaLimits: QuotaLimits
    /// Each tenant's usage as last read (`usageHint`).
    let usageHints = LockedBox<[String: TenantUsage]>([:])
    /// A checkpoint after freed pages that a reader kept from completing: the file keeps its size until
    /// one completes (`releaseFreePages`).
    let checkpointOwed = LockedBox(false)
    /// The longest write of the housekeeping since it last asked (`takeLongestHousekeepingWrite`).
    let longestHousekeepingWrite = LockedBox(Duration.zero)

    /// Opens (creating if needed) the database at `path` and migrates it to the current schema.
    /// - Parameter quotaLimits: what each tenant may hold; none by default.
    public init(path: String, secrets: SecretBox, logger: Logger, quotaLimits: QuotaLimits = .unlimited) throws {
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
        self.pool = try DatabasePool(path: path, configuration: configuration)
        self.database = SQLiteStoreDatabase(pool: pool)
        // WAL + FULL: every commit is on disk (the WAL fsynced) before it returns, so it survives a power
        // cut too. Events are sent by webhooks and read by clients as soon as they commit: at NORMAL a
        // power cut could take back an event already delivered and hand its sequence number to another.
        // Group commit keeps the fsyncs to one per batch of writes. Set here, on the one writer
        // connection: GRDB sets NORMAL when it turns WAL on, after `prepareDatabase`.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        var checkpointing = Configuration()
        checkpointing.busyMode = .timeout(10)
        checkpointing.publicStatementArguments = false
        checkpointing.label = "checkpointer"
        self.checkpointer = try DatabaseQueue(path: path, configuration: checkpointing)
        self.secrets = secrets
        self.logger = logger
        self.quotaLimits = quotaLimits
        try Self.useIncrementalVacuum(pool, logger: logger)
        try Self.migrator.migrate(pool)
        pool.add(transactionObserver: taskReads, extent: .databaseLifetime)
    }

    /// Whether the database answers a trivial query (for `/readyz`).
    public func isReadable() async -> Bool {
        (try? await database.read { db in try db.value("SELECT 1", as: Int.self) }) == 1
    }

    /// Checkpoints the WAL and closes every connection (graceful shutdown).
    public func close() throws {
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try checkpointer.close()
        try pool.close()
    }
}
