/// A JSON number, kept as the literal text of the document.
///
/// Keeping the text means integers beyond 2^53 survive and `1.0` stays distinct from `1`:
/// equality and hashing compare the text, not the numeric value.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, always valid RFC 8259 number syntax (e.g. `-12`, `1.50`, `6.02e23`).
    public let text: String

    /// Wraps text the parser has already validated; not public so every instance stays valid JSON.
    init(uncheckedText text: String) { self.text = text }

    /// Parses `text` as a JSON number literal; nil if it is not exactly one (`+1`, `01`, `NaN`, ` 1`).
    public init?(text: String) {
        guard case .number(let number)? = try? JSONParser.parse(text), number.text == text else { return nil }
        self = number
    }

    public init(_ value: Int64) { text = String(value) }
    public init(_ value: UInt64) { text = String(value) }
    public init(_ value: Int) { text = String(value) }
    /// Nil for NaN and infinities, which JSON cannot represent.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        text = "\(value)"  // Swift's shortest round-trip form ("0.1", "1e-05") is valid JSON.
    }

    public var description: String { text }

    /// The value as an `Int64` when it is an exact integer in range (`100`, `1.0`, `1e2`), else nil.
    public var int64: Int64? {
        guard case .integer(let negative, let magnitude) = integerForm else { return nil }
        if !negative { return Int64(exactly: magnitude) }
        if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
        return magnitude == Int64.min.magnitude ? Int64.min : nil
    }

    /// The value as a `UInt64` when it is an exact non-negative integer in range, else nil.
    public var uint64: UInt64? {
        guard case .integer(let negative, let magnitude) = integerForm else { return nil }
        return negative && magnitude != 0 ? nil : magnitude
    }

    /// The nearest `Double`; nil when the magnitude overflows to infinity (`1e400`).
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// True when the number is mathematically an integer, whatever its size.
    public var isIntegral: Bool {
        if case .fractional = integerForm { return false }
        return true
    }

    /// How the number relates to the integers; lets the decoder tell "1.5" (wrong type)
    /// from "1e30" (an integer, but out of range).
    enum IntegerForm: Equatable {
        case integer(negative: Bool, magnitude: UInt64)
        case tooLarge(negative: Bool)
        case fractional
    }

    var integerForm: IntegerForm {
        if let value = Int64(text) {  // fast path: plain integer literal
            return .integer(negative: value < 0, magnitude: value.magnitude)
        }
        let bytes = Array(text.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        var digits: [UInt8] = []  // significant digits, leading zeros dropped
        var fractionDigits = 0
        var exponent = 0
        var inFraction = false
        var index = negative ? 1 : 0
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                exponent = Self.exponent(bytes[(index + 1)...])
                break scan
            case let digit:
                if inFraction { fractionDigits += 1 }
                if !(digits.isEmpty && digit == UInt8(ascii: "0")) { digits.append(digit &- UInt8(ascii: "0")) }
            }
            index += 1
        }
        var scale = exponent - fractionDigits  // value = digits × 10^scale
        while digits.last == 0 {
            digits.removeLast()
            scale += 1
        }
        if digits.isEmpty { return .integer(negative: negative, magnitude: 0) }
        if scale < 0 { return .fractional }
        if digits.count + scale > 20 { return .tooLarge(negative: negative) }  // UInt64.max has 20 digits
        var magnitude: UInt64 = 0
        for digit in digits + Array(repeating: 0, count: scale) {
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
            if o1 || o2 { return .tooLarge(negative: negative) }
            magnitude = sum
        }
        return .integer(negative: negative, magnitude: magnitude)
    }

    /// Reads an exponent, saturating so that `1e99999999999999999999` cannot overflow `Int`.
    private static func exponent(_ bytes: ArraySlice<UInt8>) -> Int {
        var negative = false
        var value = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "+"): break
            default: value = min(value * 10 + Int(byte &- UInt8(ascii: "0")), 1_000_000)
            }
        }
        return negative ? -value : value
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int64) { self.init(value) }
    public init(floatLiteral value: Double) {
        precondition(value.isFinite, "JSON numbers must be finite")
        text = "\(value)"
    }
}
