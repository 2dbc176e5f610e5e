import Foundation
import TestSupport
import Testing

/// Keys longer than PostgreSQL's b-tree index holds (2704 bytes): the response of a long URL and a cookie
/// with a long name stay in memory, and the other rows of their storages are still written. On
/// PostgreSQL one such row failed the write of its whole batch — every storage in it — at every turn.
@Suite("Keys too long for the store")
struct StoreKeyLimitsTests {
    /// Letters and digits that do not compress (PostgreSQL compresses a long key that does, and takes it).
    static func noise(_ count: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<count).map { _ in alphabet.randomElement()! })
    }

    @Test(.timeLimit(.minutes(1)))
    func aLongURLsResponseAndALongNamedCookieStayInMemoryAndBlockNothing() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let long = URLCacheTests.url(origin, "long", ["cc": "max-age=600", "pad": Self.noise(3000)])
            let short = URLCacheTests.url(origin, "short", ["cc": "max-age=600"])
            for url in [long, short] {
                let task = try await URLCacheTests.fetch(api, session, url)
                #expect(task.statusCode == 200 && task.errorCode == nil, "\(task)")
            }
            for name in [Self.noise(3000), "kept"] {
                let cookie = CookiesRestartTests.persistentCookie(name)
                _ = try await CookiesTests.fetch(api, session, origin.url("/redirect/302?to=/echo&cookie=\(cookie)"))
            }
            // Every storage's changes are written now: one row the store cannot take failed them all.
            let flushed = try await api.post("/v1/sessions/\(session)/flush")
            #expect(flushed.status == 204, "\(flushed.text)")

            func storagePolicy(_ url: String) async throws -> String? {
                let query = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                return try await api.get("/v1/sessions/\(session)/cache/entry?url=\(query)").json()["storagePolicy"] as? String
            }
            #expect(try await storagePolicy(long) == "allowedInMemoryOnly")
            #expect(try await storagePolicy(short) == "allowed")
            let sent = try await CookiesTests.received(api, try await CookiesTests.fetch(api, session, origin.url("/cookies")))
            #expect(sent.count == 2 && sent["kept"] == "1", "both cookies are kept and sent: \(sent.keys.map(\.count))")
        }
    }
}
