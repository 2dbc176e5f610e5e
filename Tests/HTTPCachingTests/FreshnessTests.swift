import Foundation
import HTTPCaching
import Testing

@Suite("Freshness lifetime and age (RFC 9111 §4.2)")
struct FreshnessTests {
    private func lifetime(_ fields: HTTPFields, status: Int = 200, responseTime: TimeInterval = 0) -> TimeInterval {
        HTTPCacheRules.freshnessLifetime(of: Fixture.response(fields, status: status, responseTime: responseTime))
    }

    @Test func maxAgeWinsOverExpires() {
        #expect(lifetime([("Cache-Control", "max-age=60"), ("Date", Fixture.date(0)), ("Expires", Fixture.date(3600))]) == 60)
        #expect(lifetime([("Cache-Control", "max-age=oops"), ("Expires", Fixture.date(3600))]) == 0, "invalid max-age is stale")
    }

    @Test func sMaxAgeIsIgnoredByAPrivateCache() {
        #expect(lifetime([("Cache-Control", "s-maxage=600")]) == 0)
        #expect(lifetime([("Cache-Control", "s-maxage=600, max-age=5")]) == 5)
    }

    @Test func expiresCountsFromTheDateField() {
        #expect(lifetime([("Date", Fixture.date(0)), ("Expires", Fixture.date(3600))], responseTime: 50) == 3600)
    }

    @Test func expiresCountsFromArrivalWithoutADate() {
        #expect(lifetime([("Expires", Fixture.date(100))], responseTime: 10) == 90)
        #expect(lifetime([("Date", "garbage"), ("Expires", Fixture.date(100))], responseTime: 10) == 90)
    }

    @Test func anInvalidOrPastExpiresIsAlreadyExpired() {
        let lastModified = ("Last-Modified", Fixture.date(-100_000))
        #expect(lifetime([("Date", Fixture.date(0)), ("Expires", "0"), lastModified]) == 0, "no heuristic either")
        #expect(lifetime([("Date", Fixture.date(0)), ("Expires", "-1")]) == 0)
        #expect(lifetime([("Date", Fixture.date(0)), ("Expires", Fixture.date(-60))]) == 0, "never negative")
    }

    /// RFC 9111 §5.3: "A cache recipient MUST interpret invalid date formats, especially the value '0', as
    /// representing a time in the past" — a date that is not an HTTP-date (RFC 9110 §5.6.7) is already expired,
    /// however far ahead it seems to point.
    @Test(
        arguments: [
            "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 50 02:01:18 GMT", "Thu 18 Aug 2050 02:01:18 GMT",
            "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT", "Thu, 18 Aug 2050 02.01.18 GMT",
            "Thu, 18 Aug 2050 2:01:18 GMT",
        ])
    func anExpiresThatIsNotAnHTTPDateIsAlreadyExpired(expires: String) {
        #expect(lifetime([("Date", Fixture.date(0)), ("Expires", expires)]) == 0)
        #expect(lifetime([("Date", Fixture.date(0)), ("Expires", "Thu, 18 Aug 2050 02:01:18 GMT")]) > 0, "the valid form")
    }

    /// RFC 9111 §5.3 gives `Expires` one HTTP-date; with several field lines the value is invalid, and §4.2.1 lets
    /// a cache consider a response with more than one value stale — even when the lines agree or the first is ahead.
    @Test func severalExpiresFieldsAreInvalid() {
        let ahead = ("Expires", Fixture.date(3600))
        #expect(lifetime([("Date", Fixture.date(0)), ahead, ("Expires", Fixture.date(60))]) == 0)
        #expect(lifetime([("Date", Fixture.date(0)), ahead, ahead]) == 0)
        #expect(lifetime([("Date", Fixture.date(0)), ahead, ("Cache-Control", "max-age=30"), ahead]) == 30, "max-age still wins")
    }

    /// delta-seconds is digits only (RFC 9111 §1.2.2), and §4.2.1 encourages treating invalid freshness information
    /// such as a non-integer max-age as stale: `max-age=3600.5` (cache-tests.fyi's freshness-max-age-decimal-*) gives
    /// no freshness, and does not let Expires or the heuristic stand in for it.
    @Test func aDecimalMaxAgeIsNotFresh() {
        let lastModified = ("Last-Modified", Fixture.date(-100_000))
        for value in ["max-age=3.5", "max-age=3600.0", "max-age=3600.5", "max-age=3600a"] {
            #expect(lifetime([("Cache-Control", value), ("Date", Fixture.date(0)), ("Expires", Fixture.date(3600))]) == 0, "\(value)")
            #expect(lifetime([("Cache-Control", value), ("Date", Fixture.date(0)), lastModified]) == 0, "\(value)")
        }
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() {
        let fields: HTTPFields = [("Date", Fixture.date(0)), ("Last-Modified", Fixture.date(-10_000))]
        #expect(lifetime(fields) == 1000)
        #expect(lifetime(fields, status: 404) == 1000)
        #expect(lifetime(fields, status: 302) == 0, "302 is not heuristically cacheable")
        #expect(lifetime([("Last-Modified", Fixture.date(-10_000))], responseTime: 10_000) == 2000, "arrival stands in for Date")
        #expect(lifetime([("Date", Fixture.date(0)), ("Last-Modified", Fixture.date(500))]) == 0, "modified in the future")
        #expect(lifetime([("Date", Fixture.date(0)), ("Last-Modified", "yesterday")]) == 0)
    }

    @Test func nothingToGoOnMeansZero() {
        #expect(lifetime([("Date", Fixture.date(0))]) == 0)
        #expect(lifetime([]) == 0)
    }

    @Test func ageWithoutAnAgeFieldIsTheDelayPlusResidence() {
        let response = Fixture.response([("Date", Fixture.date(0))], requestTime: 0, responseTime: 2)
        #expect(HTTPCacheRules.currentAge(of: response, now: Fixture.at(12)) == 12)
        #expect(HTTPCacheRules.currentAge(of: response, now: Fixture.at(2)) == 2, "the round trip already counts")
    }

    @Test func theAgeFieldIsCorrectedForTheResponseDelay() {
        let response = Fixture.response([("Date", Fixture.date(1)), ("Age", "100")], requestTime: 0, responseTime: 2)
        // corrected_age_value = 100 + 2 beats apparent_age = 1; then 10 s resident.
        #expect(HTTPCacheRules.currentAge(of: response, now: Fixture.at(12)) == 112)
    }

    @Test func anOldDateBeatsASmallAge() {
        let response = Fixture.response([("Date", Fixture.date(-300)), ("Age", "10")], requestTime: 0, responseTime: 2)
        #expect(HTTPCacheRules.currentAge(of: response, now: Fixture.at(2)) == 302)
    }

    @Test func aDateAheadOfOurClockGivesNoNegativeAge() {
        let response = Fixture.response([("Date", Fixture.date(500))], requestTime: 0, responseTime: 2)
        #expect(HTTPCacheRules.currentAge(of: response, now: Fixture.at(7)) == 7)
    }

    @Test func anInvalidAgeFieldCountsAsZero() {
        let response = Fixture.response([("Age", "soon")], requestTime: 0, responseTime: 0)
        #expect(HTTPCacheRules.currentAge(of: response, now: Fixture.at(3)) == 3)
    }
}
