import Foundation
import HTTPCaching
import Testing

@Suite("Lookup decisions per cache mode (RFC 9111 §4, URLSession policies)")
struct LookupTests {
    /// Fresh for 100 s from the moment it was sent, with an ETag to revalidate it.
    private static let cached = Fixture.response([("Date", Fixture.date(0)), ("Cache-Control", "max-age=100"), ("ETag", #""v1""#)])
    private static let revalidate = CacheLookup.validate([("If-None-Match", #""v1""#)])
    private static let fresh = Fixture.at(10)
    /// Age 200: stale by 100 s.
    private static let stale = Fixture.at(200)

    private func lookup(
        _ mode: CacheMode = .useProtocolCachePolicy, stored: StoredResponse? = cached, request: HTTPFields = [], now: Date = fresh
    ) -> CacheLookup {
        HTTPCacheRules.lookup(mode, stored: stored, requestFields: request, now: now)
    }

    @Test(
        arguments: [
            (CacheMode.useProtocolCachePolicy, CacheLookup.load),
            (.reloadIgnoringLocalCacheData, .load),
            (.reloadIgnoringLocalAndRemoteCacheData, .load),
            (.returnCacheDataElseLoad, .load),
            (.returnCacheDataDontLoad, .fail),
            (.reloadRevalidatingCacheData, .load),
        ])
    func withNothingStored(mode: CacheMode, expected: CacheLookup) {
        #expect(lookup(mode, stored: nil) == expected)
    }

    @Test(
        arguments: [
            (CacheMode.useProtocolCachePolicy, CacheLookup.load),
            (.reloadIgnoringLocalCacheData, .load),
            (.reloadIgnoringLocalAndRemoteCacheData, .load),
            (.returnCacheDataElseLoad, .load),
            (.returnCacheDataDontLoad, .fail),
            (.reloadRevalidatingCacheData, .load),
        ])
    func aVaryMismatchCountsAsNothingStored(mode: CacheMode, expected: CacheLookup) {
        let varying = Fixture.response(
            [("Cache-Control", "max-age=100"), ("ETag", "e"), ("Vary", "Accept-Language")], varyValues: ["accept-language": "en"])
        #expect(lookup(mode, stored: varying, request: [("Accept-Language", "fr")]) == expected)
        #expect(lookup(.returnCacheDataDontLoad, stored: varying, request: [("Accept-Language", "en")]) == .useStored)
    }

    @Test(
        arguments: [
            (CacheMode.useProtocolCachePolicy, CacheLookup.useStored),
            (.reloadIgnoringLocalCacheData, .load),
            (.reloadIgnoringLocalAndRemoteCacheData, .load),
            (.returnCacheDataElseLoad, .useStored),
            (.returnCacheDataDontLoad, .useStored),
            (.reloadRevalidatingCacheData, revalidate),
        ])
    func aFreshResponse(mode: CacheMode, expected: CacheLookup) {
        #expect(lookup(mode, now: Self.fresh) == expected)
    }

    @Test(
        arguments: [
            (CacheMode.useProtocolCachePolicy, CacheLookup.validate([("If-None-Match", #""v1""#)])),
            (.reloadIgnoringLocalCacheData, .load),
            (.reloadIgnoringLocalAndRemoteCacheData, .load),
            (.returnCacheDataElseLoad, .useStored),
            (.returnCacheDataDontLoad, .useStored),
            (.reloadRevalidatingCacheData, .validate([("If-None-Match", #""v1""#)])),
        ])
    func aStaleResponse(mode: CacheMode, expected: CacheLookup) {
        #expect(lookup(mode, now: Self.stale) == expected)
    }

    @Test(
        arguments: [
            (CacheMode.useProtocolCachePolicy, CacheLookup.load),
            (.reloadIgnoringLocalCacheData, .load),
            (.reloadIgnoringLocalAndRemoteCacheData, .load),
            (.returnCacheDataElseLoad, .useStored),
            (.returnCacheDataDontLoad, .useStored),
            (.reloadRevalidatingCacheData, .load),
        ])
    func aStaleResponseWithoutValidators(mode: CacheMode, expected: CacheLookup) {
        let bare = Fixture.response([("Cache-Control", "max-age=100")])
        #expect(lookup(mode, stored: bare, now: Self.stale) == expected)
    }

    @Test func exactlyAtTheLifetimeIsStale() {
        #expect(lookup(now: Fixture.at(100)) == Self.revalidate)
        #expect(lookup(now: Fixture.at(99)) == .useStored)
    }

    @Test func noCacheInTheResponseAlwaysRevalidates() {
        let noCache = Fixture.response([("Cache-Control", #"max-age=100, no-cache="Set-Cookie""#), ("Last-Modified", Fixture.date(-9))])
        #expect(lookup(stored: noCache) == .validate([("If-Modified-Since", Fixture.date(-9))]))
        #expect(lookup(.returnCacheDataElseLoad, stored: noCache, now: Self.stale) == .useStored, "however old")
    }

    @Test func noCacheInTheRequestRevalidates() {
        #expect(lookup(request: [("Cache-Control", "no-cache")]) == Self.revalidate)
        #expect(lookup(request: [("Pragma", "no-cache")]) == Self.revalidate)
        #expect(lookup(request: [("Pragma", "no-cache"), ("Cache-Control", "max-stale")]) == .useStored, "Cache-Control wins")
        #expect(lookup(.returnCacheDataDontLoad, request: [("Cache-Control", "no-cache")]) == .useStored)
    }

    @Test func maxStaleAcceptsThatMuchStaleness() {
        #expect(lookup(request: [("Cache-Control", "max-stale=150")], now: Self.stale) == .useStored)
        #expect(lookup(request: [("Cache-Control", "max-stale=100")], now: Self.stale) == .useStored, "stale by exactly 100")
        #expect(lookup(request: [("Cache-Control", "max-stale=50")], now: Self.stale) == Self.revalidate)
        #expect(lookup(request: [("Cache-Control", "max-stale")], now: Fixture.at(1_000_000)) == .useStored)
    }

    @Test func mustRevalidateOverridesMaxStale() {
        let strict = Fixture.response([("Cache-Control", "max-age=100, must-revalidate"), ("ETag", #""v1""#)])
        #expect(lookup(stored: strict, request: [("Cache-Control", "max-stale")], now: Self.stale) == Self.revalidate)
        #expect(lookup(stored: strict, request: [("Cache-Control", "max-stale")], now: Self.fresh) == .useStored)
    }

    @Test func minFreshNeedsThatMuchFreshnessLeft() {
        #expect(lookup(request: [("Cache-Control", "min-fresh=50")]) == .useStored, "90 s left")
        #expect(lookup(request: [("Cache-Control", "min-fresh=95")]) == Self.revalidate)
        #expect(lookup(request: [("Cache-Control", "min-fresh=10, max-stale")], now: Self.stale) == Self.revalidate)
    }

    @Test func requestMaxAgeLimitsTheAge() {
        #expect(lookup(request: [("Cache-Control", "max-age=5")]) == Self.revalidate, "age 10")
        #expect(lookup(request: [("Cache-Control", "max-age=20")]) == .useStored)
        #expect(lookup(request: [("Cache-Control", "max-age=0")]) == Self.revalidate)
    }

    @Test func onlyIfCachedNeverContactsTheOrigin() {
        let onlyIfCached: HTTPFields = [("Cache-Control", "only-if-cached")]
        #expect(lookup(request: onlyIfCached, now: Self.fresh) == .useStored)
        #expect(lookup(request: onlyIfCached, now: Self.stale) == .fail)
        #expect(lookup(stored: nil, request: onlyIfCached) == .fail)
        #expect(lookup(request: [("Cache-Control", "only-if-cached, max-stale")], now: Self.stale) == .useStored)
        #expect(lookup(request: onlyIfCached + [("If-None-Match", "x")]) == .fail)
    }

    @Test(arguments: ["If-None-Match", "if-modified-since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"])
    func aRequestWithItsOwnConditionsPassesThrough(name: String) {
        let request: HTTPFields = [(name, "x")]
        #expect(lookup(request: request) == .load)
        #expect(lookup(.returnCacheDataElseLoad, request: request) == .load)
        #expect(lookup(.reloadRevalidatingCacheData, request: request) == .load)
        #expect(lookup(.returnCacheDataDontLoad, request: request) == .fail)
    }

    @Test func heuristicFreshnessServesFromTheCache() {
        let heuristic = Fixture.response([("Date", Fixture.date(0)), ("Last-Modified", Fixture.date(-10_000))])
        #expect(lookup(stored: heuristic, now: Fixture.at(999)) == .useStored)
        #expect(lookup(stored: heuristic, now: Fixture.at(1000)) == .validate([("If-Modified-Since", Fixture.date(-10_000))]))
    }

    @Test func reloadFieldsAskIntermediariesNotToAnswerFromTheirCaches() {
        #expect(Fixture.same(HTTPCacheRules.reloadFields, [("Cache-Control", "no-cache"), ("Pragma", "no-cache")]))
    }

    @Test func lookupsCompareByTheirFields() {
        #expect(CacheLookup.validate([("A", "1")]) == .validate([("A", "1")]))
        #expect(CacheLookup.validate([("A", "1")]) != .validate([("A", "2")]))
        #expect(CacheLookup.validate([("A", "1")]) != .validate([("A", "1"), ("B", "2")]))
        #expect(CacheLookup.validate([]) != .load)
        #expect(CacheLookup.useStored != .fail)
        #expect(CacheMode.allCases.count == 6)
        #expect(CacheMode(rawValue: "returnCacheDataDontLoad") == .returnCacheDataDontLoad)
    }

    /// RFC 5861 §3: stale by 100 s and within a 300 s `stale-while-revalidate` window, the response is served and
    /// revalidated in the background; past the window, or where reuse without validation is forbidden, it is
    /// validated first as any stale response.
    @Test func staleWhileRevalidateServesWithinItsWindow() {
        let swr = Fixture.response([
            ("Date", Fixture.date(0)), ("Cache-Control", "max-age=100, stale-while-revalidate=300"), ("ETag", #""v1""#),
        ])
        #expect(lookup(stored: swr, now: Self.stale) == .useStoredAndRevalidate([("If-None-Match", #""v1""#)]))
        #expect(lookup(stored: swr, now: Self.fresh) == .useStored, "fresh: no revalidation")
        #expect(lookup(stored: swr, now: Fixture.at(450)) == Self.revalidate, "past the window")
        #expect(lookup(stored: swr, request: [("Cache-Control", "no-cache")], now: Self.stale) == Self.revalidate)
        #expect(lookup(stored: swr, request: [("Cache-Control", "max-age=150")], now: Self.stale) == Self.revalidate)
        #expect(lookup(stored: swr, request: [("Cache-Control", "only-if-cached")], now: Self.stale) == .fail)
        #expect(lookup(.reloadRevalidatingCacheData, stored: swr, now: Self.stale) == Self.revalidate)
        let mustRevalidate = Fixture.response([
            ("Date", Fixture.date(0)), ("Cache-Control", "max-age=100, stale-while-revalidate=300, must-revalidate"),
            ("ETag", #""v1""#),
        ])
        #expect(lookup(stored: mustRevalidate, now: Self.stale) == Self.revalidate, "must-revalidate (RFC 9111 §5.2.2.2)")
        let noValidator = Fixture.response([("Date", Fixture.date(0)), ("Cache-Control", "max-age=100, stale-while-revalidate=300")])
        #expect(lookup(stored: noValidator, now: Self.stale) == .useStoredAndRevalidate([]), "revalidated by a plain load")
    }
}
