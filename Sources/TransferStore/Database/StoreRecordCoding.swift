import Foundation
import TransferModels

// `Codable` records read from and written to rows as GRDB's Codable records were, so rows written
// before keep reading the same: a property of one of the column kinds is that column; a value that
// encodes as one (an enumeration's raw text) is that text; anything else (a nested structure) is JSON
// text, written with sorted keys, dates as milliseconds since 1970 and data as base64.

extension StoreRow {
    /// The row as a `Decodable` record whose properties are its columns.
    public func decode<R: Decodable>(_ type: R.Type) throws -> R {
        try R(from: StoreRowDecoder(row: self))
    }
}

/// A row's columns as a statement writes them, in order: a record's encoding (`TaskRecord.columns`).
public typealias StoreColumns = [(name: String, value: StoreValue)]

extension StoreConnection {
    /// Inserts `record` into `table` (its encoded properties as columns; nil ones left to their
    /// defaults) and returns the new row's `rowid` when the table has one (`returningRowID`).
    @discardableResult
    public func insert<R: Encodable>(_ record: R, into table: String, returningRowID: Bool = false) throws -> Int64? {
        try insert(columns: try StoreColumnsEncoder.columns(of: record), into: table, returningRowID: returningRowID)
    }

    /// Inserts one row of `columns` into `table` and returns its `rowid` when asked (`returningRowID`).
    @discardableResult
    public func insert(columns: StoreColumns, into table: String, returningRowID: Bool = false) throws -> Int64? {
        let sql = Self.insertion(into: table, columns.map(\.name))
        guard returningRowID else {
            try execute(sql, columns.map(\.value))
            return nil
        }
        return try rows(sql + " RETURNING rowid", columns.map(\.value)).first?.decodeFirst(Int64.self)
    }

    /// Inserts `record`, or updates every other column of the row that has its `key` (an update in
    /// place: rows that reference it stay). A nil property is written as null, as GRDB's upsert did (a
    /// column the new version no longer has is cleared); a nil `rowid` is left to the table.
    public func upsert<R: Encodable>(_ record: R, into table: String, key: [String]) throws {
        let columns = try StoreColumnsEncoder.columns(of: record, includingNil: true).filter { $0.name != "rowid" || $0.value != .null }
        let updates = columns.map(\.name).filter { !key.contains($0) }.map { "\(Self.quoted($0)) = excluded.\(Self.quoted($0))" }
        let sql =
            Self.insertion(into: table, columns.map(\.name))
            + " ON CONFLICT (\(key.map(Self.quoted).joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
        try execute(sql, columns.map(\.value))
    }

    /// Writes `record` over the row of `table` whose `key` column holds the record's value there: every
    /// other encoded column (only those named in `only`, when given), never `rowid` (the insertion order).
    /// Returns how many rows changed (0: no such row).
    @discardableResult
    public func update<R: Encodable>(_ record: R, in table: String, key: String, only: [String]? = nil) throws -> Int {
        var columns = try StoreColumnsEncoder.columns(of: record, includingNil: true)
        if let only { columns = columns.filter { $0.name == key || only.contains($0.name) } }
        return try update(columns: columns, in: table, key: key)
    }

    /// `update(_:in:key:only:)` for a row given as its columns (`key` among them).
    @discardableResult
    public func update(columns: StoreColumns, in table: String, key: String) throws -> Int {
        guard let keyValue = columns.first(where: { $0.name == key })?.value else {
            throw StoreRowError(column: key, problem: "the key of an update is not among its columns")
        }
        let set = columns.filter { $0.name != key && $0.name != "rowid" }
        let sql =
            "UPDATE \(table) SET \(set.map { "\(Self.quoted($0.name)) = ?" }.joined(separator: ", ")) WHERE \(Self.quoted(key)) = ?"
        return try execute(sql, set.map(\.value) + [keyValue])
    }

    private static func insertion(into table: String, _ names: [String]) -> String {
        let key = InsertionKey(table: table, names: names)
        if let known = insertions.withLock({ $0[key] }) { return known }
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let sql = "INSERT INTO \(table) (\(names.map(quoted).joined(separator: ", "))) VALUES (\(marks))"
        insertions.withLock { $0[key] = sql }
        return sql
    }

    /// A name in lower case is quoted (`"user"` is reserved in PostgreSQL), which matches what either
    /// backend made of it unquoted; one with capitals is not (PostgreSQL folds unquoted names to lower
    /// case, quoted ones keep theirs).
    private static func quoted(_ name: String) -> String { name == name.lowercased() ? "\"\(name)\"" : name }

    /// Inserts every row of `set` into `table` with one statement, the set's columns the table's of those
    /// names (`StoreRowSet(records:types:)`).
    func insert(_ set: StoreRowSet, into table: String) throws {
        try send(Self.insertion(into: table, from: set), over: set)
    }

    /// `insert(_:into:)` that answers the new rows' `returning` columns (`"id, rowid"`).
    func insert(_ set: StoreRowSet, into table: String, returning: String) throws -> [StoreRow] {
        try rows(Self.insertion(into: table, from: set) + " RETURNING \(returning)", over: set)
    }

    /// `upsert(_:into:key:)` for every row of `set`, with one statement. A set must not name one key twice
    /// (PostgreSQL refuses an upsert that would change a row twice).
    func upsert(_ set: StoreRowSet, into table: String, key: [String]) throws {
        let names = set.columns.map(\.name)
        let updates = names.filter { !key.contains($0) }.map { "\(Self.quoted($0)) = excluded.\(Self.quoted($0))" }
        try send(
            Self.insertion(into: table, from: set)
                + " ON CONFLICT (\(key.map(Self.quoted).joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))",
            over: set)
    }

