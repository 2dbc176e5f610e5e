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
