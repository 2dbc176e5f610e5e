public import TransferModels

/// Each tenant's usage (the `tenant_usage` rows: sessions, tasks, blobs, stored bytes) and the quotas it is
/// held to. The rows are written inside the transactions that create and delete (`SessionStore`,
/// `TaskStore`, `BlobStore` call the `static` reads here in their own transactions, so two creations that
/// race cannot both pass a limit); this type reads them, keeps the hints, and folds PostgreSQL's rows.
public struct UsageStore: Sendable {
    let database: any StoreDatabase
    let housekeeping: HousekeepingWrites
    /// What each tenant may hold (`QuotaLimits`), checked inside the transactions that create.
    let quotaLimits: QuotaLimits
    /// Whether other nodes write the same database (PostgreSQL): only then are there rows to fold.
    let sharesDatabaseWithOtherNodes: Bool
    /// Each tenant's usage as last read (`usageHint`).
    let usageHints = LockedBox<[String: TenantUsage]>([:])

    /// What the tenant holds by each stored quota (`streams` is the control plane's, 0 here).
    public func usage(tenant: String) async throws -> TenantUsage {
        let usage = try await database.read { db in try Self.usage(db, tenant: tenant) }
        remember(usage, of: tenant)
        return usage
    }

    /// Every tenant's usage (for `/metrics`): one row per tenant that ever held something.
    public func allUsage() async throws -> [String: TenantUsage] {
        let all = try await database.read { db in
            var all: [String: TenantUsage] = [:]
            for row in try db.rows("SELECT tenant, \(Self.usageSums) FROM tenant_usage GROUP BY tenant") {
                all[try row.decode(forColumn: "tenant")] = try Self.usage(row)
            }
            return all
        }
        usageHints.withLock { hints in hints.merge(all) { $1 } }
        return all
    }

    /// PostgreSQL: adds the usage rows of connections that have closed (a node restarted, a pool
    /// reconnected) into each tenant's shard 0 and deletes them, so the rows summed by every read stay
    /// about one per live connection (`v20-tenant-usage-per-connection`). The sums do not change: a row is
    /// deleted and added in one statement. Any node may run it at any time; two at once fold each row once.
    /// Returns the rows folded.
    @discardableResult
    public func foldUsageOfClosedConnections() async throws -> Int {
        guard sharesDatabaseWithOtherNodes else { return 0 }
        return try await housekeeping.write { db in
            let sums = ["sessions", "tasks", "blobBytes", "blobCount", "storedBytes"]
            return try db.value(
                """
                WITH closed AS (
                  DELETE FROM tenant_usage WHERE shard <> 0 AND shard NOT IN (SELECT pid FROM pg_stat_activity) RETURNING *
                ), folded AS (
                  INSERT INTO tenant_usage AS t (tenant, shard, \(sums.joined(separator: ", ")))
                  SELECT tenant, 0, \(sums.map { "SUM(\($0))" }.joined(separator: ", ")) FROM closed GROUP BY tenant
                  ON CONFLICT (tenant, shard) DO UPDATE SET \(sums.map { "\($0) = t.\($0) + excluded.\($0)" }.joined(separator: ", "))
                )
                SELECT COUNT(*) FROM closed
                """, as: Int.self) ?? 0
        }
    }

    /// The usage last read for `tenant`, from memory (nil: not read since start-up). A hint for checks
    /// that cannot wait for the database (a blob upload stopped while it arrives); the check that
    /// counts is made again inside the transaction that creates.
    public func usageHint(tenant: String) -> TenantUsage? {
        usageHints.withLock { $0[tenant] }
    }

    /// Throws `QuotaExceeded` (`storedBytes`) once the tenant's stored bytes have reached their limit:
    /// no new transfer starts then (one running goes on; `URLSESSIOND_MAX_DOWNLOAD_SIZE` bounds it).
    public func checkStorageRoom(tenant: String) async throws {
        guard quotaLimits.storedBytes > 0 else { return }
        try quotaLimits.check(.storedBytes, usage: try await usage(tenant: tenant).storedBytes, adding: 1)
    }

    // MARK: Inside transactions

    static func usage(_ db: any StoreConnection, tenant: String) throws -> TenantUsage {
        guard let row = try db.row("SELECT \(usageSums) FROM tenant_usage WHERE tenant = ?", tenant) else { return TenantUsage() }
        return try usage(row)
    }

    /// A tenant's figures are the sums of its rows: one on SQLite; on PostgreSQL one per shard, so that
    /// writers on several connections and nodes do not queue on one row (`v18-tenant-usage-shards`).
    /// PostgreSQL's `SUM` of integers is `numeric`, read back as an integer.
    private static let usageSums = ["sessions", "tasks", "blobBytes", "blobCount", "storedBytes"]
        .map { "CAST(COALESCE(SUM(\($0)), 0) AS BIGINT) AS \($0)" }.joined(separator: ", ")

    private static func usage(_ row: StoreRow) throws -> TenantUsage {
        var usage = TenantUsage()
        usage.sessions = try row.decode(forColumn: "sessions")
        usage.tasks = try row.decode(forColumn: "tasks")
        usage.blobBytes = try row.decode(forColumn: "blobBytes")
        usage.blobCount = try row.decode(forColumn: "blobCount")
        usage.storedBytes = try row.decode(forColumn: "storedBytes")
        return usage
    }

    /// Throws `QuotaExceeded` when adding `count` of each quota would pass the tenant's limits, reading
    /// the usage in the caller's transaction (so two creations that race cannot both pass).
    static func checkQuotas(
        _ db: any StoreConnection, tenant: String, limits: QuotaLimits, adding additions: [(Quota, Int64)]
    ) throws {
        guard additions.contains(where: { limits[$0.0] > 0 }) else { return }
        let usage = try usage(db, tenant: tenant)
        for (quota, count) in additions { try limits.check(quota, usage: usage[quota], adding: count) }
    }

    func remember(_ usage: TenantUsage, of tenant: String) {
        usageHints.withLock { $0[tenant] = usage }
    }
}
