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
        #expect(HTTPDate.parse("0") == nil)
    }
}
