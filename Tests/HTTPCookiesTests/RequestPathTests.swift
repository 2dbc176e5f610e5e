import Foundation
import HTTPCookies
import Testing

/// RFC 6265 §5.1.4: path-match and default-path work on the request-path, the path of the request-uri as
/// it is sent — percent-encoded, never decoded — against cookie paths compared as written.
@Suite("Request paths (RFC 6265 §5.1.4)")
struct RequestPathTests {
    let fixture = JarFixture(now: Date(timeIntervalSince1970: 2_000_000_000))

    func jar(_ headers: [String], from origin: String) throws -> CookieJar { try fixture.jar(headers, from: origin) }

    func header(_ jar: inout CookieJar, for target: String) throws -> String? { try fixture.header(&jar, for: target) }

    /// RFC 6265 §5.1.4 path-match: `Path=/a%20b` covers `/a%20b` and what is under it, and `/a b`, which
    /// is sent as `/a%20b`; neither a doubly encoded path nor a longer segment. A cookie path is not
    /// encoded either: `Path=/a b` never matches the `/a%20b` sent.
    @Test func anEncodedCookiePathMatchesTheEncodedRequestPath() throws {
        var jar = try jar(["a=1; Path=/a%20b"], from: "http://h.example.com/")
        #expect(try header(&jar, for: "http://h.example.com/a%20b") == "a=1")
        #expect(try header(&jar, for: "http://h.example.com/a%20b/c") == "a=1")
        #expect(try header(&jar, for: "http://h.example.com/a b/c") == "a=1")
        #expect(try header(&jar, for: "http://h.example.com/a%2520b/c") == nil)
        #expect(try header(&jar, for: "http://h.example.com/a%20bc") == nil)
        var spaced = try self.jar(["a=1; Path=/a b"], from: "http://h.example.com/")
        #expect(try header(&spaced, for: "http://h.example.com/a%20b/c") == nil)
    }

    /// RFC 6265 §5.1.4 default-path: the directory of the encoded request-path; an encoded slash (`%2F`)
    /// separates no segments.
    @Test func theDefaultPathIsTheEncodedDirectory() throws {
        #expect(try jar(["d=1"], from: "http://h.example.com/a%20b/c").all.first?.path == "/a%20b")
        #expect(try jar(["d=1"], from: "http://h.example.com/x%2Fy").all.first?.path == "/")
        var jar = try jar(["d=1"], from: "http://h.example.com/x%2Fy/z")
        #expect(jar.all.first?.path == "/x%2Fy")
        #expect(try header(&jar, for: "http://h.example.com/x%2Fy/w") == "d=1")
        #expect(try header(&jar, for: "http://h.example.com/x/y/w") == nil)
    }

    /// RFC 6265 §5.1.4: the request-path is the one libcurl puts in the request line: encodings as
    /// written, case kept; nothing else re-encoded; dot segments removed (`%2e` is no dot); each octet
    /// of a non-ASCII character escaped, in lowercase hex as libcurl does; no query, no fragment.
    @Test(
        arguments: [
            ("http://h.example.com/a%2fb/%7Ec", "/a%2fb/%7Ec"),
            ("http://h.example.com/a|b{c}^", "/a|b{c}^"),
            ("http://h.example.com/café/x", "/caf%c3%a9/x"),
            ("http://h.example.com/a/./b/../c", "/a/c"),
            ("http://h.example.com/a/b/..", "/a/"),
            ("http://h.example.com/../a/.", "/a/"),
            ("http://h.example.com/a/%2e%2e/b", "/a/%2e%2e/b"),
            ("http://h.example.com", "/"),
            ("http://h.example.com?q=/x", "/"),
            ("http://h.example.com/a/b?q=/x/../y#/z", "/a/b"),
            ("http://u:p@[::1]:8080/p/", "/p/"),
        ])
    func theRequestPathIsTheOneSent(url: String, path: String) {
        #expect(CookieURL(url)?.path == path, "\(url)")
    }

    /// RFC 6265 §5.1.4 on the path sent: a request to `/x/../docs/a` is a request to `/docs/a`.
    @Test func dotSegmentsDoNotHideACookiesPath() throws {
        var jar = try jar(["a=1; Path=/docs"], from: "http://h.example.com/")
        #expect(try header(&jar, for: "http://h.example.com/x/../docs/a") == "a=1")
        #expect(try header(&jar, for: "http://h.example.com/docs/../x") == nil)
    }
}
