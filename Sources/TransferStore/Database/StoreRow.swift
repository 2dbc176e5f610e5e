import Foundation

/// One row a query returned, its columns by name, whichever backend read it.
public struct StoreRow: Sendable {
    let columns: StoreResultColumns
    let values: [StoreValue]

    /// Column names, in the order of `values`.
    var names: [String] { columns.names }

    init(columns: StoreResultColumns, values: [StoreValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of `column` (a name of the query's result), or null when it has none.
    public subscript(column: String) -> StoreValue {
        guard let index = index(of: column) else { return .null }
        return values[index]
    }

    func index(of column: String) -> Int? { columns.index(of: column) }

    /// The value of the `index`th column.
    public subscript(index: Int) -> StoreValue { values[index] }

    /// The column read as `T`.
    /// - Throws: `StoreRowError` when the row has no such column or holds another kind of value there.
    public func decode<T: StoreColumnValue>(_ type: T.Type = T.self, forColumn column: String) throws -> T {
        guard let index = index(of: column) else { throw StoreRowError(column: column, problem: "no such column") }
        guard let value = T(storeValue: values[index]) else {
            throw StoreRowError(column: column, problem: "\(values[index]) is not a \(T.self)")
        }
        return value
    }

    /// The first column read as `T`.
    public func decodeFirst<T: StoreColumnValue>(_ type: T.Type = T.self) throws -> T {
        guard let first = values.first, let value = T(storeValue: first) else {
            throw StoreRowError(column: names.first ?? "#0", problem: "\(values.first ?? .null) is not a \(T.self)")
        }
        return value
    }
}

/// A column that is missing or does not hold what the store wrote there.
public struct StoreRowError: Error, CustomStringConvertible {
    public var column: String
    public var problem: String
    public var description: String { "column \(column): \(problem)" }
}

/// The columns of a query's result, shared by its rows, found by name in constant time: a record reads
/// each of its forty-odd columns by name, and PostgreSQL folds unquoted names to lower case, so the name as
/// the store writes it (`countOfBytesSent`) is looked for as written, then regardless of case. (A scan
/// with Foundation's case-insensitive compare per lookup was a third of a node's CPU on PostgreSQL.)
final class StoreResultColumns: Sendable {
    let names: [String]
    private let exact: [String: Int]
    private let folded: [FoldedName: Int]

    init(_ names: [String]) {
        self.names = names
        var exact: [String: Int] = [:]
        var folded: [FoldedName: Int] = [:]
        for (index, name) in names.enumerated() {
            if exact[name] == nil { exact[name] = index }
            if folded[FoldedName(name)] == nil { folded[FoldedName(name)] = index }
        }
        (self.exact, self.folded) = (exact, folded)
    }

    func index(of column: String) -> Int? {
        exact[column] ?? folded[FoldedName(column)]
    }
}

/// A column name compared and hashed regardless of ASCII case, without building its lowercased copy.
/// (Column names are ASCII; another byte is compared as it is.)
private struct FoldedName: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    private static func fold(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    static func == (lhs: FoldedName, rhs: FoldedName) -> Bool {
        lhs.name.utf8.count == rhs.name.utf8.count && zip(lhs.name.utf8, rhs.name.utf8).allSatisfy { fold($0) == fold($1) }
    }

    func hash(into hasher: inout Hasher) {
        for byte in name.utf8 { hasher.combine(Self.fold(byte)) }
        hasher.combine(name.utf8.count)
    }
}
