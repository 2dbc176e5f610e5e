import Foundation
import GRDB
import Logging
import TestSupport
import Testing

@testable import TransferStore

/// PostgreSQL's schema: the same migrations as SQLite's, applied once, and `tenant_usage` kept by its
/// triggers as SQLite's keep it.
@Suite("PostgreSQL migrations")
struct PostgresMigrationsTests {
    @Test func theIdentifiersAreSQLitesInTheirOrder() {
        #expect(PostgresMigrations.all.map(\.identifier) == TransferStore.migrator.migrations)
    }

    @Test(.timeLimit(.minutes(1)))
    func migrationsApplyOnceAndTheUsageTriggersCount() async throws {
        let database = try await PostgresStoreDatabase(
            url: try await PostgresServer.makeDatabase(), readers: 1, logger: Logger(label: "test"))
        try await database.migrate()
        try await database.migrate()  // nothing left to do
        let applied = try await database.read { db in try db.values("SELECT identifier FROM schema_migrations", as: String.self) }
        #expect(Set(applied) == Set(PostgresMigrations.all.map(\.identifier)) && applied.count == PostgresMigrations.all.count)

        func usage() async throws -> [Int64] {
            try await database.read { db in
                guard
                    let row = try db.row(
                        """
                        SELECT SUM(sessions)::bigint, SUM(tasks)::bigint, SUM(blobBytes)::bigint, SUM(blobCount)::bigint,
                          SUM(storedBytes)::bigint FROM tenant_usage WHERE tenant = 't1' HAVING count(*) > 0
                        """)
                else {
                    return []
                }
                return try (0..<5).map { try Int64(storeValue: row[$0]).unwrap() }
            }
        }
        let now = Date()
        try await database.write { db in
            try db.execute(
                "INSERT INTO session (id, tenant, kind, configuration, state, createdAt) VALUES ('s1', 't1', 'default', '{}', 'valid', ?)",
                now)
            try db.execute(
                """
                INSERT INTO task (id, sessionId, tenant, taskIdentifier, kind, state, priority, originalRequest, createdAt)
                VALUES ('k1', 's1', 't1', 1, 'data', 'running', 0.5, 'null', ?)
                """, now)
            try db.execute("INSERT INTO blob (id, tenant, size, digest, createdAt) VALUES ('b1', 't1', 100, 'd', ?)", now)
        }
        #expect(try await usage() == [1, 1, 100, 1, 0])
        try await database.write { db in
            try db.execute("UPDATE task SET state = 'completed', storedBytes = 42, fileExpiresAt = ? WHERE id = 'k1'", now)
            try db.execute(
                """
                INSERT INTO cache_entry (storage, sessionId, url, responseURL, statusCode, headers, varyValues, requestTime,
                  responseTime, storedAt, bodySize, lastAccessAt)
                VALUES ('session s1', 's1', 'u', 'u', 200, '[]', '{}', ?, ?, ?, 8, ?)
                """, now, now, now, now)
            try db.execute("DELETE FROM blob WHERE id = 'b1'")
        }
        #expect(try await usage() == [1, 0, 0, 0, 50])
        // The session goes with its task and its cache entry: what they counted goes too.
        try await database.write { db in try db.execute("DELETE FROM session WHERE id = 's1'") }
        #expect(try await usage() == [0, 0, 0, 0, 0])
        await database.close()
    }
}

extension Optional {
    fileprivate func unwrap() throws -> Wrapped {
        guard let self else { throw CancellationError() }
        return self
    }
}
