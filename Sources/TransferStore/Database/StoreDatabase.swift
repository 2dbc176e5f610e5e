/// Where the store's rows live: SQLite in the data directory (`SQLiteStoreDatabase`) or a PostgreSQL
/// shared by several nodes (`PostgresStoreDatabase`). Each call is one transaction.
public protocol StoreDatabase: Sendable {
    /// Runs `body` in a write transaction, committed when it returns and rolled back when it throws.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T

    /// Runs `body` in a read-only transaction (one consistent snapshot).
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T

    /// Runs a short `body` in a write transaction that never waits behind `write`'s: a node's lease
    /// renewal, which must go through however busy the node's writes are.
    @discardableResult
    func writeApart<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T
}

extension StoreDatabase {
    /// One writer, one node (SQLite): the same as `write`.
    @discardableResult
    public func writeApart<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await write(body)
    }
}
