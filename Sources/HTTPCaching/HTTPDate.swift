public import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850
/// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994` forms a recipient must accept.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    public static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == ":" }).map(String.init)
        guard let monthIndex = tokens.firstIndex(where: { months.contains($0.lowercased()) }),
            let month = months.firstIndex(of: tokens[monthIndex].lowercased())
        else { return nil }
        let numbers = tokens.compactMap { token in token.allSatisfy(\.isASCII) ? Int(token) : nil }
        guard numbers.count == 5 else { return nil }
        let asctime = Int(tokens[tokens.count - 1]) != nil  // the year comes last
        let (day, rawYear, hour, minute, second) =
            asctime
            ? (numbers[0], numbers[4], numbers[1], numbers[2], numbers[3])
            : (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
        let year = rawYear >= 100 ? rawYear : rawYear + (rawYear >= 70 ? 1900 : 2000)  // RFC 850's two-digit years
        guard (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: Double(days * 86400 + hour * 3600 + minute * 60 + second))
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
