import Foundation

/// An `Encoder` whose output is byte for byte what Foundation's `JSONEncoder` writes with
/// `outputFormatting = [.withoutEscapingSlashes, .sortedKeys]`, `Date`s as `RFC3339.format(_:)` strings
/// (`.custom`), `Data` as base64, `URL`s as their `absoluteString`, and non-finite floats thrown as
/// `EncodingError.invalidValue`: the configuration of `WireJSON.encode`.
///
/// Scalars are written to one byte buffer the moment they are encoded. Containers only record where their
/// values are (`JSONSlot`) in a `JSONDocument`, so no tree of values or per-member strings is built; the output
/// is assembled in one pass at the end, when each object is sorted once.
///
/// Container semantics follow swift-foundation's `__JSONEncoder`: a key encoded twice keeps its last value,
/// asking for a container twice returns the same one, `superEncoder()` writes its value when it is released,
/// a value that encodes nothing is `{}`, and coding paths are built the same way.
final class WireJSONEncoder: Encoder {
    /// Where a `superEncoder()` writes its value when it is released.
    enum Reference {
        case member(object: Int, key: String)
        case element(array: Int, index: Int)
    }

    // `@exclusivity(unchecked)`: an encoder is used by one `WireJSON.encode` call on one thread, and no access
    // to these properties spans a call back into encoding code.
    let document: JSONDocument
    let buffer: JSONByteBuffer
    @exclusivity(unchecked) private(set) var parent: WireJSONEncoder?
    @exclusivity(unchecked) private(set) var key: (any CodingKey)?
    private let reference: Reference?

    @exclusivity(unchecked) private var single: JSONSlot?
    @exclusivity(unchecked) private var object: Int?
    @exclusivity(unchecked) private var array: Int?
    /// A released child encoder kept for the next member (Foundation's `sharedSubEncoder`).
    @exclusivity(unchecked) private var spare: WireJSONEncoder?

    init(
        document: JSONDocument, parent: WireJSONEncoder? = nil, key: (any CodingKey)? = nil, reference: Reference? = nil
    ) {
        self.document = document
        self.buffer = document.bytes
        self.parent = parent
        self.key = key
        self.reference = reference
    }

    deinit {
        guard let reference else { return }
        let slot = takeSlot() ?? .object(document.makeObject())
        switch reference {
        case .member(let object, let key):
            document.append(key: key, slot: slot, toObject: object)
        case .element(let array, let index):
            document.insert(slot, at: index, inArray: array)
        }
    }

    /// Encodes `value` as a whole document.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let document = JSONDocument()
        let encoder = WireJSONEncoder(document: document)
        guard let slot = try encoder.encodeValueInPlace(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        do {
            return try document.serialize(slot)
        } catch {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Unable to encode the given top-level value to JSON."))
        }
    }

    // MARK: - Encoder

