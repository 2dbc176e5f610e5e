/// `WireJSONEncoder`'s keyed container: each member's value is written at once, its key recorded for the
/// final sort.
struct WireJSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: WireJSONEncoder
    let object: Int
    /// The keys from the encoder to this (nested) container.
    var path: [any CodingKey] = []

    var codingPath: [any CodingKey] { encoder.codingPath + path }

    @inline(__always)
    private func set(_ slot: JSONSlot, for key: Key) {
        encoder.document.append(key: key.stringValue, slot: slot, toObject: object)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(encoder.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try encoder.double(value, key: key), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try encoder.float(value, key: key), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(encoder.integer(value), for: key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { set(encoder.integer(value), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try encoder.encodeValue(value, key: key), for: key)
    }

    /// The container already nested at `key` when there is one (Foundation reuses it, or reopens an object
    /// value encoded there), else a new one.
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: Int
        switch encoder.document.latestSlot(forKey: key.stringValue, inObject: object) {
        case .object(let existing)?:
            nested = existing
        case nil:
            nested = encoder.document.makeObject()
            set(.object(nested), for: key)
        default:
            preconditionFailure(
                "Attempt to re-encode into nested KeyedEncodingContainer<\(Key.self)> for key \"\(key.stringValue)\" is invalid: non-keyed container already encoded for this key"
            )
        }
        return KeyedEncodingContainer(WireJSONKeyedContainer<NestedKey>(encoder: encoder, object: nested, path: path + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: Int
        switch encoder.document.latestSlot(forKey: key.stringValue, inObject: object) {
        case .array(let existing)?:
            nested = existing
        case nil:
            nested = encoder.document.makeArray()
            set(.array(nested), for: key)
        default:
            preconditionFailure(
                "Attempt to re-encode into nested UnkeyedEncodingContainer for key \"\(key.stringValue)\" is invalid: keyed container/single value already encoded for this key"
            )
        }
        return WireJSONUnkeyedContainer(encoder: encoder, array: nested, path: path + [key])
    }

    mutating func superEncoder() -> any Encoder {
        WireJSONEncoder(
            document: encoder.document, parent: encoder, key: SuperCodingKey(),
            reference: .member(object: object, key: SuperCodingKey().stringValue))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        WireJSONEncoder(
            document: encoder.document, parent: encoder, key: key, reference: .member(object: object, key: key.stringValue))
    }
}

/// `WireJSONEncoder`'s unkeyed container.
struct WireJSONUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: WireJSONEncoder
    let array: Int
    var path: [any CodingKey] = []

    var codingPath: [any CodingKey] { encoder.codingPath + path }
    var count: Int { encoder.document.count(ofArray: array) }

    private var nextKey: IndexCodingKey { IndexCodingKey(index: count) }

    @inline(__always)
    private func append(_ slot: JSONSlot) { encoder.document.append(slot, toArray: array) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(encoder.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.double(value, key: nextKey)) }
    mutating func encode(_ value: Float) throws { append(try encoder.float(value, key: nextKey)) }
    mutating func encode(_ value: Int) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: Int128) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(encoder.integer(value)) }
    mutating func encode(_ value: UInt128) throws { append(encoder.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.encodeValue(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let nested = encoder.document.makeObject()
        append(.object(nested))
        return KeyedEncodingContainer(WireJSONKeyedContainer<NestedKey>(encoder: encoder, object: nested, path: path + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let nested = encoder.document.makeArray()
        append(.array(nested))
        return WireJSONUnkeyedContainer(encoder: encoder, array: nested, path: path + [key])
    }

    /// Its value is inserted at the current index when the encoder is released, as Foundation does.
    mutating func superEncoder() -> any Encoder {
        let index = count
        return WireJSONEncoder(
            document: encoder.document, parent: encoder, key: IndexCodingKey(index: index),
            reference: .element(array: array, index: index))
    }
}

/// The key of an array element in a coding path: `Index 3`, as Foundation names it.
struct IndexCodingKey: CodingKey {
    let index: Int

    init(index: Int) { self.index = index }
    init?(intValue: Int) { self.index = intValue }
    init?(stringValue: String) { nil }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// The key of `superEncoder()`: `super`.
struct SuperCodingKey: CodingKey {
    init() {}
    init?(intValue: Int) { nil }
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }

    var stringValue: String { "super" }
    var intValue: Int? { nil }
}
