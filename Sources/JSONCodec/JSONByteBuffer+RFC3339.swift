import Foundation

extension JSONByteBuffer {
    /// `"2026-11-22T03:16:52.123Z"`: the JSON string of `RFC3339.format(date)`, written without building the
    /// `String` (which costs more than the rest of a member). Years outside 0...9999, where that function's
    /// padding differs, and dates whose milliseconds do not fit go through it.
    ///
    /// The calendar arithmetic is `RFC3339.civilTime`, as in `RFC3339.format`; `WireJSONEncoderTests`
    /// compares the two over many dates.
    func appendTimestamp(_ date: Date) {
        let scaled = date.timeIntervalSince1970 * 1000 + 0.01
        guard scaled.magnitude < 2.5e14 else {  // about year 9900: beyond it, the general formatter
            appendString(RFC3339.format(date))
            return
        }
        let time = RFC3339.civilTime(milliseconds: Int64(scaled.rounded(.down)))
        guard time.year >= 0 else {
            appendString(RFC3339.format(date))
            return
        }
        reserve(26)
        var cursor = base + count
        func put(_ value: Int64, digits: Int) {
            var rest = value
            for index in stride(from: digits - 1, through: 0, by: -1) {
                cursor[index] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
            }
            cursor += digits
        }
        func put(_ byte: Unicode.Scalar) {
            cursor.pointee = UInt8(ascii: byte)
            cursor += 1
        }
        put("\"")
        put(time.year, digits: 4)
        put("-")
        put(time.month, digits: 2)
        put("-")
        put(time.day, digits: 2)
        put("T")
        put(time.hour, digits: 2)
        put(":")
        put(time.minute, digits: 2)
        put(":")
        put(time.second, digits: 2)
        put(".")
        put(time.millisecond, digits: 3)
        put("Z")
        put("\"")
        appendWritten(upTo: cursor)
    }
}

extension RFC3339 {
    /// Milliseconds since 1970-01-01T00:00:00Z → the UTC calendar date and time of day, shared by
    /// `RFC3339.format`, `Date.storageText` and the encoder's byte writer.
    static func civilTime(milliseconds: Int64) -> (
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, millisecond: Int64
    ) {
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, ofDay) = millisecondOfDay < 0 ? (days - 1, millisecondOfDay + 86_400_000) : (days, millisecondOfDay)
        let date = civilDate(fromDays: day)
        let seconds = ofDay / 1000
        return (date.year, date.month, date.day, seconds / 3600, seconds / 60 % 60, seconds % 60, ofDay % 1000)
    }

    /// Days since 1970-01-01 → proleptic Gregorian (year, month, day): Howard Hinnant's `civil_from_days`.
    private static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
