import Foundation
import HTTPCookies
import Testing

@Suite("Set-Cookie parsing (RFC 6265 §5.2)")
struct SetCookieTests {
    @Test func readsEveryAttribute() throws {
        let header = try #require(
            SetCookie(
                " sid = a1b2 ; Expires=Wed, 21 Oct 2035 07:28:00 GMT; Max-Age=60; Domain=.Example.COM; Path=/app;"
                    + " Secure; HttpOnly; SameSite=Lax; Unknown=1"))
        #expect(header.name == "sid" && header.value == "a1b2")
        #expect(header.expires == Date(timeIntervalSince1970: 2_076_564_480))
        #expect(header.maxAge == 60)
        #expect(header.domain == "example.com")
        #expect(header.path == "/app")
        #expect(header.isSecure && header.isHTTPOnly)
        #expect(header.sameSite == "lax")
    }

    @Test func maxAgeWinsOverExpiresAndZeroExpiresAtOnce() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let both = try #require(SetCookie("a=b; Max-Age=10; Expires=Wed, 21 Oct 2035 07:28:00 GMT"))
        #expect(both.expiresDate(now: now) == now.addingTimeInterval(10))
        let gone = try #require(SetCookie("a=b; Max-Age=0"))
        #expect(gone.expiresDate(now: now) == .distantPast)
        let negative = try #require(SetCookie("a=b; max-age=-5"))
        #expect(negative.expiresDate(now: now) == .distantPast)
        #expect(try #require(SetCookie("a=b; Max-Age=1e3")).maxAge == nil, "not digits: ignored")
        #expect(try #require(SetCookie("a=b")).expiresDate(now: now) == nil, "a session cookie")
    }

    @Test func lifetimesAreCappedAt400Days() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let far = try #require(SetCookie("a=b; Max-Age=999999999"))
        #expect(far.expiresDate(now: now) == now.addingTimeInterval(400 * 86_400))
    }

    @Test func theLastOfAnAttributeWinsAndBadValuesAreIgnored() throws {
        let header = try #require(SetCookie("a=b; Path=/x; Path=/y; Domain=; Path=relative; SameSite=sometimes"))
        #expect(header.path == nil, "the last Path does not start with /: the default path applies")
        #expect(header.domain == nil)
        #expect(header.sameSite == nil)
    }

    @Test func aPairWithoutEqualsIsANamelessCookieAndEmptyIsNothing() throws {
        let nameless = try #require(SetCookie("justavalue; Path=/"))
        #expect(nameless.name == "" && nameless.value == "justavalue")
        #expect(SetCookie("") == nil)
        #expect(SetCookie("=; Path=/") == nil)
        #expect(try #require(SetCookie("a=")).value == "")
        #expect(try #require(SetCookie("a=b=c")).value == "b=c", "the first = splits")
    }

    /// RFC 6265bis §5.6 (§5.7 in later drafts) step 1: a control character (%x00-08 / %x0A-1F / %x7F)
    /// anywhere, in the name, the value or an attribute, ignores the set-cookie-string entirely.
    @Test(arguments: [0x00, 0x01, 0x08, 0x0A, 0x0D, 0x1F, 0x7F] as [UInt8])
    func aControlCharacterIgnoresTheWholeLine(byte: UInt8) {
        let control = String(UnicodeScalar(byte))
        #expect(SetCookie("a\(control)=b") == nil)
        #expect(SetCookie("a=b\(control)c") == nil)
        #expect(SetCookie("a=b; Path=/x\(control); Secure") == nil)
    }

    /// RFC 6265bis §5.6 step 1 spares the horizontal tab: it is white space, trimmed at the ends of a value.
    @Test func aTabIsNoControlCharacterForCookies() throws {
        #expect(try #require(SetCookie("a=\tb\tc\t;\tPath=/x")).value == "b\tc")
        #expect(try #require(SetCookie("a=b;\tPath=/x\t")).path == "/x")
    }

    /// RFC 6265bis §5.6 (§5.7 in later drafts) step 5: a name and value of more than 4096 octets, counted
    /// after trimming, ignore the set-cookie-string entirely.
    @Test func aNameAndValueOfMoreThan4096OctetsIgnoreTheCookie() throws {
        #expect(SetCookie("n=" + String(repeating: "v", count: 4095)) != nil)
        #expect(SetCookie("n=" + String(repeating: "v", count: 4095) + "  ; Path=/") != nil, "white space is not counted")
        #expect(SetCookie("n=" + String(repeating: "v", count: 4096)) == nil)
        #expect(SetCookie(String(repeating: "n", count: 4097) + "=") == nil)
        #expect(SetCookie(String(repeating: "é", count: 2_048)) != nil, "octets: 2,048 two-octet characters are 4096")
        #expect(SetCookie(String(repeating: "é", count: 2_048) + "x") == nil)
    }

    /// RFC 6265bis §5.6 (§5.7 in later drafts): an attribute-value of more than 1024 octets ignores that
    /// cookie-av only; the cookie and its other attributes stay, and an earlier Path still stands.
    @Test func anAttributeValueOfMoreThan1024OctetsIsIgnoredAlone() throws {
        let longPath = "/" + String(repeating: "p", count: 1_024)
        let header = try #require(SetCookie("a=b; Path=/kept; Path=\(longPath); Secure; Domain=example.com"))
        #expect(header.path == "/kept")
        #expect(header.isSecure && header.domain == "example.com")
        let longDomain = String(repeating: "d", count: 1_021) + ".com"
        #expect(try #require(SetCookie("a=b; Domain=\(longDomain)")).domain == nil)
        #expect(try #require(SetCookie("a=b; Max-Age=60; Max-Age=\(String(repeating: "0", count: 1_025))")).maxAge == 60)
        let edge = "/" + String(repeating: "p", count: 1_023)
        #expect(try #require(SetCookie("a=b; Path=\(edge)")).path == edge, "1024 octets exactly are kept")
    }

    @Test(
        arguments: [
            ("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_480.0),
            ("Wednesday, 21-Oct-15 07:28:00 GMT", 1_445_412_480),
            ("Wed Oct 21 07:28:00 2015", 1_445_412_480),
            ("21 oct 2015 7:28:0", 1_445_412_480),
            ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ] as [(String, Double)])
    func readsTheDatesServersSend(text: String, seconds: Double) {
        #expect(CookieDate.parse(text) == Date(timeIntervalSince1970: seconds), "\(text)")
    }

    @Test(arguments: ["", "Wed, 31 Feb 2015 07:28:00 GMT", "Wed, 21 Oct 2015 25:28:00 GMT", "21 Oct 2015", "tomorrow"])
    func refusesDatesThatAreNot(text: String) {
        #expect(CookieDate.parse(text) == nil, "\(text)")
    }
}
