public import Foundation

/// The cookie-date algorithm of RFC 6265 §5.1.1: how browsers read `Expires`, tolerant of the many
/// formats servers send (`Wed, 21 Oct 2015 07:28:00 GMT`, `Wednesday, 21-Oct-15 07:28:00 GMT`,
/// `Wed Oct 21 07:28:00 2015`). nil when a part is missing or out of range.
public enum CookieDate {
    public static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: text) {
            if time == nil, let parsed = parseTime(token) {
                time = parsed
            } else if day == nil, let parsed = leadingDigits(token, 1...2), parsed.rest.allSatisfy({ !$0.isNumber }) {
                day = parsed.value
            } else if month == nil, let parsed = parseMonth(token) {
                month = parsed
            } else if year == nil, let parsed = leadingDigits(token, 2...4), parsed.rest.allSatisfy({ !$0.isNumber }) {
                year = parsed.value
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, time.0 <= 23, time.1 <= 59, time.2 <= 59 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        components.hour = time.0
        components.minute = time.1
        components.second = time.2
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            return nil  // 31 February and friends
        }
        return date
    }

    /// The date-tokens: runs of characters that are not delimiters (§5.1.1).
    private static func tokens(of text: String) -> [Substring] {
        text.split { character in
            guard let ascii = character.asciiValue else { return false }
            return ascii == 0x09 || (0x20...0x2F).contains(ascii) || (0x3B...0x40).contains(ascii)
                || (0x5B...0x60).contains(ascii) || (0x7B...0x7E).contains(ascii)
        }
    }

    /// `hms-time`: 1–2 digits, `:`, 1–2 digits, `:`, 1–2 digits, then anything but digits.
    private static func parseTime(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = leadingDigits(parts[0], 1...2), hour.rest.isEmpty,
            let minute = leadingDigits(parts[1], 1...2), minute.rest.isEmpty,
            let second = leadingDigits(parts[2], 1...2), second.rest.allSatisfy({ !$0.isNumber })
        else { return nil }
        return (hour.value, minute.value, second.value)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func parseMonth(_ token: Substring) -> Int? {
        guard token.count >= 3 else { return nil }
        return months.firstIndex(of: token.prefix(3).lowercased()).map { $0 + 1 }
    }

    /// The token's first `count` (a range) digits as a number, and what follows them.
    private static func leadingDigits(_ token: Substring, _ count: ClosedRange<Int>) -> (value: Int, rest: Substring)? {
        let digits = token.prefix { $0.isASCII && $0.isNumber }
        guard count.contains(digits.count), let value = Int(digits) else { return nil }
        return (value, token.dropFirst(digits.count))
    }
}
