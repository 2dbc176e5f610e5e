import GRDB
import GRDBSQLite

/// A statement's values are bound, and its rows read, with SQLite's own calls on GRDB's statement.
///
/// Through GRDB each value became an existential, then a `DatabaseValue`, then a copy in GRDB's argument
/// array before it was bound, and each column of a row a `DatabaseValue` before it became a `StoreValue`:
/// in the small-task profile that conversion cost as much as SQLite's own work for a batch's event insert
/// (its 64 rows of 7 values), about 5 % of the service's CPU over all the writer's statements.
///
/// GRDB still runs the statement — `execute()` and `Row.fetchCursor` — so its transaction observers (the task
/// read cache's update hook), its statement cache and its errors work as before. It is handed no arguments
/// (`setUncheckedArguments`: it resets the statement, clears its bindings and marks its arguments bound, so it
/// binds nothing again) and the values are bound after, their count checked here instead.
extension SQLiteStoreConnection {
    /// Binds `values` to `statement`'s parameters, in order.
    static func bind(_ values: [StoreValue], to statement: Statement) throws {
        let handle = statement.sqliteStatement
        let parameters = Int(sqlite3_bind_parameter_count(handle))
        guard parameters == values.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(values.count) values for a statement that takes \(parameters)",
                sql: statement.sql)
        }
        // Reset first: a reset answers with the error of a failed last step (once), and GRDB's own, in
        // `setUncheckedArguments`, traps on an error. (GRDB drops a statement whose step failed from its cache,
        // so none should come back here; this makes sure.)
        sqlite3_reset(handle)
        statement.setUncheckedArguments(StatementArguments())
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                continue
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(handle, index, real)
            case .text(var text):
                // SQLite copies the bytes (`SQLITE_TRANSIENT`); an empty text is bound from a literal, as a
                // null pointer would bind NULL.
                code = text.withUTF8 { utf8 in
                    guard let base = utf8.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, transient) }
                    return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        sqlite3_bind_text(handle, index, $0, Int32(utf8.count), transient)
                    }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
                    return sqlite3_bind_blob(handle, index, base, Int32(raw.count), transient)
                }
            }
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding parameter \(index)", sql: statement.sql)
            }
        }
    }

    /// Column `index` of the row `statement` is on, as the store's value.
    static func column(_ index: Int32, of statement: Statement) -> StoreValue {
        let handle = statement.sqliteStatement
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // The text first (it may convert), its length after, as SQLite's documentation orders them.
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .null
        }
    }

    /// SQLite copies a value bound with this destructor before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
