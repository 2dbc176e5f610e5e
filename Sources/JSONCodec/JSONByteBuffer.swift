/// The growable byte buffer `WireJSONEncoder` writes into, with the JSON formatting of scalars.
///
/// A raw allocation rather than `[UInt8]`, so appends skip the array's uniqueness checks. The encoder's buffer
/// starts with `nulltruefalse`, which the `JSONSlot` literals point at.
///
/// `@exclusivity(unchecked)`: a buffer belongs to one `WireJSON.encode` call on one thread, and its accesses
/// never call out to other code, so none can overlap.
final class JSONByteBuffer {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var capacity: Int

    init(capacity: Int, literals: Bool = true) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
        if literals { append("nulltruefalse") }
    }

    deinit { base.deallocate() }

    /// The written bytes as an array.
    var contents: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always)
    func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(to: count &+ extra) }
    }

    @inline(never)
    private func grow(to needed: Int) {
        var newCapacity = capacity &* 2
        while newCapacity < needed { newCapacity &*= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Counts the bytes written directly through `base` (after a `reserve`) up to `end`.
    @inline(__always)
    func appendWritten(upTo end: UnsafeMutablePointer<UInt8>) {
        count = end - base
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    func append(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        (base + count).initialize(from: bytes, count: length)
        count &+= length
    }

    /// `"key":` for a key that needs no escaping.
    @inline(__always)
    func appendQuotedKey(_ key: UnsafeBufferPointer<UInt8>) {
        reserve(key.count &+ 3)
        base[count] = UInt8(ascii: "\"")
        if let start = key.baseAddress { (base + count + 1).initialize(from: start, count: key.count) }
        base[count &+ 1 &+ key.count] = UInt8(ascii: "\"")
        base[count &+ 2 &+ key.count] = UInt8(ascii: ":")
        count &+= key.count &+ 3
    }

    @inline(__always)
    func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// `text`'s UTF-8, unescaped (numbers, already-escaped text).
    func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { append($0.baseAddress!, count: $0.count) }
    }

    // MARK: - Numbers

    /// A decimal integer, as `description` writes it.
    func appendInteger(magnitude: UInt64, negative: Bool) {
        reserve(21)
        var start = base + count
        if negative {
            start.pointee = UInt8(ascii: "-")
            start += 1
        }
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits &+= 1
        }
        var cursor = start + digits
        rest = magnitude
        repeat {
            cursor -= 1
            cursor.pointee = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        } while rest != 0
        count = start + digits - base
    }

    @inline(__always)
    func appendInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        if Integer.bitWidth <= 64 {
            appendInteger(magnitude: UInt64(truncatingIfNeeded: value.magnitude), negative: value < 0)
        } else {
            appendRaw(value.description)
        }
    }

    /// A finite `Double` as `JSONEncoder` writes it: `description` without a trailing `.0`.
    func appendDouble(_ value: Double) {
        // Integral values below 2^53 print as plain decimals; whole numbers up to 10^15 are the common case.
        if value.magnitude < 1e15, value.rounded(.towardZero) == value {
            if value == 0 {
                value.sign == .minus ? append("-0") : append(UInt8(ascii: "0"))
            } else {
                appendInteger(magnitude: UInt64(value.magnitude), negative: value < 0)
            }
        } else {
            appendFloatingDescription(value.description)
        }
    }

    /// A finite `Float` as `JSONEncoder` writes it.
    func appendFloat(_ value: Float) {
        appendFloatingDescription(value.description)
    }

    private func appendFloatingDescription(_ description: String) {
        var text = description
        text.withUTF8 { utf8 in
            var length = utf8.count
            if length >= 2, utf8[length - 2] == UInt8(ascii: "."), utf8[length - 1] == UInt8(ascii: "0") { length -= 2 }
            append(utf8.baseAddress!, count: length)
        }
    }

    // MARK: - Strings

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00XX`
    /// (lowercase hex), `/` and everything else raw UTF-8, as `JSONEncoder` with `.withoutEscapingSlashes`.
    func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString(utf8: $0) }
    }

    func appendString(utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        reserve(length &+ 2)
        base[count] = UInt8(ascii: "\"")
        count &+= 1
        guard let source = utf8.baseAddress else {
            append(UInt8(ascii: "\""))
            return
        }
        // Eight bytes at a time while there is nothing to escape, byte by byte in a word that has something.
        let raw = UnsafeRawPointer(source)
        var mark = 0
        var index = 0
        while index < length {
            if index &+ 8 <= length,
                Self.specialBytes(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) == 0
            {
                index &+= 8
                continue
            }
            let end = Swift.min(index &+ 8, length)
            while index < end {
                let byte = source[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    append(source + mark, count: index &- mark)
                    appendEscape(byte)
                    mark = index &+ 1
                }
                index &+= 1
            }
        }
        append(source + mark, count: length &- mark)
        append(UInt8(ascii: "\""))
    }

    /// Nonzero exactly when a byte of `word` is below 0x20, `"` or `\`: the bytes a JSON string escapes.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highBits }
        let control = (word &- ones &* 0x20) & ~word & highBits
        return control | hasZeroByte(word ^ (ones &* 0x22)) | hasZeroByte(word ^ (ones &* 0x5C))
    }

    private func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        default:
            append("\\u00")
            append(Self.hexDigit(byte >> 4))
            append(Self.hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? value &+ UInt8(ascii: "0") : value &- 10 &+ UInt8(ascii: "a")
    }
}
