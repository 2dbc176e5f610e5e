import NIOCore
import PostgresNIO

/// The named prepared statements of one connection, by their text: a statement is parsed and planned
/// once per connection, then only bound and executed (PostgreSQL keeps a generic plan once it costs no
/// more than the custom ones). Measured before: planning alone was 88 ms of the 0.8 s of PostgreSQL CPU
/// that 2,000 small tasks cost (`PG_TOP` with `track_planning`, `Benchmarks/cluster.sh`).
///
/// postgres-nio names prepared statements per Swift type (`PostgresPreparedStatement`: its SQL is a
/// static property), which the store's texts — made at run time, one per statement and row-set shape —
/// do not fit; its `prepare(query:)` takes any text. It lets the server infer the parameters' types, so
/// every placeholder with a value carries a cast to the type the value is sent as (`numbered`): the same
/// types the unnamed statements declare. A null stays bare (any type takes it), so a statement's text
/// depends on which of its arguments are null; at most `limit` texts are kept per connection, and the
/// rest run unnamed.
///
/// Only statements whose answers are rows or nothing use them: postgres-nio's prepared path gives no
/// command tag, so `execute`, which returns the count of rows a write touched, stays unnamed.
///
/// `@unchecked Sendable`: used only on its worker's queue, like the connection it belongs to.
final class PostgresPreparedStatements: @unchecked Sendable {
    static let limit = 512
    private var connection: PostgresConnection?
    private var prepared: [String: PreparedQuery] = [:]

    /// The statement `text` prepared on `connection` (waiting for it the first time), or nil when too many
    /// are kept already. A new connection starts with none.
    func statement(
        _ text: String, on connection: PostgresConnection, prepare: (EventLoopFuture<PreparedQuery>) throws -> PreparedQuery
    ) throws -> PreparedQuery? {
        if self.connection !== connection {
            self.connection = connection
            prepared = [:]
        }
        if let known = prepared[text] { return known }
        guard prepared.count < Self.limit else { return nil }
        let statement = try prepare(connection.prepare(query: text))
        prepared[text] = statement
        return statement
    }

    /// `sql` with its `?` numbered, each followed by the cast of its argument's kind (none for a null).
    static func numbered(_ sql: String, _ arguments: [StoreValue]) -> String {
        PostgresPlaceholders.numbered(sql) { index in
            guard index < arguments.count else { return "" }
            switch arguments[index] {
            case .null: return ""
            case .integer: return "::bigint"
            case .real: return "::float8"
            case .text: return "::text"
            case .blob: return "::bytea"
            }
        }
    }
}
