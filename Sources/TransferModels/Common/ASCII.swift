/// Byte-wise text helpers for protocol text (header names, media types, URL delimiters), where every
/// character that matters is ASCII. `String`'s `Character` operations walk grapheme clusters and
/// `lowercased()` consults Unicode tables; on every response of every task both showed in the small-task
/// profile. Non-ASCII text is left to the standard library.
extension String {
    /// Lowercased: ASCII letters byte by byte; text with any non-ASCII byte by `lowercased()`.
    public var asciiLowercased: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 }) else { return self }
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return lowercased() }
        // Written in place: no intermediate array (header names are lowercased on every response).
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var count = 0
            for byte in utf8 {
                buffer[count] = asciiLowercase(byte)
                count += 1
            }
            return count
        }
    }

    /// Whether the two are equal when ASCII letters are compared without case (other bytes as they are):
    /// lengths first, since most names differ there.
    public func isEqualIgnoringASCIICase(_ other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    /// Without the spaces and tabs around it (HTTP's optional whitespace, RFC 9110 §5.6.3).
    public var trimmingOptionalWhitespace: String { self[...].trimmingOptionalWhitespace }
}

extension Substring {
    /// Without the spaces and tabs around it (HTTP's optional whitespace, RFC 9110 §5.6.3).
    public var trimmingOptionalWhitespace: String {
        let isOWS = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = utf8.firstIndex(where: { !isOWS($0) }), let last = utf8.lastIndex(where: { !isOWS($0) }) else { return "" }
        return String(self[first...last])
    }
}

/// `byte` with an ASCII capital letter made small.
private func asciiLowercase(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
