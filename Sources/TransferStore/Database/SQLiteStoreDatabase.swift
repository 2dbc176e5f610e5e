import Foundation
import GRDB

/// The SQLite backend: GRDB's pool (one writer, concurrent readers in WAL mode) behind `StoreDatabase`.
/// Statements are prepared once per connection (GRDB's statement cache).
struct SQLiteStoreDatabase: StoreDatabase {
    let pool: DatabasePool
    let statements = StatementCounter()

    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        statements.add(2)  // GRDB's BEGIN and COMMIT
        return try await pool.write { db in try body(SQLiteStoreConnection(db: db, statements: statements)) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        statements.add(2)
        return try await pool.read { db in try body(SQLiteStoreConnection(db: db, statements: statements)) }
    }
}

/// A GRDB connection inside a transaction, as a `StoreConnection`.
struct SQLiteStoreConnection: StoreConnection {
    let db: Database
    let statements: StatementCounter
    var locksRows: Bool { false }

    func notify(_ channel: StoreChannel, _ payload: String) {}

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        statements.add()
        let statement = try db.cachedStatement(sql: sql)
        try Self.bind(arguments, to: statement)
        try statement.execute()
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
        statements.add()
        let statement = try db.cachedStatement(sql: sql)
        let names = statement.columnNames
        let columns = StoreResultColumns(names)  // shared by the rows
        try Self.bind(arguments, to: statement)
        // The cursor steps the statement; each row's columns are read from SQLite where they are.
        let cursor = try Row.fetchCursor(statement)
        var rows: [StoreRow] = []
        while try cursor.next() != nil {
            var values: [StoreValue] = []
            values.reserveCapacity(names.count)
            for index in 0..<Int32(names.count) { values.append(Self.column(index, of: statement)) }
            rows.append(StoreRow(columns: columns, values: values))
        }
        return rows
    }

    @discardableResult
    func execute(_ sql: String, over set: StoreRowSet) throws -> Int {
        var changed = 0
        for chunk in Self.chunks(of: set) {
            changed += try execute(set.sqliteStatement(sql, count: chunk.count), Array(chunk.joined()))
        }
        return changed
    }

    func rows(_ sql: String, over set: StoreRowSet) throws -> [StoreRow] {
        try Self.chunks(of: set).flatMap { chunk in try rows(set.sqliteStatement(sql, count: chunk.count), Array(chunk.joined())) }
    }

    func send(_ sql: String, over set: StoreRowSet) throws {
        try execute(sql, over: set)
    }

    /// The set in chunks of 64, 16, 4 or 1 rows, the largest that fits first: a statement's text (and so
    /// its entry in the statement cache) depends on its count of rows, and four counts bound how many
    /// versions of each statement are ever prepared.
    private static func chunks(of set: StoreRowSet) -> [ArraySlice<[StoreValue]>] {
        var chunks: [ArraySlice<[StoreValue]>] = []
        var start = 0
        while start < set.rows.count {
            let left = set.rows.count - start
            let size = StoreRowSet.sqliteChunks.first { $0 <= left } ?? 1
            chunks.append(set.rows[start..<start + size])
            start += size
        }
        return chunks
    }

    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        statements.add(2)
        var result: T?
        try db.inSavepoint {
            result = try body()
            return .commit
        }
        return result!
    }
}
