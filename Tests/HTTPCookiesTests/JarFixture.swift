import Foundation
import HTTPCookies
import Testing

/// A jar filled from `Set-Cookie` lines as one origin sends them at `now`, and the `Cookie` header it then
/// makes for a request: the two steps the rule suites repeat.
struct JarFixture {
    let now: Date

    func jar(_ headers: [String], from origin: String) throws -> CookieJar {
        var jar = CookieJar(publicSuffixes: CookieJarTests.suffixes)
        let url = try #require(CookieURL(origin))
        for header in headers { jar.store(try #require(SetCookie(header)), from: url, now: now) }
        return jar
    }

    /// The header for `target`, `later` seconds after the cookies were stored.
    func header(_ jar: inout CookieJar, for target: String, later: TimeInterval = 0) throws -> String? {
        CookieJar.header(for: jar.cookies(for: try #require(CookieURL(target)), now: now.addingTimeInterval(later)))
    }
}
