import Foundation
import Logging
import NIOCore
import PostgresNIO

/// A PostgreSQL connection inside a transaction, as a `StoreConnection`: each statement is a postgres-nio
/// query waited for on the calling thread (one of `PostgresStoreDatabase`'s, never an event loop), except
/// those only sent (`send`: `BEGIN`, writes whose count nobody reads), whose answers are collected with
/// the next statement waited for: the server answers in order, so a transaction's round trips are its
/// statements that return something, not all of them.
struct PostgresStoreConnection: StoreConnection {
    let connection: PostgresConnection
    /// How long a statement may go unanswered before its connection is given up (nil: maintenance, no end).
    let deadline: Duration?
    let logger: Logger
    /// Savepoint names are unique within the transaction.
    let savepoints: SavepointCounter
    /// What the transaction tells the other nodes at its commit.
    let notifications: PendingNotifications
    let statements: StatementCounter
    /// Statements sent and not waited for yet.
    let pipeline = SentStatements()
    /// The connection's named statements (`PostgresPreparedStatements`).
    let prepared: PostgresPreparedStatements
    var locksRows: Bool { true }

    func notify(_ channel: StoreChannel, _ payload: String) {
        notifications.add(channel, payload)
    }

    @discardableResult
    func execute(_ sql: String, _ arguments: [StoreValue]) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    func rows(_ sql: String, _ arguments: [StoreValue]) throws -> [StoreRow] {
        if let statement = try preparedStatement(PostgresPreparedStatements.numbered(sql, arguments)) {
            return try Self.rows(of: answer(to: statement, PostgresArguments.data(arguments)))
        }
        return try Self.rows(of: try run(sql, arguments).rows)
    }

    private static func rows(of rows: [PostgresRow]) throws -> [StoreRow] {
        let columns = StoreResultColumns(rows.first.map { $0.map(\.columnName) } ?? [])  // shared by the rows
        return try rows.map { row in StoreRow(columns: columns, values: try row.map(Self.value)) }
    }

    @discardableResult
    func execute(_ sql: String, over set: StoreRowSet) throws -> Int {
        guard !set.isEmpty else { return 0 }
        return try answer(to: Self.query(sql, over: set)).metadata.rows ?? 0
    }

    func rows(_ sql: String, over set: StoreRowSet) throws -> [StoreRow] {
        guard !set.isEmpty else { return [] }
        if let statement = try preparedStatement(set.postgresStatement(sql)) {
            return try Self.rows(of: answer(to: statement, PostgresArguments.data(set)))
        }
        return try Self.rows(of: try answer(to: Self.query(sql, over: set)).rows)
    }

    func send(_ sql: String, over set: StoreRowSet) throws {
        guard !set.isEmpty else { return }
        if let statement = try preparedStatement(set.postgresStatement(sql)) {
            statements.add()
            pipeline.futures.append(statement.execute(try PostgresArguments.data(set)).map { _ in })
            return
        }
        send(try Self.query(sql, over: set))
    }

    /// Writes `query` without waiting for its answer (`SentStatements`).
    func send(_ query: PostgresQuery) {
        statements.add()
        pipeline.futures.append(connection.query(query, logger: logger).map { _ in })
    }

    /// The named statement for `text`, prepared on this connection the first time (one round trip, after
    /// which the statements sent before it have been answered too); nil past the connection's limit.
    private func preparedStatement(_ text: String) throws -> PreparedQuery? {
        try prepared.statement(text, on: connection) { preparing in
            do {
                return try PostgresBoundedWait.answer(to: preparing, on: connection, within: deadline)
            } catch {
                try collectSent()  // a statement sent before failed: the transaction's failure is that one
                throw error
            }
        }
    }

    /// Runs a named statement and waits for its rows, within the deadline.
    private func answer(to statement: PreparedQuery, _ data: [PostgresData]) throws -> [PostgresRow] {
        statements.add()
        let answer = Result {
            try PostgresBoundedWait.answer(to: statement.execute(data), on: connection, within: deadline)
        }
        try collectSent()
        return try answer.get()
    }

    /// Collects the answers of the statements sent before: the first that failed is thrown (the ones after
    /// it in the transaction failed only because it had). Every statement waited for does this, after its
    /// own answer (which comes after theirs).
    func collectSent() throws {
        let (unread, sent) = (pipeline.unread, pipeline.futures)
        (pipeline.unread, pipeline.futures) = ([], [])
        for future in unread { _ = try? PostgresBoundedWait.answer(to: future, on: connection, within: deadline) }
        for future in sent { _ = try PostgresBoundedWait.answer(to: future, on: connection, within: deadline) }
    }

