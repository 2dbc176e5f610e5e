import Foundation
import HTTPCookies
import Testing

/// RFC 6265 §5.4 step 2: cookies with longer paths first; among equal path lengths, earlier creation-time
/// first. The cookies one response sets are created at one instant, yet in the order they come.
@Suite("Creation order (RFC 6265 §5.4 step 2)")
struct CreationOrderTests {
    let fixture = JarFixture(now: Date(timeIntervalSince1970: 2_000_000_000.000_4))
    var now: Date { fixture.now }

    func jar(_ headers: [String], from origin: String) throws -> CookieJar { try fixture.jar(headers, from: origin) }

    func header(_ jar: inout CookieJar, for target: String) throws -> String? { try fixture.header(&jar, for: target, later: 1) }

    /// RFC 6265 §5.4 step 2: a parent domain's cookie set first goes first; how specific a cookie's
    /// domain is plays no part in the order.
    @Test func oneResponsesCookiesGoInTheOrderTheyWereSetWhateverTheirDomains() throws {
        var jar = try jar(
            ["parent=1; Domain=example.com", "host=1", "zeta=1; Domain=h.example.com", "alpha=1"], from: "http://h.example.com/")
        #expect(try header(&jar, for: "http://h.example.com/") == "parent=1; host=1; zeta=1; alpha=1")
    }

    /// RFC 6265 §5.4 step 2, across a restart: each cookie of one response is created a millisecond after
    /// the one before, so the order survives the store (dates to the millisecond, rows in any order).
    @Test func theOrderSurvivesTheStoresMillisecondsAndRowOrder() throws {
        var jar = try jar(["c=1; Domain=example.com", "b=1", "a=1; Domain=example.com"], from: "http://h.example.com/")
        let cookies = jar.all
        let milliseconds = Set(cookies.map { ($0.creationDate.timeIntervalSince1970 * 1000).rounded() })
        #expect(milliseconds.count == cookies.count, "distinct to the millisecond")

        var reloaded = CookieJar(publicSuffixes: CookieJarTests.suffixes)
        for var cookie in cookies.reversed() {
            cookie.creationDate = Date(timeIntervalSince1970: (cookie.creationDate.timeIntervalSince1970 * 1000).rounded() / 1000)
            reloaded.store(cookie, now: now)
        }
        #expect(try header(&reloaded, for: "http://h.example.com/") == "c=1; b=1; a=1")
        #expect(try header(&jar, for: "http://h.example.com/") == "c=1; b=1; a=1")
        // A cookie set after the reload comes after them, though its clock reads the same instant.
        reloaded.store(try #require(SetCookie("z=1")), from: try #require(CookieURL("http://h.example.com/")), now: now)
        #expect(try header(&reloaded, for: "http://h.example.com/") == "c=1; b=1; a=1; z=1")
    }

    /// RFC 6265 §5.3 step 11.3 keeps a replaced cookie's creation-time, so its place in §5.4's order.
    @Test func aReplacedCookieKeepsItsPlace() throws {
        var jar = try jar(["first=1", "second=1"], from: "http://h.example.com/")
        jar.store(try #require(SetCookie("first=2")), from: try #require(CookieURL("http://h.example.com/")), now: now)
        #expect(try header(&jar, for: "http://h.example.com/") == "first=2; second=1")
    }

    /// Cookies given whole with one creation date (`setCookies` of the API) keep the order they were given in.
    @Test func cookiesGivenWholeWithOneDateKeepTheirOrder() throws {
        var jar = CookieJar(publicSuffixes: CookieJarTests.suffixes)
        for (name, domain) in [("m", "h.example.com"), ("k", "example.com"), ("x", "h.example.com")] {
            let cookie = Cookie(
                name: name, value: "1", domain: domain, isHostOnly: false, path: "/", expiresDate: nil, isSecure: false,
                isHTTPOnly: false, sameSitePolicy: nil, creationDate: now)
            jar.store(cookie, now: now)
        }
        #expect(try header(&jar, for: "http://h.example.com/") == "m=1; k=1; x=1")
    }
}
