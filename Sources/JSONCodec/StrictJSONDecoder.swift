import Foundation

/// Decodes `Decodable` types from JSON with no leniency, reporting failures as ``RequestDecodingError``.
///
/// - Unknown object members are errors: every member must be accepted by the `CodingKey` type the
///   model asks for (synthesized `CodingKeys` reject unknown names; dictionaries accept any).
///   A type that reads one object twice with different key types must use keys that cover all members.
/// - No coercion: booleans only from `true`/`false`, strings only from strings, integers only from
///   numbers that are exact integers in range (`1.0` and `1e2` are integers, `1.5` is not),
///   floating-point from any finite number.
/// - null and absence are the same to optionals (`decodeIfPresent` gives nil); a non-optional
///   value that is null or absent is ``RequestDecodingError/Kind/missingField``.
/// - `Date` from RFC 3339 strings, `Data` from base64, `URL` via `URL(string:)`, `Decimal` from
///   numbers, ``JSONValue`` as the subtree itself.
/// - A shape mismatch at the root (an array where an object is expected) is
///   ``RequestDecodingError/Kind/malformedJSON``, since no field is at fault.
public struct StrictJSONDecoder: Sendable {
    public init() {}

    /// Parses and decodes UTF-8 bytes (`[UInt8]`, `Data`, ...). A key repeated within one object is
    /// ``RequestDecodingError/Kind/malformedJSON`` at the repetition: valid JSON, but not one meaning.
    public func decode<T: Decodable>(
        _ type: T.Type, from bytes: some Collection<UInt8>
    ) throws(RequestDecodingError) -> T {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes, duplicateKeys: .reject) } catch { throw .malformedJSON(error) }
        return try decode(type, from: value)
    }

    /// Decodes an already parsed value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(RequestDecodingError) -> T {
        do {
            return try StrictValueDecoder(value: value, codingPath: []).unwrap(type)
        } catch let error as RequestDecodingError {
            throw error
        } catch let error as DecodingError {
            throw RequestDecodingError(error)
        } catch {
            // A model threw its own error type; we cannot know where, so it is reported at the root.
            throw RequestDecodingError(kind: .invalidValue, field: nil, detail: String(describing: error))
        }
    }
}

/// The `Decoder` for one JSON value; it is its own single-value container.
struct StrictValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(expected: "an object") }
        for (key, _) in object where Key(stringValue: key) == nil {
            throw RequestDecodingError.unknownField(at: codingPath + [JSONMemberKey(key)])
        }
        return KeyedDecodingContainer(StrictKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch(expected: "an array") }
        return StrictUnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { self }

    // MARK: Single-value container

    func decodeNil() -> Bool { value == .null }
    func decode(_: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(expected: "a boolean") }
        return bool
    }
    func decode(_: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(expected: "a string") }
        return string
    }
    func decode(_: Double.Type) throws -> Double {
        guard let double = try number(expected: "a number").double else { throw outOfRange("Double") }
        return double
    }
    func decode(_: Float.Type) throws -> Float {
        let text = try number(expected: "a number").text
        guard let float = Float(text), float.isFinite else { throw outOfRange("Float") }
        return float
    }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(type) }

    // MARK: Conversions

    /// Decodes any type here: primitives and Foundation types directly (generic code such as
    /// `Array<Int>` reaches them through this path), everything else through `init(from:)`.
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        if let convert = Self.conversions[ObjectIdentifier(type)] {
            guard let result = try convert(self) as? T else { throw mismatch(expected: "\(T.self)") }
            return result
        }
        do {
            return try T(from: self)
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.count == codingPath.count && T.self is any RawRepresentable.Type
        {
            // The standard library's "Cannot initialize X from invalid String value y" reads badly
            // on the wire; say which values are accepted when the enumeration can list them.
            var detail = "unknown value \(String(value.description.prefix(64)))"
            if let caseType = T.self as? any (CaseIterable & RawRepresentable).Type {
                detail += "; expected one of: " + Self.rawValues(of: caseType).joined(separator: ", ")
            }
            throw RequestDecodingError.invalidValue(at: codingPath, detail)
        }
    }

    private static func rawValues<E: CaseIterable & RawRepresentable>(of _: E.Type) -> [String] {
        E.allCases.map { "\($0.rawValue)" }
    }

    /// Types decoded without `init(from:)`, keyed by type: one hash lookup instead of a chain of casts.
    private static let conversions: [ObjectIdentifier: @Sendable (StrictValueDecoder) throws -> Any] = [
        ObjectIdentifier(JSONValue.self): { $0.value },
        ObjectIdentifier(Bool.self): { try $0.decode(Bool.self) },
        ObjectIdentifier(String.self): { try $0.decode(String.self) },
        ObjectIdentifier(Double.self): { try $0.decode(Double.self) },
        ObjectIdentifier(Float.self): { try $0.decode(Float.self) },
        ObjectIdentifier(Int.self): { try $0.integer(Int.self) },
        ObjectIdentifier(Int8.self): { try $0.integer(Int8.self) },
        ObjectIdentifier(Int16.self): { try $0.integer(Int16.self) },
        ObjectIdentifier(Int32.self): { try $0.integer(Int32.self) },
        ObjectIdentifier(Int64.self): { try $0.integer(Int64.self) },
        ObjectIdentifier(UInt.self): { try $0.integer(UInt.self) },
        ObjectIdentifier(UInt8.self): { try $0.integer(UInt8.self) },
        ObjectIdentifier(UInt16.self): { try $0.integer(UInt16.self) },
        ObjectIdentifier(UInt32.self): { try $0.integer(UInt32.self) },
        ObjectIdentifier(UInt64.self): { try $0.integer(UInt64.self) },
        ObjectIdentifier(Date.self): { decoder in
            guard let date = RFC3339.date(from: try decoder.decode(String.self)) else {
                throw RequestDecodingError.invalidValue(at: decoder.codingPath, "not an RFC 3339 date-time")
            }
            return date
        },
        ObjectIdentifier(Data.self): { decoder in
            guard let data = Data(base64Encoded: try decoder.decode(String.self)) else {
                throw RequestDecodingError.invalidValue(at: decoder.codingPath, "not valid base64")
            }
            return data
        },
        ObjectIdentifier(URL.self): { decoder in
            guard let url = URL(string: try decoder.decode(String.self)) else {
                throw RequestDecodingError.invalidValue(at: decoder.codingPath, "not a valid URL")
            }
            return url
        },
        ObjectIdentifier(Decimal.self): { decoder in
            let text = try decoder.number(expected: "a number").text
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else {
                throw decoder.outOfRange("Decimal")
            }
            return decimal
        },
    ]

    func number(expected: String) throws -> JSONNumber {
        guard case .number(let number) = value else { throw mismatch(expected: expected) }
        return number
    }

    /// Exact integers only: a fraction is the wrong type, a magnitude beyond `I` an invalid value.
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        let number = try number(expected: "an integer")
        switch number.integerForm {
        case .fractional:
            throw mismatch(expected: "an integer", found: String(number.text.prefix(32)))
        case .integer(let negative, let magnitude):
            let result = negative ? number.int64.flatMap { I(exactly: $0) } : I(exactly: magnitude)
            if let result { return result }
        case .tooLarge:
            break
        }
        throw RequestDecodingError.invalidValue(at: codingPath, "out of range: must be between \(I.min) and \(I.max)")
    }

    func outOfRange(_ typeName: String) -> RequestDecodingError {
        .invalidValue(at: codingPath, "out of range for \(typeName)")
    }

    /// The value is not of the `expected` kind. Null means a required value is missing; at the
    /// root there is no field to blame, so the body itself is malformed.
    func mismatch(expected: String, found: String? = nil) -> RequestDecodingError {
        let found = found ?? value.kindDescription
        if codingPath.isEmpty {
            return RequestDecodingError(
                kind: .malformedJSON, field: nil, detail: "the body must be \(expected), found \(found)")
        }
        if value == .null { return .missingField(at: codingPath, "must not be null") }
        return .typeMismatch(at: codingPath, expected: expected, found: found)
    }
}

