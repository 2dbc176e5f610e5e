import Foundation
import TransferModels

/// Many rows of one shape given to ONE statement, whatever their number: a batch's events, task updates or
/// completions cost one round trip, not one each.
///
/// A statement names the set where a table would go, as `{rows}` (`INSERT INTO event (…) SELECT … FROM
/// {rows}`, `UPDATE task SET … FROM {rows} WHERE task.id = u.id`); the backend puts its form there, the
/// set's columns named as given under the alias `u`:
/// - PostgreSQL: `unnest($1::text[], $2::bigint[], …) AS u(id, sent, …)`, one array per column. The text
///   is the same for every number of rows, so the server plans it like any other statement.
/// - SQLite: a multi-row `VALUES` in a subquery that names its columns, in chunks of 64, 16, 4 or 1 rows
///   (`sqliteChunks`: the text, and so the cached statement, depends on the count, and the chunks bound how
///   many versions there are; in process, a statement costs microseconds, not a round trip). A statement
///   over a set must therefore treat its rows independently, as an insert or an update by key does.
public struct StoreRowSet: Sendable {
    /// A column's type, which PostgreSQL needs for its array (`text[]`, `bigint[]`, …) even when every row
    /// holds null there.
    public enum ColumnType: Sendable {
        case text, integer, real, blob
    }

    public let columns: [(name: String, type: ColumnType)]
    public private(set) var rows: [[StoreValue]] = []

    public init(_ columns: [(name: String, type: ColumnType)]) {
        self.columns = columns
    }

    /// One column, `ref`, holding `ids` in order (sorted: rows a statement locks are then locked in the
    /// order every batch takes them).
    public static func keys(_ ids: some Sequence<String>) -> StoreRowSet {
        var set = StoreRowSet([("ref", .text)])
        for id in ids.sorted() { set.append([.text(id)]) }
        return set
    }

    public var isEmpty: Bool { rows.isEmpty }

    /// Adds a row: one value per column, in the columns' order.
    public mutating func append(_ values: [StoreValue]) {
        precondition(values.count == columns.count, "a row of a set has one value per column")
        rows.append(values)
    }

    public mutating func append(_ values: any StoreArgument...) {
        append(values.map(\.storeValue))
    }

    /// What stands for the set in a statement.
    public static let placeholder = "{rows}"
    /// The alias its columns are read under.
    public static let alias = "u"
    /// The counts of rows one SQLite statement takes, largest first (its variables are bounded: 32,766 by
    /// default, and a task row has under 40 columns).
    static let sqliteChunks = [64, 16, 4, 1]

    /// The statement with the set as SQLite's `VALUES`, for `count` rows of it. Made once per statement,
    /// column count and row count (a handful of each: `sqliteChunks`), then read from memory.
    func sqliteStatement(_ sql: String, count: Int) -> String {
        Self.statements.text(for: StatementKey(sql: sql, backend: .sqlite, columns: columns.count, rows: count)) {
            let marks = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let values = Array(repeating: marks, count: count).joined(separator: ", ")
            let names = columns.enumerated().map { index, column in "column\(index + 1) AS \(column.name)" }.joined(separator: ", ")
            return Self.substituting(sql, "(SELECT \(names) FROM (VALUES \(values))) AS \(Self.alias)")
        }
    }

    /// The statement with the set as PostgreSQL's `unnest` of one array per column, numbered from `$1`.
    /// Made once per statement.
    func postgresStatement(_ sql: String) -> String {
        Self.statements.text(for: StatementKey(sql: sql, backend: .postgres, columns: columns.count, rows: 0)) {
            let arrays = columns.enumerated().map { index, column in "$\(index + 1)::\(column.type.postgresArray)" }
            let names = columns.map(\.name).joined(separator: ", ")
            return Self.substituting(sql, "unnest(\(arrays.joined(separator: ", "))) AS \(Self.alias)(\(names))")
        }
    }

    /// `sql` with its one `{rows}` replaced (no Foundation bridging: this ran for every batch before the
    /// texts were kept).
    private static func substituting(_ sql: String, _ relation: String) -> String {
        guard let range = sql.range(of: placeholder) else { return sql }
        return String(sql[..<range.lowerBound]) + relation + String(sql[range.upperBound...])
    }

    /// The texts made so far: the store's statements over sets are a few dozen, each in a few row counts.
    private static let statements = StatementTexts()

    private struct StatementKey: Hashable {
        enum Backend { case sqlite, postgres }
        var sql: String
        var backend: Backend
        var columns: Int
        var rows: Int
    }

    private final class StatementTexts: Sendable {
        private let texts = LockedBox<[StatementKey: String]>([:])

        func text(for key: StatementKey, make: () -> String) -> String {
            if let known = texts.withLock({ $0[key] }) { return known }
            let made = make()
            texts.withLock { $0[key] = made }
            return made
        }
    }
}

extension StoreRowSet.ColumnType {
    var postgresArray: String {
        switch self {
        case .text: "text[]"
        case .integer: "bigint[]"
        case .real: "float8[]"
        case .blob: "bytea[]"
        }
    }
}
