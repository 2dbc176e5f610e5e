import Synchronization
import TransferModels

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

    /// Runs `body` as `write` does, on a writer connection of its own where the backend has several
    /// (PostgreSQL): the engine's reports and completions, so that they commit side by side with the API's
    /// creations instead of queueing behind them. What must stay in order still does: every write of a
    /// session's events locks its row first (`lockSessions`), as two nodes' writes do.
    @discardableResult
    func writeReports<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T

    /// Counts every statement this database's connections ran (transaction control included), so a test
    /// or an operator can see what the work costs (`/metrics`: `urlsessiond_store_statements_total`).
    var statements: StatementCounter { get }
}

/// A running count of statements, shared by a database's connections. Atomic rather than locked: it is
/// counted once per statement, inside transactions, on the writer's thread.
public final class StatementCounter: Sendable {
    private let count = Atomic<UInt64>(0)

    public init() {}

    public var value: UInt64 { count.load(ordering: .relaxed) }

    func add(_ statements: Int = 1) {
        count.wrappingAdd(UInt64(statements), ordering: .relaxed)
    }
}

extension StoreDatabase {
    /// One writer, one node (SQLite): the same as `write`.
    @discardableResult
    public func writeApart<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await write(body)
    }

    /// One writer (SQLite): the same as `write`.
    @discardableResult
    public func writeReports<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await write(body)
    }
}
