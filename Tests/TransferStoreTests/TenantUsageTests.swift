import Crypto
import Foundation
import JSONCodec
import Logging
import TestSupport
import Testing
import TransferModels
import TransferStore

/// `tenant_usage`, kept by triggers: it follows every verb that creates, completes, releases or deletes,
/// survives reopening, and the store refuses what would pass a limit without writing anything.
@Suite("Tenant usage and quotas in the store")
struct TenantUsageTests {
    private func cacheEntry(storage: String, sessionId: String?, url: String, size: Int64) -> CacheEntryRecord {
        CacheEntryRecord(
            storage: storage, sessionId: sessionId, url: url, responseURL: url, statusCode: 200, headers: "", varyValues: "",
            requestTime: Date(), responseTime: Date(), storedAt: Date(), userInfo: nil, bodyFile: nil, bodySize: size,
            lastAccessAt: Date())
    }

    @Test func usageFollowsEveryChangeAndSurvivesReopening() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let first = try await store.makeSession()
        let second = try await store.makeSession()
        _ = try await store.sessions.sharedSession(tenant: "t1")
        _ = try await store.makeSession(tenant: "t2")

        let kept = try await store.tasks.createTask(tenant: "t1", sessionId: first.id, request: try dataTaskRequest())
        let filed = try await store.tasks.createTask(tenant: "t1", sessionId: first.id, request: try dataTaskRequest())
        _ = try await store.tasks.createTask(tenant: "t1", sessionId: second.id, request: try dataTaskRequest())
        var usage = try await store.usage.usage(tenant: "t1")
        #expect(usage.sessions == 2 && usage.tasks == 3 && usage.storedBytes == 0, "\(usage)")

        var body = TaskCompletion(id: kept.id, error: nil, body: Array(repeating: 1, count: 70), fileExpiresAt: Date())
        body.completedAt = Date()
        _ = try await store.tasks.completeTask(body)
        var file = TaskCompletion(id: filed.id, error: nil, filePath: "/nonexistent/\(filed.id)", fileExpiresAt: .distantFuture)
        file.storedBytes = 5_000
        _ = try await store.tasks.completeTask(file)
        try await store.urlCaches.writeCacheChanges([
            {
                var c = CacheEntryChanges(storage: "tenant t1")
                c.upserts = [cacheEntry(storage: "tenant t1", sessionId: nil, url: "u1", size: 300)]
                return c
            }(),
            {
                var c = CacheEntryChanges(storage: "session \(second.id)")
                c.upserts = [cacheEntry(storage: "session \(second.id)", sessionId: second.id, url: "u2", size: 400)]
                return c
            }(),
        ])
        _ = try await store.blobs.insertBlob(BlobRecord(id: ResourceID.make(prefix: "blb"), tenant: "t1", size: 123, digest: "d"))
        usage = try await store.usage.usage(tenant: "t1")
        #expect(usage.tasks == 1, "\(usage)")
        #expect(usage.storedBytes == 70 + 5_000 + 300 + 400, "\(usage)")
        #expect(usage.blobBytes == 123 && usage.blobCount == 1, "\(usage)")

        // Replacing a cache entry counts its new size; the expired body and the released file go.
        try await store.urlCaches.writeCacheChanges([
            {
                var c = CacheEntryChanges(storage: "tenant t1")
                c.upserts = [cacheEntry(storage: "tenant t1", sessionId: nil, url: "u1", size: 100)]
                return c
            }()
        ])
        _ = try await store.blobs.takeExpiredFiles(now: Date().addingTimeInterval(60))
        #expect(try await store.usage.usage(tenant: "t1").storedBytes == 5_000 + 100 + 400)
        #expect(try await store.blobs.releaseFile(taskId: filed.id, tenant: "t1") == .file(path: "/nonexistent/\(filed.id)"))
        #expect(try await store.usage.usage(tenant: "t1").storedBytes == 100 + 400)
        _ = try await store.sessions.beginInvalidation(id: first.id, tenant: "t1")
        #expect(try await store.usage.usage(tenant: "t1").sessions == 1)

