public import Foundation

/// Opaque, unguessable identifiers with a type prefix (`ses_`, `tsk_`, `evt_`, `blb_`).
///
/// 128 bits in base62 keep ids URL-safe: the creation time in milliseconds (48 bits), then 80 random bits,
/// which keep them impossible to guess or enumerate across tenants. Time first, as in UUIDv7, so new ids
/// sort after older ones: each SQLite index on an id then grows at its right edge, and a transaction
/// that inserts many rows touches a few pages instead of one random page per row.
public enum ResourceID {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A new identifier such as `ses_4fZk…` (22 base62 characters after the prefix).
    public static func make(prefix: String, now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, (now.timeIntervalSince1970 * 1000).rounded())) & 0xFFFF_FFFF_FFFF
        var high = milliseconds << 16 | (generator.next() as UInt64) & 0xFFFF
        var low = generator.next() as UInt64
        var characters = [UInt8](repeating: 0, count: 22)
        for index in characters.indices.reversed() {
            // Long division of the 128-bit value (high, low) by 62.
            let highQuotient = high / 62
            let highRemainder = high % 62
            let (lowQuotient, remainder) = (62 as UInt64).dividingFullWidth((highRemainder, low))
            high = highQuotient
            low = lowQuotient
            characters[index] = alphabet[Int(remainder)]
        }
        return prefix + "_" + String(decoding: characters, as: UTF8.self)
    }

    /// Whether `value` has the shape of an id with `prefix` (cheap check before any lookup).
    public static func isWellFormed(_ value: String, prefix: String) -> Bool {
        let utf8 = value.utf8
        guard utf8.count == prefix.utf8.count + 1 + 22, value.hasPrefix(prefix + "_") else { return false }
        return utf8.dropFirst(prefix.utf8.count + 1).allSatisfy { alphabet.contains($0) }
    }
}
