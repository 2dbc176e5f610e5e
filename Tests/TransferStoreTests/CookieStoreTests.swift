import Foundation
import TestSupport
import Testing
import TransferStore

@Suite("Cookie rows (SQLite, or PostgreSQL under make test-postgres)")
struct CookieStoreTests {
    /// RFC 6265 §5.4 step 2 orders cookies of equal path lengths by creation-time. The jar creates the
    /// cookies of one response a millisecond apart, so the rows must keep milliseconds for the order to
    /// survive a restart (the rows come back in no particular order).
    @Test func rowsKeepCreationTimesToTheMillisecond() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let created = Date(timeIntervalSince1970: 2_000_000_000)
        let rows = (0..<3).map { index in
            CookieRecord(
                storage: "tenant t1", sessionId: nil, name: "c\(index)", domain: "h.example.com", path: "/", value: "1",
                isHostOnly: true, expiresAt: created.addingTimeInterval(3_600), isSecure: false, isHTTPOnly: false,
                sameSite: nil, createdAt: created.addingTimeInterval(Double(index) / 1_000), lastAccessAt: created)
        }
        try await store.cookies.replaceCookies(["tenant t1": rows])
        let read = try await store.cookies.cookies(inStorage: "tenant t1", now: created)
        let milliseconds = read.sorted { $0.name < $1.name }.map { ($0.createdAt.timeIntervalSince1970 * 1_000).rounded() }
        #expect(milliseconds == [2_000_000_000_000, 2_000_000_000_001, 2_000_000_000_002])
        try store.close()
    }
}
