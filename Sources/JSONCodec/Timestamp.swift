public import Foundation

extension Date {
    /// Now, on a whole millisecond (plus a quarter, see below): what the store keeps and the API prints,
    /// so a timestamp reads back exactly as it was first answered.
    ///
    /// SQLite keeps `yyyy-MM-dd HH:mm:ss.SSS` (rounded) and the API truncates; a Double cannot hold most
    /// milliseconds exactly, so the value sits a quarter millisecond past the boundary, where neither
    /// rounding, truncation nor floating-point error can move it to a neighbour.
    public static var nowMilliseconds: Date {
        let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Date(timeIntervalSince1970: (milliseconds + 0.25) / 1000)
    }
}

extension Date {
    /// The text SQLite keeps, `yyyy-MM-dd HH:mm:ss.SSS` in UTC: byte for byte what GRDB's DateFormatter
    /// writes (to the nearest millisecond, as ICU rounds), which cost 3% of the CPU of small tasks.
    public var storageText: String { Timestamp.format(self, bias: 0.5, separator: UInt8(ascii: " "), suffix: "") }

    /// RFC 3339 in UTC with milliseconds, as the API writes every time: `2026-11-22T03:16:52.123Z`.
    public var rfc3339Text: String { RFC3339.format(self) }
}

extension RFC3339 {
    /// RFC 3339 in UTC with milliseconds, as the API writes every time: `2026-11-22T03:16:52.123Z`.
    static func format(_ date: Date) -> String {
        // The small bias lands values read back from SQLite (a hair under the millisecond) on it.
        Timestamp.format(date, bias: 0.01, separator: UInt8(ascii: "T"), suffix: "Z")
    }
}

private enum Timestamp {
    static func format(_ date: Date, bias: Double, separator: UInt8, suffix: String) -> String {
        let time = RFC3339.civilTime(milliseconds: Int64((date.timeIntervalSince1970 * 1000 + bias).rounded(.down)))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(time.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(time.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(time.day, width: 2, to: &bytes)
        bytes.append(separator)
        append(time.hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(time.minute, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(time.second, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        append(time.millisecond, width: 3, to: &bytes)
        bytes.append(contentsOf: suffix.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value`'s decimal text, zeros in front up to `width` characters.
    private static func append(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        let text = String(value).utf8
        if text.count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - text.count)) }
        bytes.append(contentsOf: text)
    }
}

extension Date {
    /// The date a `storageText` names (`2026-11-22 03:16:52.123`, UTC, milliseconds optional); nil for
    /// any other text.
    public init?(storageText text: String) {
        var bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: " ") else { return nil }
        bytes[10] = UInt8(ascii: "T")
        bytes.append(UInt8(ascii: "Z"))
        guard let date = RFC3339.date(from: String(decoding: bytes, as: UTF8.self)) else { return nil }
        self = date
    }
}
