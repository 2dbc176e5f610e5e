import Foundation
import HTTPCookies
import Testing

/// The storage and sending rules, on a jar with Debian's public suffix list.
@Suite("CookieJar (RFC 6265 §5.3, §5.4)")
struct CookieJarTests {
    static let suffixes = PublicSuffixList(text: "com\nuk\nco.uk\n*.ck\n!www.ck\ngithub.io\n")
    let now = Date(timeIntervalSince1970: 2_000_000_000)

    func url(_ text: String) throws -> CookieURL { try #require(CookieURL(text)) }

    func set(_ header: String) throws -> SetCookie { try #require(SetCookie(header)) }

    /// Stores each header as a response from `from` would set it.
    func jar(_ headers: [String], from: String) throws -> CookieJar {
        var jar = CookieJar(publicSuffixes: Self.suffixes)
        for header in headers { jar.store(try set(header), from: try url(from), now: now) }
        return jar
    }

    func header(_ jar: inout CookieJar, for target: String, at date: Date? = nil) throws -> String? {
        CookieJar.header(for: jar.cookies(for: try url(target), now: date ?? now))
    }

    @Test func aJarIsEmptyUntilACookieIsStoredAndOnceTheLastGoes() throws {
        var jar = CookieJar(publicSuffixes: Self.suffixes)
        #expect(jar.isEmpty)
        jar = try self.jar(["a=1", "b=2"], from: "http://shop.example.com/")
        #expect(!jar.isEmpty)
        for cookie in jar.all {
            let removed = jar.remove(cookie.identity)
            #expect(removed)
        }
        #expect(jar.isEmpty, "a domain whose cookies all went holds none")
    }

    @Test func aHostOnlyCookieGoesToItsHostOnly() throws {
        var jar = try jar(["a=1"], from: "http://shop.example.com/")
        #expect(try header(&jar, for: "http://shop.example.com/cart") == "a=1")
        #expect(try header(&jar, for: "http://sub.shop.example.com/") == nil)
        #expect(try header(&jar, for: "http://example.com/") == nil)
    }

    @Test func aDomainCookieGoesToItsSubdomains() throws {
        var jar = try jar(["a=1; Domain=example.com"], from: "http://shop.example.com/")
        #expect(try header(&jar, for: "http://example.com/") == "a=1")
        #expect(try header(&jar, for: "http://deep.shop.example.com/") == "a=1")
        #expect(try header(&jar, for: "http://notexample.com/") == nil)
    }

    @Test func aDomainTheHostIsNotUnderIsRefused() throws {
        let jar = try jar(["a=1; Domain=other.com", "b=2; Domain=shop.example.com.evil"], from: "http://shop.example.com/")
        #expect(jar.count == 0)
    }

    @Test func noCookieForAPublicSuffix() throws {
        var jar = try jar(["a=1; Domain=co.uk", "b=2; Domain=uk", "c=3; Domain=anything.ck"], from: "http://www.bbc.co.uk/")
        #expect(jar.count == 0)
        jar = try self.jar(["d=4; Domain=www.ck"], from: "http://a.www.ck/")
        #expect(jar.count == 1, "an exception rule: www.ck is registrable")
        // A public suffix may set a cookie for itself, host-only.
        var own = try self.jar(["e=5; Domain=github.io"], from: "https://github.io/")
        #expect(try header(&own, for: "https://github.io/") == "e=5")
        #expect(try header(&own, for: "https://user.github.io/") == nil)
    }

    @Test func pathsMatchAtSlashBoundaries() throws {
        var jar = try jar(["a=1; Path=/docs", "b=2"], from: "http://h.example.com/docs/guide/page")
        #expect(try header(&jar, for: "http://h.example.com/docs") == "a=1")
        #expect(try header(&jar, for: "http://h.example.com/docs/x") == "a=1")
        #expect(try header(&jar, for: "http://h.example.com/docsearch") == nil)
        // b's default path is the directory of the request path.
        #expect(try header(&jar, for: "http://h.example.com/docs/guide/other") == "b=2; a=1")
        #expect(try header(&jar, for: "http://h.example.com/") == nil)
    }

    @Test func theHeaderListsLongerPathsFirstThenOlderCookies() throws {
        var jar = CookieJar(publicSuffixes: Self.suffixes)
        let origin = try url("http://h.example.com/a/b/c")
        jar.store(try set("zeta=1; Path=/"), from: origin, now: now)
        jar.store(try set("alpha=1; Path=/"), from: origin, now: now.addingTimeInterval(2))
        jar.store(try set("deep=1; Path=/a/b"), from: origin, now: now.addingTimeInterval(5))
        #expect(try header(&jar, for: "http://h.example.com/a/b/c", at: now.addingTimeInterval(10)) == "deep=1; zeta=1; alpha=1")
    }

    @Test func secureCookiesNeedHTTPSToBeSetAndSent() throws {
        #expect(try jar(["a=1; Secure"], from: "http://h.example.com/").count == 0, "not from an insecure origin")
        var jar = try jar(["a=1; Secure"], from: "https://h.example.com/")
        #expect(try header(&jar, for: "http://h.example.com/") == nil)
        #expect(try header(&jar, for: "https://h.example.com/") == "a=1")
        // An insecure origin cannot overwrite it either.
        jar.store(try set("a=2"), from: try url("http://h.example.com/"), now: now)
        #expect(try header(&jar, for: "https://h.example.com/") == "a=1")
    }

    @Test func prefixesAreEnforced() throws {
        #expect(try jar(["__Secure-a=1"], from: "https://h.example.com/").count == 0)
        #expect(try jar(["__Secure-a=1; Secure"], from: "https://h.example.com/").count == 1)
        #expect(try jar(["__Host-a=1; Secure; Path=/; Domain=example.com"], from: "https://h.example.com/").count == 0)
        #expect(try jar(["__Host-a=1; Secure"], from: "https://h.example.com/x/y").count == 0, "no Path=/")
        #expect(try jar(["__Host-a=1; Secure; Path=/"], from: "https://h.example.com/x/y").count == 1)
    }

    @Test func aNewerCookieReplacesTheOldOneAndKeepsItsCreationDate() throws {
        var jar = CookieJar(publicSuffixes: Self.suffixes)
        let origin = try url("http://h.example.com/")
        jar.store(try set("a=1; HttpOnly"), from: origin, now: now)
        let later = now.addingTimeInterval(30)
        let stored = jar.store(try set("a=2"), from: origin, now: later)
        let replaced = try #require(stored)
        #expect(jar.count == 1)
        #expect(replaced.value == "2" && !replaced.isHTTPOnly && replaced.creationDate == now)
        // Another path is another cookie.
        jar.store(try set("a=3; Path=/x"), from: origin, now: later)
        #expect(jar.count == 2)
    }

    @Test func expiredCookiesAreRemovedAndNeverSent() throws {
        var jar = try jar(["a=1; Max-Age=60", "b=2"], from: "http://h.example.com/")
        #expect(try header(&jar, for: "http://h.example.com/", at: now.addingTimeInterval(61)) == "b=2")
        jar.store(try set("b=x; Max-Age=0"), from: try url("http://h.example.com/"), now: now)
        #expect(jar.all.map(\.name) == ["a"], "Max-Age=0 deletes b")
        jar.removeExpired(now: now.addingTimeInterval(61))
        #expect(jar.count == 0)
    }

    @Test func keepsHTTPOnlyAndSameSiteForTheAPI() throws {
        let jar = try jar(["a=1; HttpOnly; SameSite=Strict"], from: "http://h.example.com/")
        let cookie = try #require(jar.all.first)
        #expect(cookie.isHTTPOnly && cookie.sameSitePolicy == "strict" && cookie.isSessionOnly && cookie.isHostOnly)
        #expect(cookie.domain == "h.example.com" && cookie.path == "/")
    }

    @Test func anIPAddressGetsHostOnlyCookies() throws {
        var jar = try jar(["a=1", "b=2; Domain=0.0.1"], from: "http://127.0.0.1/")
        #expect(try header(&jar, for: "http://127.0.0.1/") == "a=1")
    }

    @Test func removesSinceADateAndOneByIdentity() throws {
        var jar = CookieJar(publicSuffixes: Self.suffixes)
        let origin = try url("http://h.example.com/")
        jar.store(try set("old=1"), from: origin, now: now)
        jar.store(try set("new=1"), from: origin, now: now.addingTimeInterval(100))
        jar.store(try set("session=1"), from: origin, now: now.addingTimeInterval(200))
        jar.remove(since: now.addingTimeInterval(150))
        #expect(jar.all.map(\.name) == ["new", "old"])
        let removed = jar.remove(Cookie.Identity(name: "old", domain: "h.example.com", path: "/"))
        #expect(removed)
        #expect(jar.all.map(\.name) == ["new"])
    }

    @Test func theLimitsEvictTheLeastRecentlyUsed() throws {
        var jar = CookieJar(publicSuffixes: Self.suffixes)
        let origin = try url("http://h.example.com/")
        for index in 0..<(CookieJar.maximumPerDomain + 5) {
            jar.store(try set("c\(index)=1"), from: origin, now: now.addingTimeInterval(Double(index)))
        }
        #expect(jar.count == CookieJar.maximumPerDomain)
        #expect(!jar.all.contains { $0.name == "c0" } && jar.all.contains { $0.name == "c5" })
    }

    @Test func registrableDomainsAreOneLabelPastThePublicSuffix() {
        #expect(Self.suffixes.registrableDomain(of: "www.bbc.co.uk") == "bbc.co.uk")
        #expect(Self.suffixes.registrableDomain(of: "a.b.example.com") == "example.com")
        #expect(Self.suffixes.registrableDomain(of: "user.github.io") == "user.github.io")
        #expect(Self.suffixes.registrableDomain(of: "co.uk") == "co.uk")
        #expect(Self.suffixes.registrableDomain(of: "127.0.0.1") == "127.0.0.1")
    }

    @Test func debiansListIsReadAndKnowsCoUK() throws {
        let list = try #require(PublicSuffixList(), "Debian's publicsuffix package (make deps installs it)")
        #expect(list.isPublicSuffix("co.uk") && list.isPublicSuffix("com") && list.isPublicSuffix("github.io"))
        #expect(!list.isPublicSuffix("bbc.co.uk") && !list.isPublicSuffix("example.com"))
    }
}
