import Foundation

/// One row a query returned, its columns by name, whichever backend read it.
public struct StoreRow: Sendable {
    /// Column names, in the order of `values`; a query's rows share one array.
    let names: [String]
    let values: [StoreValue]

    /// The value of `column` (a name of the query's result), or null when it has none.
    public subscript(column: String) -> StoreValue {
        guard let index = index(of: column) else { return .null }
        return values[index]
    }

    /// Where `column` is: PostgreSQL folds unquoted names to lower case, so the name as the store writes
    /// it (`countOfBytesSent`) is looked for as written, then regardless of case.
    private func index(of column: String) -> Int? {
        names.firstIndex(of: column) ?? names.firstIndex { $0.caseInsensitiveCompare(column) == .orderedSame }
    }

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
