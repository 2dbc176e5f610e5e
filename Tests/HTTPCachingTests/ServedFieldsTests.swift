import Foundation
import HTTPCaching
import Testing

/// RFC 9111 §4: "When a stored response is used to satisfy a request without validation, a cache MUST generate an
/// Age header field (Section 5.1), replacing any present in the response with a value equal to the stored response's
/// current_age; see Section 4.2.3."
@Suite("Fields of a response served from the cache (RFC 9111 §4, §5.1)")
struct ServedFieldsTests {
    private func served(_ fields: HTTPFields, requestTime: TimeInterval = 0, responseTime: TimeInterval = 0, now: TimeInterval)
        -> HTTPFields
    {
        let stored = Fixture.response(fields, requestTime: requestTime, responseTime: responseTime)
        return HTTPCacheRules.servedFields(of: stored, now: Fixture.at(now))
    }

    @Test func anAgeIsAddedWithTheCurrentAge() {
        // apparent_age 0, response_delay 2, resident_time 10: current_age 12 (cache-tests.fyi's other-age-gen).
        let fields = served([("Date", Fixture.date(0)), ("Cache-Control", "max-age=60")], responseTime: 2, now: 12)
        #expect(Fixture.same(fields, [("Date", Fixture.date(0)), ("Cache-Control", "max-age=60"), ("Age", "12")]))
    }

    @Test func aStoredAgeIsReplacedInPlaceByTheCorrectedOne() {
        // corrected_age_value = 30 + 1 beats apparent_age 0; then 5 s resident (cache-tests.fyi's other-age-update-*).
        let fields = served(
            [("Date", Fixture.date(0)), ("Age", "30"), ("ETag", "\"a\""), ("age", "7")], requestTime: 0, responseTime: 1, now: 6)
        #expect(Fixture.same(fields, [("Date", Fixture.date(0)), ("Age", "36"), ("ETag", "\"a\"")]))
    }

    @Test func theAgeIsWholeSecondsAndNoOtherFieldChanges() {
        let stored: HTTPFields = [("Date", Fixture.date(-100)), ("Expires", Fixture.date(3600)), ("Content-Type", "text/plain")]
        let fields = served(stored, now: 2.9)
        // apparent_age 100 (the Date is 100 s before arrival) + 2.9 s resident: 102; Date and Expires stay as stored.
        #expect(Fixture.same(fields, stored + [("Age", "102")]))
    }

    @Test func aHugeAgeIsSentAsTheDeltaSecondsLimit() {
        let fields = served([("Age", "99999999999999")], now: 0)
        #expect(Fixture.same(fields, [("Age", "2147483648")]))
    }
}
