import Foundation
import GRDB
import Logging
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// The schema written once (`StoreMigrations`) gives both backends the same tables, columns and indexes,
/// and a SQLite file made before it (by GRDB's migrator) opens without a migration running again.
@Suite("One schema on both backends")
struct OneSchemaTests {
    /// What only PostgreSQL has, by design: `tenant_usage` in shards (`v18-tenant-usage-shards`: several
    /// nodes write one tenant's figures) and the queued tasks by tenant (`v19-task-unclaimed-by-tenant`:
    /// SQLite's one node claims nothing).
    static let postgresOnly = [
        "tenant_usage.7 shard integer not null default 0",
        "tenant_usage primary key (tenant, shard)",
        "task index task_unclaimed_tenant (tenant, rowid) partial",
    ]
    /// SQLite's one row per tenant, which v18 replaced on PostgreSQL; the foreign keys of the rows every task
    /// writes, which PostgreSQL no longer checks (`v24-unchecked-hot-references`).
    static let sqliteOnly = [
        "tenant_usage primary key (tenant)",
        "task foreign key (sessionid) references session (id) on delete cascade",
        "event foreign key (sessionid) references session (id) on delete cascade",
        "taskbody foreign key (taskid) references task (id) on delete cascade",
    ]

    @Test(.timeLimit(.minutes(1)))
    func aFreshDatabaseHasTheSameTablesColumnsAndIndexesOnBothBackends() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.openSQLite()
        defer { try? store.close() }
        let sqlite = try await store.database.read { db in try SchemaDescription.sqlite(db) }

        let postgres = try await PostgresStoreDatabase(
            url: try await PostgresServer.makeDatabase(), readers: 1, logger: Logger(label: "test"))
        try await postgres.migrate()
        let described = try await postgres.read { db in try SchemaDescription.postgres(db) }
        await postgres.close()

        for line in Self.postgresOnly { #expect(described.contains(line), "\(line)") }
        for line in Self.sqliteOnly { #expect(sqlite.contains(line), "\(line)") }
        let sqliteShared = sqlite.filter { !Self.sqliteOnly.contains($0) }
        let postgresShared = described.filter { !Self.postgresOnly.contains($0) }
        #expect(Set(sqliteShared).symmetricDifference(postgresShared).sorted() == [])
        #expect(sqliteShared == postgresShared)
        #expect(sqlite.count > 200, "the description found the schema: \(sqlite.count) lines")
    }

    /// `Tests/Fixtures/store-made-by-9730c00.sql`: `sqlite3 .dump` of a data directory's database made by the
    /// service at commit 9730c00 (GRDB's migrator, its ledger `grdb_migrations`) holding a session, a task
    /// that failed, a suspended one and a blob.
    @Test(.timeLimit(.minutes(1)))
    func aFileMadeByGRDBsMigratorUpgradesRunningOnlyWhatCameAfter() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let dump = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/store-made-by-9730c00.sql"),
            encoding: .utf8)
        let queue = try DatabaseQueue(path: fixture.path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")  // as the service had made it
            try db.execute(sql: dump)
        }
        try queue.close()

        let pool = try DatabasePool(path: fixture.path)
        let applied = try await SQLiteStoreDatabase(pool: pool).write { db in try StoreMigrator(dialect: .sqlite).migrate(db) }
        try pool.close()
        // The file was made with the 22 migrations shipped by then: only those appended since run.
        #expect(applied == StoreMigrations.all.dropFirst(22).map(\.identifier), "the rest are in the ledger GRDB's migrator wrote")

        let store = try fixture.openSQLite()
        defer { try? store.close() }
        let upgraded = try await store.database.read { db in try SchemaDescription.sqlite(db) }
        let fresh = try StoreFixture()
        defer { fresh.directory.remove() }
        let freshStore = try fresh.openSQLite()
        defer { try? freshStore.close() }
        #expect(upgraded == (try await freshStore.database.read { db in try SchemaDescription.sqlite(db) }))
        let ledger = try await store.database.read { db in try db.values("SELECT identifier FROM grdb_migrations", as: String.self) }
        #expect(ledger.count == StoreMigrations.all.count)

        // What the old version wrote reads the same, and the counters its triggers kept go on.
        let session = try #require(try await store.sessions.session(id: "ses_0355gpR1l5lQj9TMxhn01B", tenant: "default"))
        #expect(session.sessionDescription == "fixture")
        let tasks = try await store.tasks.tasks(sessionId: session.id, after: nil, limit: 10)
        #expect(tasks.map(\.state) == [.completed, .suspended])
        #expect(tasks.first?.error?.code == -1004)
        #expect(tasks.map(\.suspendCount) == [0, 1])
        #expect(try await store.blobs.blob(id: "blb_0355gpUT3TQLfksPnE7toH", tenant: "default")?.size == 10)
        var usage = try await store.usage.usage(tenant: "default")
        #expect(usage.sessions == 1 && usage.tasks == 1 && usage.blobCount == 1 && usage.blobBytes == 10, "\(usage)")
        _ = try await store.blobs.insertBlob(BlobRecord(id: ResourceID.make(prefix: "blb"), tenant: "default", size: 5, digest: "d"))
        usage = try await store.usage.usage(tenant: "default")
        #expect(usage.blobCount == 2 && usage.blobBytes == 15, "\(usage)")
    }
}
