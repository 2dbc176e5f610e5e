/// Opaque, unguessable identifiers with a type prefix (`ses_`, `tsk_`, `evt_`, `blb_`).
///
/// 128 bits of randomness in base62 keep ids URL-safe and impossible to enumerate across tenants.
public enum ResourceID {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A new identifier such as `ses_4fZk…` (22 base62 characters after the prefix).
    public static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
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
