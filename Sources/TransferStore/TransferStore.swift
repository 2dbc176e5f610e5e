import Foundation
import GRDB
public import Logging
public import TransferModels

/// The service's state: sessions, tasks, events, blobs, idempotency keys — in one SQLite file (WAL) in the
/// data directory, or in a PostgreSQL database that several nodes share (`StoreDatabase`).
///
/// The only module that speaks SQL. This type opens the database, migrates it, and hands out one store
/// per aggregate over it (`sessions`, `tasks`, `events`, `deliveries`, `cluster`, …), each owning its
/// verbs; every write is one transaction, so a rejected or interrupted request leaves nothing half-made.
/// A write that spans aggregates (a task's creation writes the task, its events, its session's sequence
/// and its tenant's usage) stays one transaction: the aggregates share the helpers that run inside one
/// (`BatchWrites`, `TaskRows`, `EventLog.appendEvent`, `UsageStore.checkQuotas`). With several nodes it
/// also applies the other nodes' writes to the aggregates' caches and feeds (`followOtherNodes`).
public final class TransferStore: Sendable {
    /// Where the rows live; every aggregate's verbs run on it.
    let database: any StoreDatabase
    /// The SQLite file's own connections and maintenance; nil on PostgreSQL.
    let sqlite: SQLiteFile?
    let secrets: SecretBox
    /// What each tenant may hold (`QuotaLimits`), checked inside the transactions that create.
    public var quotaLimits: QuotaLimits { usage.quotaLimits }

    /// Sessions: creation, re-attach, reads through the session cache, updates, invalidation.
    public let sessions: SessionStore
    /// Tasks: creation (group-committed), reads, controls, the engine's reports, completions.
    public let tasks: TaskStore
    /// The event log and outbox: appends, pages, the feed.
    public let events: EventLog
    /// Webhook delivery: delegate queues, pending completions, outcomes, health, redelivery.
    public let deliveries: DeliveryStore
    /// The nodes, their claims on tasks, leases and forwarded controls.
    public let cluster: ClusterStore
    /// Blobs and the files tasks downloaded.
    public let blobs: BlobStore
    /// The per-session storages: cookies, URL caches, credentials.
    public let cookies: CookieStore
    public let urlCaches: URLCacheStore
    public let credentials: CredentialStore
    /// Each tenant's usage and quotas.
    public let usage: UsageStore
    /// `Idempotency-Key`s and the answers kept for them.
    public let idempotency: IdempotencyStore
    /// Retention, vacuum, checkpoints, the janitor's questions.
    public let maintenance: MaintenanceStore

    /// Opens (creating if needed) the SQLite database at `path` and migrates it to the current schema.
    /// - Parameter quotaLimits: what each tenant may hold; none by default.
    public convenience init(path: String, secrets: SecretBox, logger: Logger, quotaLimits: QuotaLimits = .unlimited) throws {
        let file = try SQLiteFile(path: path, logger: logger)
        let taskReads = TaskReadCache()
        file.pool.add(transactionObserver: taskReads, extent: .databaseLifetime)
        self.init(
            database: SQLiteStoreDatabase(pool: file.pool), sqlite: file, taskReads: taskReads, secrets: secrets, logger: logger,
            quotaLimits: quotaLimits)
    }

    /// Connects to the PostgreSQL database `url` names (`postgres://user:password@host:port/database`) and
    /// migrates it to the current schema (once, whichever node starts first).
    public static func open(
        postgresURL url: String, secrets: SecretBox, logger: Logger, quotaLimits: QuotaLimits = .unlimited
    ) async throws -> TransferStore {
        let database = try await PostgresStoreDatabase(url: url, logger: logger)
        do {
            try await database.migrate()
        } catch {
            await database.close()
            throw error
        }
        return TransferStore(database: database, sqlite: nil, taskReads: nil, secrets: secrets, logger: logger, quotaLimits: quotaLimits)
    }

    private init(
        database: any StoreDatabase, sqlite: SQLiteFile?, taskReads: TaskReadCache?, secrets: SecretBox, logger: Logger,
        quotaLimits: QuotaLimits
    ) {
        self.database = database
        self.cluster = ClusterStore(database: database, requestSecrets: RequestSecrets(box: secrets))
        self.sqlite = sqlite
        self.secrets = secrets
        // The housekeeping's writes, timed (shared by the usage fold, expired files and maintenance).
        let housekeeping = HousekeepingWrites(database: database)
        let usage = UsageStore(
            database: database, housekeeping: housekeeping, quotaLimits: quotaLimits, sharesDatabaseWithOtherNodes: sqlite == nil)
        self.usage = usage
        self.blobs = BlobStore(database: database, housekeeping: housekeeping, tenantUsage: usage)
        self.idempotency = IdempotencyStore(database: database, secrets: secrets)
        let sessionCache = LockedBox<[String: SessionRecord]>([:])
        let events = EventLog(database: database, secrets: secrets, sessionCache: sessionCache)
        self.events = events
        let deliveries = DeliveryStore(database: database, secrets: secrets, sessionCache: sessionCache)
        self.deliveries = deliveries
        self.sessions = SessionStore(
            database: database, secrets: secrets, quotaLimits: quotaLimits, sessionCache: sessionCache, events: events,
            deliveries: deliveries)
        self.tasks = TaskStore(
            database: database, secrets: secrets, quotaLimits: quotaLimits, taskReads: taskReads, events: events)
        self.maintenance = MaintenanceStore(
            database: database, sqlite: sqlite, housekeeping: housekeeping, sessionCache: sessionCache,
            resumeDataTokens: ResumeDataTokens(secrets: secrets), logger: logger)
        self.cookies = CookieStore(database: database)
        self.urlCaches = URLCacheStore(database: database)
        self.credentials = CredentialStore(database: database, secrets: secrets)
    }

    /// Which backend holds the rows, for logs and `/v1/admin/nodes`: `sqlite` or `postgresql`.
    public var backendName: String { sqlite == nil ? "postgresql" : "sqlite" }

    /// Every statement this store ran since it opened, transaction control included (`/metrics`:
    /// `urlsessiond_store_statements_total`).
    public var statementsExecuted: UInt64 { database.statements.value }

    /// Whether the database answers a trivial query (for `/readyz`).
    public func isReadable() async -> Bool {
        (try? await database.read { db in try db.value("SELECT 1", as: Int.self) }) == 1
    }

    /// Closes every connection (graceful shutdown); SQLite's WAL is checkpointed first.
    public func close() throws {
        if let sqlite {
            try sqlite.close()
        } else if let postgres = database as? PostgresStoreDatabase {
            postgres.closeConnections()
        }
    }
}
