public import Foundation

/// The one JSON encoding of the API: synthesized names, RFC 3339 dates with milliseconds.
public enum WireJSON {
    /// Encodes `value` as the API's JSON.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        return Array(try encoder.encode(value))
    }

    /// `2026-11-22T03:16:52.123Z`.
    public static func formatTimestamp(_ date: Date) -> String {
        RFC3339.format(date)
    }
}
