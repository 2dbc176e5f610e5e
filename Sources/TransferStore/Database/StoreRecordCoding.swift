import Foundation

// Flat `Codable` records (every stored property a column of one of the five kinds) read from and
// written to rows, as GRDB's Codable records were: a nested value is refused rather than guessed at.

extension StoreRow {
    /// The row as a `Decodable` record whose properties are its columns.
    public func decode<R: Decodable>(_ type: R.Type) throws -> R {
        try R(from: StoreRowDecoder(row: self))
    }
}

extension StoreConnection {
    /// Inserts `record` into `table` (its encoded properties as columns; nil ones left to their
    /// defaults) and returns the new row's `rowid` when the table has one (`returningRowID`).
    @discardableResult
    public func insert<R: Encodable>(_ record: R, into table: String, returningRowID: Bool = false) throws -> Int64? {
        let columns = try StoreColumnsEncoder.columns(of: record)
        // A name in lower case is quoted (`"user"` is reserved in PostgreSQL), which matches what either
        // backend made of it unquoted; one with capitals is not (PostgreSQL folds unquoted names, quoted
        // ones keep their case).
        let names = columns.map { $0.name == $0.name.lowercased() ? "\"\($0.name)\"" : $0.name }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(table) (\(names)) VALUES (\(marks))"
        guard returningRowID else {
            try execute(sql, columns.map(\.value))
            return nil
        }
        return try rows(sql + " RETURNING rowid", columns.map(\.value)).first?.decodeFirst(Int64.self)
    }
}

/// A record property that is not one of the kinds a column holds.
struct UnsupportedColumnValue: Error, CustomStringConvertible {
    var key: String
    var description: String { "\(key) is not a value a column holds (text, integer, real, blob, date, boolean)" }
}

private struct StoreRowDecoder: Decoder {
    let row: StoreRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns(row: row))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw UnsupportedColumnValue(key: "a row") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw UnsupportedColumnValue(key: "a row") }

    struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: StoreRow
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { row.names.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { row.names.contains { $0.caseInsensitiveCompare(key.stringValue) == .orderedSame } }
        func decodeNil(forKey key: Key) throws -> Bool { row[key.stringValue] == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let column = T.self as? any StoreColumnValue.Type else { throw UnsupportedColumnValue(key: key.stringValue) }
            guard let value = column.init(storeValue: row[key.stringValue]) as? T else {
                throw StoreRowError(column: key.stringValue, problem: "\(row[key.stringValue]) is not a \(T.self)")
            }
            return value
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<
            NestedKey
        > {
            throw UnsupportedColumnValue(key: key.stringValue)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw UnsupportedColumnValue(key: key.stringValue)
        }
        func superDecoder() throws -> any Decoder { throw UnsupportedColumnValue(key: "super") }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw UnsupportedColumnValue(key: key.stringValue) }
    }
}

/// Encodes a record into (column, value) pairs, in the order of its properties.
private final class StoreColumnsEncoder: Encoder {
    var columns: [(name: String, value: StoreValue)] = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func columns<R: Encodable>(of record: R) throws -> [(name: String, value: StoreValue)] {
        let encoder = StoreColumnsEncoder()
        try record.encode(to: encoder)
        return encoder.columns
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Columns(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a record is a row, not a list") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("a record is a row, not a value") }

    struct Columns<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: StoreColumnsEncoder
        var codingPath: [any CodingKey] { [] }

        func encodeNil(forKey key: Key) throws { encoder.columns.append((key.stringValue, .null)) }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let argument = value as? any StoreArgument else { throw UnsupportedColumnValue(key: key.stringValue) }
            encoder.columns.append((key.stringValue, argument.storeValue))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            fatalError("\(key.stringValue): a column holds no nested value")
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            fatalError("\(key.stringValue): a column holds no list")
        }
        func superEncoder() -> any Encoder { encoder }
        func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}
