/// A connection inside one transaction of either backend: the store's verbs are written once against it.
///
/// Statements are the SQL both SQLite and PostgreSQL read the same way (see `docs/STORE-BACKENDS.md`),
/// with `?` placeholders; the PostgreSQL connection numbers them. Calls are synchronous: a transaction runs
/// on one thread of its backend, as SQLite's writer always did.
public protocol StoreConnection {
    /// Runs a statement that returns no rows; how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int

    /// Runs a query and returns all its rows.
    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow]

    /// Runs a statement over a set of rows (`StoreRowSet`: `{rows}` in `sql` stands for it; the statement
    /// has no other arguments); how many rows it changed. Nothing runs for an empty set.
    @discardableResult
    func execute(_ sql: String, over set: StoreRowSet) throws -> Int

    /// Runs a query over a set of rows (`execute(_:over:)`) and returns all its rows.
    func rows(_ sql: String, over set: StoreRowSet) throws -> [StoreRow]

    /// `execute(_:over:)` for a statement whose answer nobody reads (a write's count, the rows a lock
    /// returns), without waiting for it: PostgreSQL sends it
    /// and the transaction goes on (a failure is thrown by the next statement waited for, at the latest
    /// the commit, which then does not happen): one round trip fewer. SQLite runs it at once.
    func send(_ sql: String, over set: StoreRowSet) throws

    /// Runs `body` in a savepoint: what it wrote is undone when it throws, and the error rethrown.
    func inSavepoint<T>(_ body: () throws -> T) throws -> T

    /// Whether the backend locks rows (PostgreSQL, where several nodes write at once); SQLite's one writer
    /// holds the whole database for the transaction instead.
    var locksRows: Bool { get }

    /// Tells the other nodes `payload` on `channel` once this transaction commits (PostgreSQL's `NOTIFY`:
    /// nothing is sent when it rolls back). Repeats within a transaction are sent once. A no-op on SQLite,
    /// where one process sees every commit.
    func notify(_ channel: StoreChannel, _ payload: String)
}

extension StoreConnection {
    /// Appended to a `SELECT` of a row the transaction then writes back: on PostgreSQL the row is locked
    /// until the commit, so another node's transaction waits and reads what this one wrote (no lost update).
    public var forUpdate: String { locksRows ? " FOR UPDATE" : "" }

    /// Appended to a `SELECT` of rows to claim: rows another node's transaction holds are passed over.
    public var forUpdateSkipLocked: String { locksRows ? " FOR UPDATE SKIP LOCKED" : "" }
}

extension StoreConnection {
    @discardableResult
    public func execute(_ sql: String, _ arguments: any StoreArgument...) throws -> Int {
        try execute(sql, arguments.map(\.storeValue))
    }

    public func rows(_ sql: String, _ arguments: any StoreArgument...) throws -> [StoreRow] {
        try rows(sql, arguments.map(\.storeValue))
    }

    /// The first row, if any.
    public func row(_ sql: String, _ arguments: any StoreArgument...) throws -> StoreRow? {
        try rows(sql, arguments.map(\.storeValue)).first
    }

    /// The first column of the first row, if any row came back.
    public func value<T: StoreColumnValue>(_ sql: String, _ arguments: any StoreArgument..., as type: T.Type = T.self) throws -> T? {
        guard let row = try rows(sql, arguments.map(\.storeValue)).first else { return nil }
        return try row.decodeFirst(T.self)
    }

    /// The first column of every row, for a statement whose arguments are a list (`IN (?, ?, …)`).
    public func values<T: StoreColumnValue>(_ sql: String, _ arguments: [StoreValue], as type: T.Type = T.self) throws -> [T] {
        try rows(sql, arguments).map { try $0.decodeFirst(T.self) }
    }

    /// The first column of every row.
    public func values<T: StoreColumnValue>(_ sql: String, _ arguments: any StoreArgument..., as type: T.Type = T.self) throws -> [T] {
        try rows(sql, arguments.map(\.storeValue)).map { try $0.decodeFirst(T.self) }
    }
}
