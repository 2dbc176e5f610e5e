import Foundation
import HTTPCaching
import Testing

@Suite("HTTP dates (RFC 9110 §5.6.7)")
struct HTTPDateTests {
    @Test(
        arguments: [
            (784_111_777.0, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
            (1_000_000_000, "Sun, 09 Sep 2001 01:46:40 GMT"),
            (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
            (-2_208_988_800, "Mon, 01 Jan 1900 00:00:00 GMT"),
        ])
    func parsesIMFFixdate(seconds: Double, text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test func parsesTheObsoleteForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Sun Nov 06 08:49:37 1994") == expected, "asctime's day may be two digits")
        #expect(HTTPDate.parse("0") == nil)
    }

    /// cache-tests.fyi's "wrong case" Expires tests: names in any case still name the same date.
    @Test func namesAreReadWithoutRegardToCase() {
        let expected = HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT")
        #expect(expected != nil)
        for text in ["THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 gMT"] {
            #expect(HTTPDate.parse(text) == expected, "\(text)")
        }
    }

    /// RFC 9111 §5.3 treats these as invalid (so an `Expires` holding one is already expired): each breaks
    /// RFC 9110 §5.6.7's grammar in one place (cache-tests.fyi's freshness-expires-invalid-* cases and others).
    @Test(
        arguments: [
            "Thu, 18 Aug 2050 02:01:18 UTC",  // GMT is the only zone
            "Thu, 18 Aug 2050 02:01:18 +0000",
            "Thu, 18 Aug 2050 02:01:18",
            "Thu, 18 Aug 50 02:01:18 GMT",  // a two-digit year outside RFC 850's form
            "Thu 18 Aug 2050 02:01:18 GMT",  // no comma
            "Thu, 18  Aug  2050 02:01:18 GMT",  // doubled spaces
            "Thu, 18-Aug-2050 02:01:18 GMT",  // RFC 850's dashes in an IMF-fixdate
            "Thu, 18 Aug 2050 02.01.18 GMT",  // periods for colons
            "Thu, 18 Aug 2050 2:01:18 GMT",  // a one-digit hour
            "Thu, 8 Aug 2050 02:01:18 GMT",  // a one-digit day
            "Thu, 18 August 2050 02:01:18 GMT",
            "Thursday, 18 Aug 2050 02:01:18 GMT",
            "Thu, 31 Feb 2050 02:01:18 GMT",  // a day February lacks
            "Thu, 29 Feb 2100 02:01:18 GMT",  // 2100 is not a leap year
            "Thu, 18 Aug 2050 24:00:00 GMT",
            "Thu, 18 Aug 2050 02:01:18 GMT ",  // trailing text (fields are trimmed before parsing)
            "Thu, 18 Aug 2050 02:01:18 GMT, Fri, 19 Aug 2050 02:01:18 GMT",  // two dates in one line
            "Thu, 18-Aug-50 02:01:18 GMT",  // RFC 850 wants the day's full name
            "Thursday, 18-Aug-2050 02:01:18 GMT",  // …and a two-digit year
            "Thu Aug 18 02:01:18 50",  // asctime's year has four digits
            "Thu Aug 18 02:01:18 2050 GMT",  // …and no zone
            "-1",
            "",
        ])
    func rejectsWhatTheGrammarDoesNotAllow(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    /// §5.6.7: an RFC 850 year more than 50 years ahead is the most recent past year with those two digits.
    @Test func rfc850YearsLieWithinFiftyYearsOfNow() throws {
        let now = try #require(HTTPDate.parse("Sun, 01 Jan 2023 00:00:00 GMT"))
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT", now: now) == HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"))
        #expect(HTTPDate.parse("Monday, 01-Jan-01 00:00:00 GMT", now: now) == HTTPDate.parse("Mon, 01 Jan 2001 00:00:00 GMT"))
        let later = try #require(HTTPDate.parse("Fri, 01 Jan 2094 00:00:00 GMT"))
        #expect(HTTPDate.parse("Wednesday, 01-Jan-03 00:00:00 GMT", now: later) == HTTPDate.parse("Sat, 01 Jan 2103 00:00:00 GMT"))
    }
}