    /// The statement with one array per column of the set (`StoreRowSet.postgresStatement`).
    private static func query(_ sql: String, over set: StoreRowSet) throws -> PostgresQuery {
        PostgresQuery(unsafeSQL: set.postgresStatement(sql), binds: PostgresArguments.bindings(try PostgresArguments.data(set)))
    }

    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        let name = "s\(savepoints.next())"
        try execute("SAVEPOINT \(name)", [])
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(name)", [])
            return result
        } catch {
            try execute("ROLLBACK TO SAVEPOINT \(name)", [])
            throw error
        }
    }

    private func run(_ sql: String, _ arguments: [StoreValue]) throws -> PostgresQueryResult {
        let binds = PostgresArguments.bindings(PostgresArguments.data(arguments))
        return try answer(to: PostgresQuery(unsafeSQL: PostgresPlaceholders.numbered(sql), binds: binds))
    }

    /// Runs `query` and waits for its answer, within the deadline.
    func answer(to query: PostgresQuery) throws -> PostgresQueryResult {
        statements.add()
        let answer = Result {
            try PostgresBoundedWait.answer(to: connection.query(query, logger: logger), on: connection, within: deadline)
        }
        try collectSent()
        return try answer.get()
    }

    /// Queues the transaction's notifications (see `PendingNotifications`); PostgreSQL delivers them when
    /// it commits.
    func sendNotifications(origin: String) {
        guard let query = notifications.query(origin: origin) else { return }
        send(query)
    }

    /// A cell as one of the five kinds: integers of any width, reals, text of any flavour, bytes;
    /// booleans as 0/1 and numerics (a `sum`) as an integer when whole.
    ///
    /// Every result comes in the binary format (postgres-nio's `Bind` asks for it for every column), but
    /// a named statement's cells carry the format its `Describe` reported at preparation (text, as no
    /// `Bind` had chosen one yet): they are read as what they are.
    private static func value(_ cell: PostgresCell) throws -> StoreValue {
        guard cell.bytes != nil else { return .null }
        var cell = cell
        cell.format = .binary
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: return .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
        case .numeric:
            let text = try cell.decode(String.self)
            if let integer = Int64(text) { return .integer(integer) }
            return .real(Double(text) ?? 0)
        default: return .text(try cell.decode(String.self))
        }
    }
}

/// The answers a transaction has not waited for yet (`PostgresStoreConnection.send`).
final class SentStatements: @unchecked Sendable {
    // `@unchecked Sendable`: used by the one thread that runs the transaction.
    var futures: [EventLoopFuture<Void>] = []
    /// The previous read's `COMMIT` on this connection: collected first, its outcome ignored.
    var unread: [EventLoopFuture<Void>] = []
}

/// The next savepoint number of a transaction.
final class SavepointCounter: @unchecked Sendable {
    // `@unchecked Sendable`: used by the one thread that runs the transaction.
    private var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}

/// The notifications of one transaction, each sent once however often its writes asked for it: a
/// transaction appending hundreds of events to a session sends one `NOTIFY`.
final class PendingNotifications: @unchecked Sendable {
    // `@unchecked Sendable`: used by the one thread that runs the transaction.
    private(set) var pending: [(channel: StoreChannel, payload: String)] = []
    private var seen: Set<String> = []

    func add(_ channel: StoreChannel, _ payload: String) {
        guard seen.insert(channel.name + "\u{0}" + payload).inserted else { return }
        pending.append((channel, payload))
    }

    /// All of them in one statement (`pg_notify` over two arrays), or nil when there are none. Each payload
    /// starts with `origin`, so a node ignores its own. Completed tasks go as lists of ids
    /// (`StoreChannel.completions`): a commit of a hundred completions was a hundred notifications, each
    /// queued by PostgreSQL for every listening node and decoded by each, about one per task.
    func query(origin: String) -> PostgresQuery? {
        guard !pending.isEmpty else { return nil }
        var channels: [String] = []
        var payloads: [String] = []
        var completed: [String] = []
        for (channel, payload) in pending {
            if channel == .completions {
                completed.append(payload)
            } else {
                channels.append(channel.name)
                payloads.append("\(origin) \(payload)")
            }
        }
        for list in Self.lists(completed, prefix: origin) {
            channels.append(StoreChannel.completions.name)
            payloads.append(list)
        }
        var binds = PostgresBindings(capacity: 2)
        binds.append(channels)
        binds.append(payloads)
        return PostgresQuery(unsafeSQL: "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n(c, p)", binds: binds)
    }

    /// `ids` as payloads `"<prefix> id id …"`, each within `limit` bytes (PostgreSQL refuses a payload of
    /// 8,000 bytes or more).
    static func lists(_ ids: [String], prefix: String, limit: Int = 7_000) -> [String] {
        var lists: [String] = []
        var list = prefix
        for id in ids {
            if list.utf8.count > prefix.utf8.count, list.utf8.count + 1 + id.utf8.count > limit {
                lists.append(list)
                list = prefix
            }
            list += " " + id
        }
        if list.utf8.count > prefix.utf8.count { lists.append(list) }
        return lists
    }
}

/// A statement PostgreSQL refused, with its SQLSTATE (`23505` a unique violation, …).
public struct PostgresStoreError: Error, CustomStringConvertible {
    public let sqlState: String?
    public let message: String

    /// A failure of the connection rather than of a statement (closed, or no answer in time).
    init(message: String) {
        sqlState = nil
        self.message = message
    }

    /// A statement refused on the prepared path, which reports errors in postgres-nio's older form.
    init(_ error: PostgresError) {
        switch error {
        case .server(let server):
            sqlState = server.fields[.sqlState]
            message = server.fields[.message] ?? "the server refused the statement"
        case .protocol(let problem):
            sqlState = nil
            message = "protocol error: \(problem)"
        case .connectionClosed:
            sqlState = nil
            message = "the connection to the database is closed"
        }
    }

    init(_ error: PSQLError) {
        sqlState = error.serverInfo?[.sqlState]
        // Never `String(reflecting:)`: PSQLError's full description holds the query and its bindings.
        message = error.serverInfo?[.message] ?? (["\(error.code)"] + (error.underlying.map { ["\($0)"] } ?? [])).joined(separator: ": ")
    }

    public var description: String { "PostgreSQL \(sqlState ?? "error"): \(message)" }
}
