/// A JSON document or fragment, as parsed by ``JSONParser``.
///
/// Numbers keep their literal text (see ``JSONNumber``) and objects keep their key order
/// (see ``JSONObject``), so a value can be re-serialized without losing precision or shape.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

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
        var fractionDigits = 0, exponent = 0, inFraction = false
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
        while digits.last == 0 { digits.removeLast(); scale += 1 }
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
        var negative = false, value = 0
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

/// A JSON object that keeps its members in document order.
///
/// Lookups scan small objects linearly (comparing a few short strings beats hashing them, which
/// dominated parse time) and use a key index above ``indexThreshold`` members.
/// Equality ignores member order, as JSON object semantics do.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)

    private var members: [Element]
    /// Key → position; non-nil exactly when there are more than `indexThreshold` members.
    private var positions: [String: Int]?

    /// Member count above which lookups go through a hash index.
    static let indexThreshold = 12

    public init() { (members, positions) = ([], nil) }

    /// Builds an object from members in order; a repeated key keeps its first position and last value.
    public init(_ members: [Element]) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// For the parser, which has already merged or rejected duplicate keys (and may have built the index).
    init(uniqueMembers members: [Element], positions: [String: Int]?) {
        self.members = members
        self.positions = positions ?? (members.count > Self.indexThreshold ? Self.index(members) : nil)
    }

    static func index(_ members: [Element]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { positions[member.key] = position }
        return positions
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Element { members[position] }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// The member named `key`; setting nil removes it, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            switch (position(of: key), newValue) {
            case (let position?, let value?): members[position].value = value
            case (nil, let value?):
                members.append((key, value))
                if positions != nil {
                    positions?[key] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    positions = Self.index(members)
                }
            case (let position?, nil):
                members.remove(at: position)
                positions = members.count > Self.indexThreshold ? Self.index(members) : nil
            case (nil, nil): break
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==: XOR of per-member hashes, as Dictionary does.
        var combined = 0
        for (key, value) in members {
            var memberHasher = Hasher()
            memberHasher.combine(key)
            memberHasher.combine(value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(floatLiteral: value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for other values or an absent key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` of an array; nil for other values or an index out of bounds.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    public var isNull: Bool { self == .null }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var numberValue: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }

    /// A short phrase for error messages: "a string", "an object", "null".
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A coding key for arbitrary object member names (encoding objects, reporting unknown fields).
struct JSONMemberKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

extension JSONValue: Codable {
    /// Decodes any JSON from any decoder. With ``StrictJSONDecoder`` the subtree is taken as is
    /// (number text and key order intact); other decoders go through their primitive types.
    public init(from decoder: any Decoder) throws {
        if let strict = decoder as? StrictValueDecoder {
            self = strict.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(UInt64.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? container.decode(Double.self), let number = JSONNumber(value) {
            self = .number(number)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            // Generic decoders lose member order; sort so the result is at least deterministic.
            self = .object(JSONObject(value.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }))
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a JSON value"))
        }
    }

    /// Encodes the natural JSON. Numbers go through `Int64`, `UInt64` or `Double`, so integers
    /// beyond `UInt64` lose precision here; ``serialized()`` keeps the exact text.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var container = encoder.container(keyedBy: JSONMemberKey.self)
            for (key, value) in object { try container.encode(value, forKey: JSONMemberKey(key)) }
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for value in array { try container.encode(value) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .number(let number):
                if let value = number.int64 {
                    try container.encode(value)
                } else if let value = number.uint64 {
                    try container.encode(value)
                } else if let value = number.double {
                    try container.encode(value)
                } else {
                    throw EncodingError.invalidValue(
                        self, .init(codingPath: encoder.codingPath, debugDescription: "\(number) overflows Double"))
                }
            default: try container.encodeNil()
            }
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }

    /// Compact UTF-8 JSON: no whitespace, member order kept, numbers as their literal text.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .number(let number): output += number.text.utf8
        case .string(let string): Self.write(string, into: &output)
        case .array(let array):
            output.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func write(_ string: String, into output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0..<0x20: output += #"\u00"#.utf8 + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
