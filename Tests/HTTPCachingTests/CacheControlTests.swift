import HTTPCaching
import Testing

@Suite("Cache-Control parsing (RFC 9111 §5.2)")
struct CacheControlTests {
    private func parse(_ values: String...) -> CacheControl {
        CacheControl(fields: values.map { (name: "Cache-Control", value: $0) })
    }

    @Test func readsEveryDirective() {
        let directives = parse(
            "max-age=60, s-maxage=120, min-fresh=5, max-stale=7, no-store, no-cache, must-revalidate, proxy-revalidate,"
                + " public, private, immutable, only-if-cached")
        #expect(directives.maxAge == 60 && directives.sMaxAge == 120)
        #expect(directives.minFresh == 5 && directives.maxStale == 7)
        #expect(directives.noStore && directives.noCache && directives.mustRevalidate && directives.proxyRevalidate)
        #expect(directives.isPublic && directives.isPrivate && directives.immutable && directives.onlyIfCached)
    }

    @Test func noFieldsMeansNoDirectives() {
        let directives = CacheControl(fields: [(name: "Pragma", value: "no-cache")])
        #expect(directives == CacheControl(fields: []))
        #expect(directives.maxAge == nil && !directives.noCache && !directives.noStore)
    }

    @Test func namesAreCaseInsensitiveInFieldsAndDirectives() {
        let directives = CacheControl(fields: [(name: "cache-CONTROL", value: "Max-Age=5, NO-CACHE, Public")])
        #expect(directives.maxAge == 5 && directives.noCache && directives.isPublic)
    }

    @Test func everyFieldCountsAndTheFirstValueWins() {
        let directives = parse("max-age=10", "max-age=20, no-store, min-fresh=1", "min-fresh=2")
        #expect(directives.maxAge == 10)
        #expect(directives.minFresh == 1)
        #expect(directives.noStore)
        #expect(parse("max-age=abc, max-age=30").maxAge == 0, "the first occurrence wins even when invalid")
    }

    @Test func quotedArgumentsMayHoldCommasAndEscapes() {
        let qualified = parse(#"no-cache="Set-Cookie, X-Trace", max-age=3"#)
        #expect(qualified.noCache && qualified.maxAge == 3, "the comma inside quotes does not end the directive")
        let escaped = parse(#"private="a\"b, c", max-age=4, public"#)
        #expect(escaped.isPrivate && escaped.maxAge == 4 && escaped.isPublic)
        #expect(parse(#"max-age="60""#).maxAge == 60, "the quoted form senders must not use is still read")
        #expect(parse(#"no-cache="unterminated, max-age=9"#).maxAge == nil, "an unterminated quote swallows the rest")
    }

    @Test(
        arguments: [
            ("max-age=abc", 0),
            ("max-age=-1", 0),
            ("max-age=", 0),
            ("max-age", 0),
            ("max-age=1.5", 0),
            ("max-age=+5", 0),
            ("max-age=99999999999999999999999", 2_147_483_648),
            ("max-age=3000000000", 2_147_483_648),
            ("max-age=0", 0),
            ("max-age = 7", 7),
        ])
    func invalidNumbersCountAsZeroAndHugeOnesAreCapped(value: String, expected: Int) {
        #expect(parse(value).maxAge == expected)
    }

    @Test func maxStaleWithoutAValueAcceptsAnyStaleness() {
        #expect(parse("max-stale").maxStale == Int.max)
        #expect(parse("max-stale=30").maxStale == 30)
        #expect(parse("max-stale=x").maxStale == 0)
        #expect(parse("min-fresh=x").minFresh == 0)
    }

    @Test func unknownDirectivesAndEmptyElementsAreIgnored() {
        let directives = parse(", ,community=\"UCI\", foo=bar, max-age=1,,")
        #expect(directives == parse("max-age=1"))
        #expect(parse("no-cache-please, public-ish") == CacheControl(fields: []))
    }
}
