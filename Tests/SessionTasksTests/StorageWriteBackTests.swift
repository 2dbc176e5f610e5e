import Foundation
import HTTPCookies
import Logging
import TestSupport
import Testing
import TransferStore

@testable import SessionTasks

/// The cookie storages' and URL caches' write-back when the store refuses one storage's rows: the others
/// are written all the same, and the refused one is paused and tried again until the store takes it.
@Suite("Storage write-back: one refused storage holds back no other")
struct StorageWriteBackTests {
    /// Runs `sql` on the store's SQLite file from another process, as an operator's `sqlite3` would.
    private func sqlite(_ file: URL, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.close()"
        process.arguments = ["-c", script, file.path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(sql)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theOtherTenantsCookiesAreWrittenAndTheRefusedOnesLater() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let cookies = fixture.storages.cookies
        let origin = CookieURL(scheme: "http", host: "example.com", path: "/")
        var placements: [String: CookieStorages.Placement] = [:]
        for tenant in ["refused", "kept"] {
            let placement = try #require(CookieStorages.placement(of: try await fixture.session(tenant: tenant)))
            try await cookies.storage(placement).store([try #require(SetCookie("\(tenant)=1; Max-Age=3600"))], from: origin, now: Date())
            placements[tenant] = placement
        }
        let refusedKey = try #require(placements["refused"]?.key)
        let database = fixture.directory.appending("urlsessiond.sqlite")
        try sqlite(
            database,
            "CREATE TRIGGER refuse BEFORE INSERT ON cookie WHEN NEW.storage = '\(refusedKey)' BEGIN SELECT RAISE(ABORT, 'refused'); END;")

        await #expect(throws: (any Error).self) { try await cookies.persistChanges() }
        func stored(_ tenant: String) async throws -> [String] {
            try await fixture.store.cookies.cookies(inStorage: try #require(placements[tenant]?.key)).map(\.name)
        }
        #expect(try await stored("kept") == ["kept"], "written though the other storage was refused")
        #expect(try await stored("refused") == [])

        #expect(!cookies.retries.isDue(refusedKey), "the refused storage is paused")

        try sqlite(database, "DROP TRIGGER refuse;")
        try await cookies.storage(try #require(placements["kept"])).store(
            [try #require(SetCookie("later=1; Max-Age=3600"))], from: origin, now: Date())
        try await cookies.persistChanges(onlyDue: true)
        #expect(try await stored("kept") == ["kept", "later"], "the periodic writer goes on with the others")
        #expect(try await stored("refused") == [], "and leaves the refused one until its pause is over")

        try await cookies.persistChanges()
        #expect(try await stored("refused") == ["refused"], "an explicit write tries every storage")
        #expect(cookies.retries.isDue(refusedKey))
    }

    @Test(.timeLimit(.minutes(1)))
    func theOtherCachesAreWrittenAndTheRefusedOneLater() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let caches = fixture.storages.urlCaches
        var storages: [String: URLCacheStorage] = [:]
        for tenant in ["refused", "kept"] {
            let placement = try #require(caches.placement(of: try await fixture.session(tenant: tenant)))
            let storage = try await caches.storage(placement)
            let now = Date()
            _ = storage.insert(
                URLCacheStorage.Entry(
                    url: "http://example.com/\(tenant)", responseURL: "http://example.com/\(tenant)", statusCode: 200,
                    fields: [("Cache-Control", "max-age=60")], varyValues: [:], requestTime: now, responseTime: now,
                    storedAt: now, userInfo: nil, bodyLength: 2, memoryBody: nil, disk: .inStore, pendingBody: Array("ok".utf8),
                    lastAccess: now))
            storages[tenant] = storage
        }
        let refusedKey = try #require(storages["refused"]?.placement.key)
        let database = fixture.directory.appending("urlsessiond.sqlite")
        try sqlite(
            database,
            "CREATE TRIGGER refuse BEFORE INSERT ON cache_entry WHEN NEW.storage = '\(refusedKey)' BEGIN SELECT RAISE(ABORT, 'refused'); END;"
        )

        await #expect(throws: (any Error).self) { try await caches.persistChanges() }
        func stored(_ tenant: String) async throws -> [String] {
            let key = try #require(storages[tenant]?.placement.key)
            return try await fixture.store.urlCaches.cacheEntries(inStorage: key).map(\.url)
        }
        #expect(try await stored("kept") == ["http://example.com/kept"], "written though the other cache was refused")
        #expect(try await stored("refused") == [])
        #expect(!caches.retries.isDue(refusedKey), "the refused cache is paused")

        try sqlite(database, "DROP TRIGGER refuse;")
        try await caches.persistChanges(onlyDue: true)
        #expect(try await stored("refused") == [], "the periodic writer leaves it until its pause is over")
        try await caches.persistChanges()
        #expect(try await stored("refused") == ["http://example.com/refused"], "its entry was given back, not lost")
        let body = try await fixture.store.urlCaches.cacheBody(inStorage: refusedKey, url: "http://example.com/refused")
        #expect(body == Array("ok".utf8))
    }

    @Test func theyArePausedLongerAfterEachFailureUpToAMinute() {
        let pauses = (1...10).map { WriteBackRetries.pause(afterFailures: $0) }
        #expect(
            pauses.prefix(8) == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32), .seconds(60),
            ])
        #expect(pauses.suffix(2) == [.seconds(60), .seconds(60)])
        #expect(WriteBackRetries.pause(afterFailures: 1_000) == .seconds(60))

        let retries = WriteBackRetries(writing: "test", logger: Logger(label: "test"))
        let start = ContinuousClock.now
        #expect(retries.isDue("a", at: start))
        #expect(retries.failed("a", at: start) == .init(count: 1, pause: .milliseconds(500)))
        #expect(retries.failed("a", at: start) == .init(count: 2, pause: .seconds(1)))
        #expect(!retries.isDue("a", at: start + .milliseconds(999)))
        #expect(retries.isDue("a", at: start + .seconds(1)))
        #expect(retries.isDue("b", at: start), "one storage's pause is its own")
        #expect(retries.succeeded("a") == 2)
        #expect(retries.isDue("a", at: start))
        #expect(retries.succeeded("a") == 0)
    }
}
