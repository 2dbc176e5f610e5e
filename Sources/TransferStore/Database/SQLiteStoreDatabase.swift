import Foundation
import GRDB

/// The SQLite backend: GRDB's pool (one writer, concurrent readers in WAL mode) behind `StoreDatabase`.
/// Statements are prepared once per connection (GRDB's statement cache).
struct SQLiteStoreDatabase: StoreDatabase {
    let pool: DatabasePool

    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await pool.write { db in try body(SQLiteStoreConnection(db: db)) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await pool.read { db in try body(SQLiteStoreConnection(db: db)) }
    }
}

/// A GRDB connection inside a transaction, as a `StoreConnection`.
struct SQLiteStoreConnection: StoreConnection {
    let db: Database
    var locksRows: Bool { false }

    func notify(_ channel: StoreChannel, _ payload: String) {}

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        let statement = try db.cachedStatement(sql: sql)
        try statement.execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
        let statement = try db.cachedStatement(sql: sql)
        let names = statement.columnNames
        // A cursor's row is read in place, column by column: no row is copied on the way.
        let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(arguments))
        var rows: [StoreRow] = []
        while let row = try cursor.next() {
            var values: [StoreValue] = []
            values.reserveCapacity(names.count)
            for index in 0..<names.count { values.append(Self.value(row[index] as DatabaseValue)) }
            rows.append(StoreRow(names: names, values: values))
        }
        return rows
    }

    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try db.inSavepoint {
            result = try body()
            return .commit
        }
        return result!
    }

    private static func arguments(_ values: [StoreValue]) -> StatementArguments {
        StatementArguments(
            values.map { value -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let integer): integer.databaseValue
                case .real(let real): real.databaseValue
                case .text(let text): text.databaseValue
                case .blob(let bytes): Data(bytes).databaseValue
                }
            })
    }

    private static func value(_ value: DatabaseValue) -> StoreValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .blob(Array(data))
        }
    }
}
