public import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850
/// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994` forms a recipient must accept.
///
/// Only those three shapes are dates: a zone other than GMT, a two-digit year outside RFC 850's form, a
/// missing comma, doubled spaces, dashes or periods where the grammar has none, one-digit hours, a day the
/// month does not have — all are invalid. That matters most for `Expires`, where RFC 9111 §5.3 makes an
/// invalid date mean "already expired": a guess at what a malformed value meant could keep a response fresh
/// that its sender never declared fresh. Names (day, month, `GMT`) are matched without regard to case, the
/// leniency RFC 9110 §5.6.7 invites ("robust in parsing timestamps") that cannot make a date say anything else.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The moment `text` names, or nil when it is not an HTTP-date. `now` places RFC 850's two-digit years.
    public static func parse(_ text: String, now: Date) -> Date? {
        imfFixdate(text) ?? rfc850Date(text, now: now) ?? asctimeDate(text)
    }

    /// `parse(_:now:)` with the present as now.
    public static func parse(_ text: String) -> Date? {
        parse(text, now: Date())
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ text: String) -> Date? {
        var reader = DateReader(text)
        guard reader.name(in: dayNames) != nil, reader.literal(", "), let day = reader.number(digits: 2), reader.literal(" "),
            let month = reader.name(in: months), reader.literal(" "), let year = reader.number(digits: 4), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.isAtEnd
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`; the year is the one ending in those digits that lies within 50 years
    /// of `now` (§5.6.7: a date more than 50 years ahead means the most recent such year in the past).
    private static func rfc850Date(_ text: String, now: Date) -> Date? {
        var reader = DateReader(text)
        guard reader.name(in: longDayNames) != nil, reader.literal(", "), let day = reader.number(digits: 2), reader.literal("-"),
            let month = reader.name(in: months), reader.literal("-"), let shortYear = reader.number(digits: 2), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.isAtEnd
        else { return nil }
        let fiftyYears = 50 * 365.2425 * 86_400
        let currentCentury = (1970 + Int(now.timeIntervalSince1970 / (365.2425 * 86_400))) / 100 * 100
        for century in [currentCentury - 100, currentCentury, currentCentury + 100] {
            guard let date = date(year: century + shortYear, month: month + 1, day: day, time: time) else { continue }
            let ahead = date.timeIntervalSince(now)
            if ahead > -fiftyYears && ahead <= fiftyYears { return date }
        }
        return nil
    }

    /// `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
    private static func asctimeDate(_ text: String) -> Date? {
        var reader = DateReader(text)
        guard reader.name(in: dayNames) != nil, reader.literal(" "), let month = reader.name(in: months), reader.literal(" "),
            let day = reader.number(digits: 2) ?? (reader.literal(" ") ? reader.number(digits: 1) : nil), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" "), let year = reader.number(digits: 4), reader.isAtEnd
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// The moment of a calendar date and time in GMT; nil for a day the month lacks or an impossible time
    /// (second 60 is allowed: a leap second).
    private static func date(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
        guard (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(time.hour), (0...59).contains(time.minute),
            (0...60).contains(time.second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86400 + time.hour * 3600 + time.minute * 60 + time.second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads an HTTP-date front to back, each step consuming exactly what the grammar allows or failing.
private struct DateReader {
    private var rest: Substring.UTF8View

    init(_ text: String) { rest = Substring(text).utf8 }

    var isAtEnd: Bool { rest.isEmpty }

    /// `text`, letters compared without case.
    mutating func literal(_ text: String) -> Bool {
        guard rest.count >= text.utf8.count,
            zip(rest, text.utf8).allSatisfy({ Self.lowercased($0) == Self.lowercased($1) })
        else { return false }
        rest = rest.dropFirst(text.utf8.count)
        return true
    }

    /// The index of the name in `names` (lowercase) that comes next, letters compared without case.
    mutating func name(in names: [String]) -> Int? {
        let letters = rest.prefix { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(Self.lowercased($0)) }
        guard let index = names.firstIndex(where: { $0.utf8.elementsEqual(letters.map(Self.lowercased)) }) else { return nil }
        rest = rest.dropFirst(letters.count)
        return index
    }

    /// Exactly `digits` ASCII digits.
    mutating func number(digits: Int) -> Int? {
        let prefix = rest.prefix(digits)
        guard prefix.count == digits, prefix.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        rest = rest.dropFirst(digits)
        return prefix.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// `HH:MM:SS`, two digits each.
    mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = number(digits: 2), literal(":"), let minute = number(digits: 2), literal(":"),
            let second = number(digits: 2)
        else { return nil }
        return (hour, minute, second)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