struct StrictKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }
    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    /// The decoder for member `key`; an absent member is missing (optionals never get here,
    /// because `decodeIfPresent` checks `contains` first).
    func child(_ key: Key) throws -> StrictValueDecoder {
        guard let value = object[key.stringValue] else {
            throw RequestDecodingError.missingField(at: codingPath + [key])
        }
        return StrictValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).unwrap(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder {
        StrictValueDecoder(value: object["super"] ?? .null, codingPath: codingPath + [JSONMemberKey("super")])
    }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        StrictValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct StrictUnkeyedContainer: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(array: [JSONValue], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    /// The decoder for the current element, advancing past it.
    mutating func next() throws -> StrictValueDecoder {
        let path = codingPath + [ArrayIndexKey(currentIndex)]
        guard !isAtEnd else {
            throw RequestDecodingError.missingField(at: path, "is required (the array has \(array.count) elements)")
        }
        defer { currentIndex += 1 }
        return StrictValueDecoder(value: array[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        if isAtEnd { _ = try next() }  // throws "is required"
        guard array[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().unwrap(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// RFC 3339 date-times (`2024-05-01T12:00:00Z`, `2024-05-01T12:00:00.250+02:00`; `T` and `Z` in
/// either case). Hand-written because Foundation's ISO 8601 parsing accepts February 30 and hour 25.
enum RFC3339 {
    static func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count >= 20 else { return nil }  // the shortest form, with "Z"
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, let digit = digitValue(bytes[index]) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        func digitValue(_ byte: UInt8) -> Int? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10), bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            bytes[16] == UInt8(ascii: ":"), let second = number(17..<19),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60  // leap seconds cannot be represented by Date
        else { return nil }

        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var nanoseconds = 0
            var divisor = 1
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                if divisor < 1_000_000_000 {  // nanosecond precision is all Date can hold anyway
                    nanoseconds = nanoseconds * 10 + digit
                    divisor *= 10
                }
                index += 1
            }
            guard divisor > 1 else { return nil }
            fraction = Double(nanoseconds) / Double(divisor)
        }

        var offsetSeconds = 0
        guard index < bytes.count else { return nil }
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            guard let offsetHour = number((index + 1)..<(index + 3)), index + 3 < bytes.count,
                bytes[index + 3] == UInt8(ascii: ":"), let offsetMinute = number((index + 4)..<(index + 6)),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        }
        guard index == bytes.count else { return nil }

        // Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
