public import Foundation

extension Date {
    /// Now, on a whole millisecond (plus a quarter, see below): what the store keeps and the API prints,
    /// so a timestamp reads back exactly as it was first answered.
    ///
    /// SQLite keeps `yyyy-MM-dd HH:mm:ss.SSS` and the formatter truncates; a Double cannot hold most
    /// milliseconds exactly, so the value sits a quarter millisecond past the boundary, where neither
    /// truncation nor floating-point error can move it to a neighbour.
    public static var nowMilliseconds: Date {
        let milliseconds = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Date(timeIntervalSince1970: (milliseconds + 0.25) / 1000)
    }
}

extension RFC3339 {
    /// RFC 3339 in UTC with milliseconds, as the API writes every time: `2026-11-22T03:16:52.123Z`.
    static func format(_ date: Date) -> String {
        // The small bias lands values read back from SQLite (a hair under the millisecond) on it.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000 + 0.01).rounded(.down))
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, millisecond) = millisecondOfDay < 0 ? (days - 1, millisecondOfDay + 86_400_000) : (days, millisecondOfDay)
        let (year, month, dayOfMonth) = civilDate(fromDays: day)
        let seconds = millisecond / 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(dayOfMonth, 2) + "T" + pad(seconds / 3600, 2) + ":"
            + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) + "." + pad(millisecond % 1000, 3) + "Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
