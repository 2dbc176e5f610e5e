public import Foundation

/// The one JSON encoding of the API: synthesized names, RFC 3339 dates with milliseconds.
public enum WireJSON {
    /// Encodes `value` as the API's JSON: byte for byte what `JSONEncoder` writes with
    /// `outputFormatting = [.withoutEscapingSlashes, .sortedKeys]` and dates as ``formatTimestamp(_:)``
    /// strings, written by `WireJSONEncoder` in a fraction of the time.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        try WireJSONEncoder.encode(value)
    }

    /// `2026-11-22T03:16:52.123Z`.
    public static func formatTimestamp(_ date: Date) -> String {
        RFC3339.format(date)
    }
}
