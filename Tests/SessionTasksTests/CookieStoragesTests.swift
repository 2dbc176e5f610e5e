import Foundation
import HTTPCookies
import TestSupport
import Testing
import TransferStore

@testable import SessionTasks

/// The cookie storages' write-back when the store refuses one storage's rows: the others are written
/// all the same, and the refused one is tried again until the store takes it.
@Suite("Cookie storages: one refused storage holds back no other")
struct CookieStoragesTests {
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

        try sqlite(database, "DROP TRIGGER refuse;")
        try await cookies.persistChanges()
        #expect(try await stored("refused") == ["refused"], "tried again at the next write")
    }
}