    /// `INSERT INTO table (…) SELECT … FROM {rows} WHERE true` (`WHERE true`: SQLite would read an
    /// `ON CONFLICT` right after `FROM …` as the join's).
    private static func insertion(into table: String, from set: StoreRowSet) -> String {
        let names = set.columns.map { quoted($0.name) }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(names)) SELECT \(names) FROM \(StoreRowSet.placeholder) WHERE true"
    }
}

extension StoreRowSet {
    /// Rows given as their columns, each the same columns in the same order (a record's encoding);
    /// `types` names the columns that do not hold text. No rows: an empty set.
    init(rows: [StoreColumns], types: [String: ColumnType]) {
        self.init((rows.first ?? []).map { ($0.name, types[$0.name] ?? .text) })
        for row in rows { append(row.map(\.value)) }
    }

    /// `records` as rows, every property a column (nil ones null), for `insert(_:into:)` and
    /// `upsert(_:into:key:)` over a set.
    init<R: Encodable>(records: [R], types: [String: ColumnType]) throws {
        self.init(rows: try records.map { try StoreColumnsEncoder.columns(of: $0, includingNil: true) }, types: types)
    }
}

/// A record read as something other than a row of named columns (a list, a single value).
struct UnsupportedColumnValue: Error, CustomStringConvertible {
    var key: String
    var description: String { "\(key): a record is read from a row of named columns" }
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

        func contains(_ key: Key) -> Bool { row.index(of: key.stringValue) != nil }
        func decodeNil(forKey key: Key) throws -> Bool { row[key.stringValue] == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try ColumnCoding.decode(T.self, from: row[key.stringValue], column: key.stringValue)
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
    /// Whether a nil optional property is a column (null): an update writes it, an insertion leaves the
    /// column to its default (`rowid` above all).
    let includesNil: Bool
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private init(includesNil: Bool) { self.includesNil = includesNil }

    static func columns<R: Encodable>(of record: R, includingNil: Bool = false) throws -> [(name: String, value: StoreValue)] {
        let encoder = StoreColumnsEncoder(includesNil: includingNil)
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

        // A synthesized `encode(to:)` writes an optional property with `encodeIfPresent`, which skips nil.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

        private func present<T: Encodable>(_ value: T?, _ key: Key) throws {
            if let value {
                try encode(value, forKey: key)
            } else if encoder.includesNil {
                try encodeNil(forKey: key)
            }
        }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            encoder.columns.append((key.stringValue, try ColumnCoding.encode(value)))
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

/// One column's value as a Swift value, the way GRDB reads and writes a record's property.
enum ColumnCoding {
    static func decode<T: Decodable>(_ type: T.Type, from value: StoreValue, column: String) throws -> T {
        if let kind = T.self as? any StoreColumnValue.Type {
            guard let decoded = kind.init(storeValue: value) as? T else {
                throw StoreRowError(column: column, problem: "\(value) is not a \(T.self)")
            }
            return decoded
        }
        do {
            return try T(from: SingleColumnDecoder(value: value, column: column))
        } catch is NestedValue {
            guard case .text(let text) = value else { throw StoreRowError(column: column, problem: "\(value) is not JSON text") }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .millisecondsSince1970
            decoder.dataDecodingStrategy = .base64
            return try decoder.decode(T.self, from: Data(text.utf8))
        }
    }

    static func encode<T: Encodable>(_ value: T) throws -> StoreValue {
        if let argument = value as? any StoreArgument { return argument.storeValue }
        let single = SingleColumnEncoder()
        try value.encode(to: single)
        if !single.isNested, let encoded = single.value { return encoded }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.dataEncodingStrategy = .base64
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The value is a structure, not one column value: it is JSON.
    struct NestedValue: Error {}
}

/// Decodes a value that reads itself from one single value (an enumeration from its raw text).
private struct SingleColumnDecoder: Decoder, SingleValueDecodingContainer {
    let value: StoreValue
    let column: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw ColumnCoding.NestedValue() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ColumnCoding.NestedValue() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ColumnCoding.decode(T.self, from: value, column: column) }
}

/// Encodes a value that writes itself as one single value; notes when it is a structure instead.
private final class SingleColumnEncoder: Encoder, SingleValueEncodingContainer {
    var value: StoreValue?
    var isNested = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        isNested = true
        return KeyedEncodingContainer(Ignored<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        isNested = true
        return IgnoredList()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode<T: Encodable>(_ value: T) throws { self.value = try ColumnCoding.encode(value) }

    /// What a structure encodes is dropped: the caller encodes it again as JSON.
    private struct Ignored<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
            NestedKey
        > {
            KeyedEncodingContainer(Ignored<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { IgnoredList() }
        mutating func superEncoder() -> any Encoder { SingleColumnEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { SingleColumnEncoder() }
    }

    private struct IgnoredList: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Ignored<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { IgnoredList() }
        mutating func superEncoder() -> any Encoder { SingleColumnEncoder() }
    }
}

/// Which columns an insertion names: the statement text is made once per shape (a task creation's 36
/// columns were quoted and joined again on every insert).
private struct InsertionKey: Hashable {
    let table: String
    let names: [String]
}

/// The insert statements made so far, by shape (a handful: one per table and set of columns).
private let insertions = LockedBox<[InsertionKey: String]>([:])