    var codingPath: [any CodingKey] {
        guard let key else { return [] }
        var path = [key]
        var encoder = self
        while let parent = encoder.parent, let key = parent.key {
            path.append(key)
            encoder = parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let object { return KeyedEncodingContainer(WireJSONKeyedContainer(encoder: self, object: object)) }
        if case .object(let existing)? = single {
            single = nil
            object = existing
            return KeyedEncodingContainer(WireJSONKeyedContainer(encoder: self, object: existing))
        }
        precondition(
            single == nil && array == nil,
            "Attempt to push new keyed encoding container when already previously encoded at this path.")
        let created = document.makeObject()
        object = created
        return KeyedEncodingContainer(WireJSONKeyedContainer(encoder: self, object: created))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if let array { return WireJSONUnkeyedContainer(encoder: self, array: array) }
        if case .array(let existing)? = single {
            single = nil
            array = existing
            return WireJSONUnkeyedContainer(encoder: self, array: existing)
        }
        precondition(
            single == nil && object == nil,
            "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
        let created = document.makeArray()
        array = created
        return WireJSONUnkeyedContainer(encoder: self, array: created)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// What this encoder holds, emptying it: its keyed container, else its unkeyed one, else its single value.
    func takeSlot() -> JSONSlot? {
        defer {
            object = nil
            array = nil
            single = nil
        }
        if let object { return .object(object) }
        if let array { return .array(array) }
        return single
    }

    // MARK: - Values

    /// `value` written by a child encoder at `key`: a member or an element. A value that encodes nothing is `{}`.
    func encodeValue<T: Encodable, Key: CodingKey>(_ value: T, key: Key) throws -> JSONSlot {
        if let slot = try specialCase(value, key: key) { return slot }
        var child = makeChild(key: key)
        defer { recycle(&child) }
        try value.encode(to: child)
        return child.takeSlot() ?? .object(document.makeObject())
    }

    /// `value` written by this encoder itself (a single value container, the top level), as Foundation's
    /// `wrapGeneric` without a key. Nil when nothing was encoded.
    func encodeValueInPlace<T: Encodable>(_ value: T) throws -> JSONSlot? {
        if let slot = try specialCase(value, key: nil) { return slot }
        try value.encode(to: self)
        return takeSlot()
    }

    /// The types written without an encoder: the common scalars (faster), and those `JSONEncoder` special-cases.
    @inline(__always)
    /// (`key`, for the coding path of a non-finite number's error, is an autoclosure: making an optional of a
    /// generic key type costs a metadata lookup per call.)
    private func specialCase<T: Encodable>(
        _ value: T, key: @autoclosure () -> (any CodingKey)?
    ) throws -> JSONSlot? {
        if T.self == String.self { return string(Self.cast(value)) }
        if T.self == String?.self { return (Self.cast(value) as String?).map(string) ?? .null }
        if T.self == Int.self { return integer(Self.cast(value) as Int) }
        if T.self == Int?.self { return (Self.cast(value) as Int?).map(integer) ?? .null }
        if T.self == Bool.self { return .bool(Self.cast(value)) }
        if T.self == Bool?.self { return (Self.cast(value) as Bool?).map(JSONSlot.bool) ?? .null }
        if T.self == Double.self { return try double(Self.cast(value), key: key()) }
        if T.self == Double?.self {
            guard let number = Self.cast(value) as Double? else { return .null }
            return try double(number, key: key())
        }
        if T.self == Int64.self { return integer(Self.cast(value) as Int64) }
        if T.self == Date.self { return date(Self.cast(value)) }
        if T.self == Date?.self { return (Self.cast(value) as Date?).map(date) ?? .null }
        if T.self == [String: String].self { return stringDictionary(Self.cast(value)) }
        if T.self == [String].self { return stringArray(Self.cast(value)) }
        if T.self == Data.self { return string((Self.cast(value) as Data).base64EncodedString()) }
        if T.self == URL.self { return string((Self.cast(value) as URL).absoluteString) }
        if T.self == EncodedJSON.self {
            let start = buffer.count
            buffer.appendRaw((Self.cast(value) as EncodedJSON).text)
            return .bytes(start: start, end: buffer.count)
        }
        if T.self == Decimal.self {
            let start = buffer.count
            buffer.appendRaw((Self.cast(value) as Decimal).description)
            return .bytes(start: start, end: buffer.count)
        }
        return nil
    }

    /// `value` as `U`, for a `T` that is known to be `U`.
    @inline(__always)
    private static func cast<T, U>(_ value: T) -> U {
        withUnsafePointer(to: value) { UnsafeRawPointer($0).assumingMemoryBound(to: U.self).pointee }
    }

    private func makeChild(key: any CodingKey) -> WireJSONEncoder {
        guard let child = spare else { return WireJSONEncoder(document: document, parent: self, key: key) }
        spare = nil
        child.parent = self
        child.key = key
        return child
    }

    private func recycle(_ child: inout WireJSONEncoder) {
        guard spare == nil, isKnownUniquelyReferenced(&child) else { return }
        child.parent = nil
        child.key = nil
        child.object = nil
        child.array = nil
        child.single = nil
        spare = child
    }

    // MARK: - Scalars

    func string(_ value: String) -> JSONSlot {
        let start = buffer.count
        buffer.appendString(value)
        return .bytes(start: start, end: buffer.count)
    }

    func integer<Integer: FixedWidthInteger>(_ value: Integer) -> JSONSlot {
        let start = buffer.count
        buffer.appendInteger(value)
        return .bytes(start: start, end: buffer.count)
    }

    /// `key` is added to the coding path of the error thrown for a non-finite value.
    func double(_ value: Double, key: @autoclosure () -> (any CodingKey)?) throws -> JSONSlot {
        guard value.isFinite else { throw nonFinite(value, key: key()) }
        let start = buffer.count
        buffer.appendDouble(value)
        return .bytes(start: start, end: buffer.count)
    }

    func float(_ value: Float, key: @autoclosure () -> (any CodingKey)?) throws -> JSONSlot {
        guard value.isFinite else { throw nonFinite(value, key: key()) }
        let start = buffer.count
        buffer.appendFloat(value)
        return .bytes(start: start, end: buffer.count)
    }

    /// What `Dictionary.encode(to:)` does for `String` keys, without its keyed container.
    private func stringDictionary(_ value: [String: String]) -> JSONSlot {
        let object = document.makeObject()
        for (key, value) in value { document.append(key: key, slot: string(value), toObject: object) }
        return .object(object)
    }

    /// What `Array.encode(to:)` does for `String`s, without its unkeyed container.
    private func stringArray(_ value: [String]) -> JSONSlot {
        let array = document.makeArray()
        for element in value { document.append(string(element), toArray: array) }
        return .array(array)
    }

    /// The `.custom` date strategy of `WireJSON`: the `RFC3339.format` string.
    func date(_ value: Date) -> JSONSlot {
        let start = buffer.count
        buffer.appendTimestamp(value)
        return .bytes(start: start, end: buffer.count)
    }

    @inline(never)
    private func nonFinite<Number: BinaryFloatingPoint>(_ value: Number, key: (any CodingKey)?) -> EncodingError {
        var path = codingPath
        if let key { path.append(key) }
        return .invalidValue(
            value, .init(codingPath: path, debugDescription: "Unable to encode \(Number.self).\(value) directly in JSON."))
    }
}

// MARK: - SingleValueEncodingContainer

extension WireJSONEncoder: SingleValueEncodingContainer {
    private func setSingle(_ slot: @autoclosure () throws -> JSONSlot) rethrows {
        precondition(
            single == nil,
            "Attempt to encode value through single value container when previously value already encoded.")
        single = try slot()
    }

    func encodeNil() throws { setSingle(.null) }
    func encode(_ value: Bool) throws { setSingle(.bool(value)) }
    func encode(_ value: String) throws { setSingle(string(value)) }
    func encode(_ value: Double) throws { try setSingle(try double(value, key: nil)) }
    func encode(_ value: Float) throws { try setSingle(try float(value, key: nil)) }
    func encode(_ value: Int) throws { setSingle(integer(value)) }
    func encode(_ value: Int8) throws { setSingle(integer(value)) }
    func encode(_ value: Int16) throws { setSingle(integer(value)) }
    func encode(_ value: Int32) throws { setSingle(integer(value)) }
    func encode(_ value: Int64) throws { setSingle(integer(value)) }
    func encode(_ value: Int128) throws { setSingle(integer(value)) }
    func encode(_ value: UInt) throws { setSingle(integer(value)) }
    func encode(_ value: UInt8) throws { setSingle(integer(value)) }
    func encode(_ value: UInt16) throws { setSingle(integer(value)) }
    func encode(_ value: UInt32) throws { setSingle(integer(value)) }
    func encode(_ value: UInt64) throws { setSingle(integer(value)) }
    func encode(_ value: UInt128) throws { setSingle(integer(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        try setSingle(try encodeValueInPlace(value) ?? .object(document.makeObject()))
    }
}
