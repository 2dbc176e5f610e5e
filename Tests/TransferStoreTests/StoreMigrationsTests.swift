import Foundation
import GRDB
import Logging
import TestSupport
import Testing

@testable import TransferStore

/// One schema for both backends (`StoreMigrations`): one list of migrations, applied once by each
/// backend, giving both the same tables, columns and indexes; and `tenant_usage` kept by PostgreSQL's
/// triggers as SQLite's keep it.
@Suite("Store migrations")
struct StoreMigrationsTests {
    /// Every identifier that shipped, in the order it shipped: databases list them in their ledgers, so
    /// none may be renamed, dropped or moved (append only).
    @Test func theIdentifiersAreOneListInTheOrderTheyShipped() {
        let shipped = [
            "v1-sessions-tasks-events-blobs", "v2-task-transfer-state", "v3-task-body", "v4-task-suspend-count",
            "v5-task-partial-file", "v3-webhook-delivery", "v6-session-delegate-held", "v7-cookies", "v8-url-cache",
            "v9-credentials", "v10-idempotency-claim-owner", "v10-tenant-usage", "v10-retention", "v11-task-segments",
            "v12-task-websocket", "v13-task-stream", "v14-cluster", "v15-task-file-object", "v16-blob-object",
            "v17-session-delegate-health", "v18-tenant-usage-shards", "v19-task-unclaimed-by-tenant",
        ]
        let identifiers = StoreMigrations.all.map(\.identifier)
        #expect(Array(identifiers.prefix(shipped.count)) == shipped)
        #expect(Set(identifiers).count == identifiers.count)
    }

    /// Each backend reads only its own spelling: no type or statement of the other's dialect reaches it.
    @Test func eachBackendGetsItsOwnSpelling() {
        let sqlite = StoreMigrations.all.flatMap { $0.statements(for: .sqlite) }.joined(separator: "\n")
        let postgres = StoreMigrations.all.flatMap { $0.statements(for: .postgres) }.joined(separator: "\n")
        for word in ["BIGINT", "BYTEA", "IDENTITY", "plpgsql", "DOUBLE PRECISION"] {
            #expect(!sqlite.contains(word), "\(word) in SQLite's statements")
        }
        for word in ["DATETIME", "BLOB", "BOOLEAN", "INSERT OR IGNORE", "INTEGER"] {
            #expect(!postgres.contains(word), "\(word) in PostgreSQL's statements")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func migrationsApplyOnceAndTheUsageTriggersCount() async throws {
        let database = try await PostgresStoreDatabase(
            url: try await PostgresServer.makeDatabase(), readers: 1, logger: Logger(label: "test"))
        #expect(try await database.migrate() == StoreMigrations.all.map(\.identifier))
        #expect(try await database.migrate() == [])  // nothing left to do
        let applied = try await database.read { db in try db.values("SELECT identifier FROM schema_migrations", as: String.self) }
        #expect(Set(applied) == Set(StoreMigrations.all.map(\.identifier)) && applied.count == StoreMigrations.all.count)
        // Large values are compressed with lz4 (`v23-lz4-compression`; Debian's PostgreSQL has it).
        let compressed = try await database.read { db in
            try db.values(
                """
                SELECT attrelid::regclass::text || '.' || attname FROM pg_attribute
                WHERE attrelid IN ('task'::regclass, 'event'::regclass, 'taskbody'::regclass) AND attcompression = 'l'
                ORDER BY 1
                """, as: String.self)
        }
        for column in ["event.data", "task.metrics", "task.originalrequest", "task.response", "taskbody.data"] {
            #expect(compressed.contains(column), "\(column) in \(compressed)")
        }

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
        // The task goes, then the session with its cache entry (by cascade), in retention's order: there is
        // no cascade from a session to its tasks on PostgreSQL (`v24-unchecked-hot-references`). What they
        // counted goes too.
        try await database.write { db in
            try db.execute("DELETE FROM task WHERE id = 'k1'")
            try db.execute("DELETE FROM session WHERE id = 's1'")
        }
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