        try store.close()
        let reopened = try await fixture.open()
        usage = try await reopened.usage.usage(tenant: "t1")
        #expect(usage.sessions == 1 && usage.tasks == 1 && usage.storedBytes == 500 && usage.blobCount == 1, "\(usage)")
        #expect(try await reopened.usage.usage(tenant: "t2").sessions == 1)
        #expect(try await reopened.usage.allUsage().keys.sorted() == ["t1", "t2"])
        try reopened.close()
    }

    @Test func aRefusedCreationWritesNothing() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        var limits = QuotaLimits.unlimited
        (limits.sessions, limits.tasks, limits.blobCount) = (1, 1, 1)
        let store = try await fixture.open(quotaLimits: limits)
        defer { try? store.close() }
        let only = try await store.makeSession()
        await #expect(throws: QuotaExceeded(quota: .sessions, limit: 1, usage: 1)) { try await store.makeSession() }
        let first = try await store.tasks.createTask(tenant: "t1", sessionId: only.id, request: try dataTaskRequest())
        await #expect(throws: QuotaExceeded(quota: .tasks, limit: 1, usage: 1)) {
            try await store.tasks.createTask(tenant: "t1", sessionId: only.id, request: try dataTaskRequest())
        }
        _ = try await store.blobs.insertBlob(BlobRecord(id: ResourceID.make(prefix: "blb"), tenant: "t1", size: 1, digest: "d"))
        await #expect(throws: QuotaExceeded(quota: .blobCount, limit: 1, usage: 1)) {
            try await store.blobs.insertBlob(BlobRecord(id: ResourceID.make(prefix: "blb"), tenant: "t1", size: 1, digest: "d"))
        }
        #expect(try await store.sessions.sessions(tenant: "t1", after: nil, limit: 10).count == 1)
        #expect(try await store.tasks.tasks(sessionId: only.id, after: nil, limit: 10).count == 1)
        #expect(try await store.events.eventPage(sessionId: only.id, after: 0, limit: 10).events.count == 1)
        _ = try await store.tasks.completeTask(id: first.id, error: nil)
        let next = try await store.tasks.createTask(tenant: "t1", sessionId: only.id, request: try dataTaskRequest())
        #expect(next.taskIdentifier == 2, "the refused task took no identifier")
        // Another tenant has its own.
        _ = try await store.makeSession(tenant: "t2")
    }
}

extension TenantUsageTests {
    /// A database from before `tenant_usage` (its migration undone with Python's sqlite3): the migration
    /// counts what is already stored.
    @Test func theMigrationCountsWhatWasStoredBefore() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.openSQLite()  // SQLite files from before v10 exist; PostgreSQL databases start at this version
        let first = try await store.makeSession()
        _ = try await store.tasks.createTask(tenant: "t1", sessionId: first.id, request: try dataTaskRequest())
        let done = try await store.tasks.createTask(tenant: "t1", sessionId: first.id, request: try dataTaskRequest())
        _ = try await store.tasks.completeTask(
            TaskCompletion(id: done.id, error: nil, body: Array(repeating: 0, count: 42), fileExpiresAt: .distantFuture))
        _ = try await store.blobs.insertBlob(BlobRecord(id: ResourceID.make(prefix: "blb"), tenant: "t2", size: 9, digest: "d"))
        try store.close()

        let undo = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'tenant_usage_%'").fetchall():
                db.execute("DROP TRIGGER " + name)
            db.execute("DROP TABLE tenant_usage")
            db.execute("ALTER TABLE task DROP COLUMN storedBytes")
            db.execute("DELETE FROM grdb_migrations WHERE identifier = 'v10-tenant-usage'")
            db.commit()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", undo, fixture.path]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)

        let reopened = try fixture.openSQLite()
        defer { try? reopened.close() }
        let usage = try await reopened.usage.usage(tenant: "t1")
        #expect(usage.sessions == 1 && usage.tasks == 1 && usage.storedBytes == 42, "\(usage)")
        let other = try await reopened.usage.usage(tenant: "t2")
        #expect(other.blobCount == 1 && other.blobBytes == 9, "\(other)")
    }
}
