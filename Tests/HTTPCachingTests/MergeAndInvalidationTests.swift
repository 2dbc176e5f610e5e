import HTTPCaching
import Testing

@Suite("Validators, 304 merging and invalidation (RFC 9111 §3.2, §4.3, §4.4)")
struct MergeAndInvalidationTests {
    @Test func validatorsComeFromETagAndLastModified() {
        let both = Fixture.response([("ETag", #""v1""#), ("Last-Modified", Fixture.date(-60))])
        #expect(
            Fixture.same(
                HTTPCacheRules.validators(for: both), [("If-None-Match", #""v1""#), ("If-Modified-Since", Fixture.date(-60))]))
        let etagOnly = Fixture.response([("etag", #"W/"x""#)])
        #expect(Fixture.same(HTTPCacheRules.validators(for: etagOnly), [("If-None-Match", #"W/"x""#)]))
        let dateOnly = Fixture.response([("Last-Modified", Fixture.date(-5))])
        #expect(Fixture.same(HTTPCacheRules.validators(for: dateOnly), [("If-Modified-Since", Fixture.date(-5))]))
        #expect(HTTPCacheRules.validators(for: Fixture.response([("Date", Fixture.date(0))])).isEmpty)
    }

    @Test func aNotModifiedReplacesFieldsInPlaceAndAppendsNewOnes() {
        let stored: HTTPFields = [("Date", "old"), ("X-A", "1"), ("Cache-Control", "max-age=1"), ("x-a", "2"), ("ETag", "e")]
        let notModified: HTTPFields = [("date", "new"), ("X-A", "3"), ("X-A", "4"), ("Expires", "later")]
        let merged = HTTPCacheRules.merge(stored, withNotModified: notModified)
        let expected: HTTPFields = [
            ("date", "new"), ("X-A", "3"), ("X-A", "4"), ("Cache-Control", "max-age=1"), ("ETag", "e"), ("Expires", "later"),
        ]
        #expect(Fixture.same(merged, expected))
    }

    @Test func bodyFramingAndHopByHopFieldsAreNeverUpdated() {
        let stored: HTTPFields = [("Content-Length", "10"), ("Content-Encoding", "gzip"), ("ETag", "a")]
        let notModified: HTTPFields = [
            ("Content-Length", "0"), ("Content-Encoding", "br"), ("Content-Range", "bytes 0-1/2"), ("Transfer-Encoding", "chunked"),
            ("Connection", "keep-alive, X-Trace"), ("Keep-Alive", "timeout=5"), ("Proxy-Connection", "close"), ("TE", "trailers"),
            ("Upgrade", "h2c"), ("X-Trace", "abc"), ("ETag", "b"),
        ]
        let merged = HTTPCacheRules.merge(stored, withNotModified: notModified)
        #expect(Fixture.same(merged, [("Content-Length", "10"), ("Content-Encoding", "gzip"), ("ETag", "b")]))
    }

    @Test func storableFieldsDropHopByHopOnes() {
        let fields: HTTPFields = [
            ("Content-Type", "text/plain"), ("Connection", "close, X-Hop"), ("x-hop", "1"), ("Keep-Alive", "timeout=5"),
            ("Transfer-Encoding", "chunked"), ("TE", "trailers"), ("Upgrade", "h2c"), ("Proxy-Connection", "close"),
            ("Content-Length", "3"),
        ]
        #expect(Fixture.same(HTTPCacheRules.storableFields(fields), [("Content-Type", "text/plain"), ("Content-Length", "3")]))
    }

    @Test func anUnsafeRequestInvalidatesItsTargetAndSameOriginLocations() {
        let urls = HTTPCacheRules.invalidatedURLs(
            method: "POST", statusCode: 201, url: "https://Example.com:443/items?page=1#top",
            responseFields: [("Location", "/items/7"), ("Content-Location", "https://example.com/items/7/view")])
        #expect(urls == ["https://example.com/items?page=1", "https://example.com/items/7", "https://example.com/items/7/view"])
    }

    @Test func locationsResolveAgainstTheTarget() {
        let urls = HTTPCacheRules.invalidatedURLs(
            method: "PUT", statusCode: 303, url: "http://example.com/a/b/c",
            responseFields: [("Location", "../d"), ("Content-Location", "e?x=1")])
        #expect(urls == ["http://example.com/a/b/c", "http://example.com/a/d", "http://example.com/a/b/e?x=1"])
    }

    @Test func otherOriginsAreLeftAlone() {
        let urls = HTTPCacheRules.invalidatedURLs(
            method: "DELETE", statusCode: 204, url: "https://example.com/x",
            responseFields: [
                ("Location", "//other.example/x"), ("Content-Location", "http://example.com/x"),
            ])
        #expect(urls == ["https://example.com/x"])
        let port = HTTPCacheRules.invalidatedURLs(
            method: "PATCH", statusCode: 200, url: "https://example.com/x", responseFields: [("Location", "https://example.com:8443/x")])
        #expect(port == ["https://example.com/x"])
        let duplicate = HTTPCacheRules.invalidatedURLs(
            method: "POST", statusCode: 200, url: "https://example.com/x", responseFields: [("Location", "/x#frag")])
        #expect(duplicate == ["https://example.com/x"], "each key once")
    }

    @Test func safeMethodsAndErrorsInvalidateNothing() {
        let location: HTTPFields = [("Location", "/y")]
        for method in ["GET", "HEAD", "OPTIONS", "TRACE"] {
            #expect(
                HTTPCacheRules.invalidatedURLs(method: method, statusCode: 200, url: "https://e.com/", responseFields: location).isEmpty)
        }
        for status in [100, 404, 500] {
            #expect(
                HTTPCacheRules.invalidatedURLs(method: "POST", statusCode: status, url: "https://e.com/", responseFields: location).isEmpty)
        }
        #expect(HTTPCacheRules.invalidatedURLs(method: "POST", statusCode: 200, url: "ftp://e.com/", responseFields: []).isEmpty)
    }

    @Test(
        arguments: [
            ("HTTP://Example.COM:80/Path?Q=A#frag", "http://example.com/Path?Q=A"),
            ("https://example.com", "https://example.com/"),
            ("https://example.com?q", "https://example.com/?q"),
            ("https://example.com:443", "https://example.com/"),
            ("https://example.com:80/", "https://example.com:80/"),
            ("http://example.com:443/", "http://example.com:443/"),
            ("http://example.com:/a", "http://example.com/a"),
            ("http://example.com:0080/a", "http://example.com/a"),
            ("http://User:Pw@Example.com/", "http://User:Pw@example.com/"),
            ("http://[::1]:8080/a", "http://[::1]:8080/a"),
            ("http://[FE80::1]/", "http://[fe80::1]/"),
        ])
    func cacheKeysAreNormalised(url: String, key: String) {
        #expect(HTTPCacheRules.cacheKey(of: url) == key)
    }

    @Test(arguments: [
        "/relative", "ftp://example.com/", "https:/example.com", "https://", "https://:80/", "http://e.com:x/", "http://e .com/",
    ])
    func nonAbsoluteHTTPURLsHaveNoKey(url: String) {
        #expect(HTTPCacheRules.cacheKey(of: url) == nil)
    }
}
