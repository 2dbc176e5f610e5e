import Foundation
public import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import TransferModels

/// The PostgreSQL backend (`URLSESSIOND_DATABASE_URL=postgres://…`): a connection for writes and a few for
/// reads, each owned by a serial queue of its own that runs a transaction's closure synchronously, its
/// statements waited for there. Several nodes share the database; PostgreSQL's row locks order their
/// writes, as SQLite's one writer orders one node's.
public final class PostgresStoreDatabase: StoreDatabase {
    private let writer: PostgresWorker
    /// `writeReports`' connection: the engine's reports and completions.
    private let reportWriter: PostgresWorker
    private let readers: [PostgresWorker]
    /// `writeApart`'s connection: the lease renewal never queues behind the writer's group commits.
    private let apart: PostgresWorker
    private let nextReader = LockedBox(0)
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    /// Tells this database's notifications from the other nodes' (they start with it): a node ignores its
    /// own, which its feeds saw at the commit already.
    let origin = ResourceID.make(prefix: "node")
    public let statements: StatementCounter

    /// How long a statement, or opening a connection, may go unanswered by default: the connection is then
    /// given up (its transaction fails; the next one opens another). Without it a node cut off from the
    /// database by a partition, its connections open and silent, would wait until TCP gave up, many
    /// minutes, and could not even stop. No statement of the store comes near it; the migrations, which
    /// may rebuild a big table, and maintenance (`VACUUM`) have none.
    public static let defaultStatementDeadline = Duration.seconds(30)

    /// Connects to the database `url` names (`postgres://user:password@host:port/database`).
    public init(
        url: String, readers: Int = 4, statementDeadline: Duration = defaultStatementDeadline, logger: Logger
    ) async throws {
        let configuration = try Self.configuration(url)
        self.configuration = configuration
        self.logger = logger
        let origin = origin
        let statements = StatementCounter()
        self.statements = statements
        func worker(_ id: Int) async throws -> PostgresWorker {
            try await PostgresWorker(
                configuration: configuration, id: id, origin: origin, deadline: statementDeadline, statements: statements, logger: logger)
        }
        // The writer (0), the readers (1…n), `apart` (n + 1) and the report writer (n + 2). One that fails to
        // open closes those opened before it: a connection dropped unclosed is leaked (and postgres-nio
        // asserts on it in debug builds), as a store that could not open took down its test process.
        let count = max(1, readers)
        var opened: [PostgresWorker] = []
        do {
            for id in 0...(count + 2) { opened.append(try await worker(id)) }
        } catch {
            for worker in opened { await worker.close() }
            throw error
        }
        writer = opened[0]
        self.readers = Array(opened[1...count])
        apart = opened[count + 1]
        reportWriter = opened[count + 2]
    }

    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await writer.transaction(readOnly: false, body)
    }

    @discardableResult
    public func writeApart<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await apart.transaction(readOnly: false, body)
    }

    @discardableResult
    public func writeReports<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await reportWriter.transaction(readOnly: false, body)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        let index = nextReader.withLock { next in
            defer { next = (next + 1) % readers.count }
            return next
        }
        return try await readers[index].transaction(readOnly: true, body)
    }

    /// Runs `sql` outside any transaction (`VACUUM` cannot run inside one) on a reader's connection, so
    /// this node's writes go on meanwhile.
    func runOutsideTransaction(_ sql: String) async throws {
        _ = try await readers[0].transaction(readOnly: nil) { db in try db.execute(sql) }
    }

    /// A write transaction whose statements may take as long as they take (the migrations).
    func writeWithoutDeadline<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await writer.transaction(readOnly: false, unbounded: true, body)
    }

    /// Hands what the other nodes' commits notify to `deliver`, on a connection of its own, until the
    /// calling task is cancelled (see `PostgresNotificationListener`).
    func listen(_ deliver: @escaping @Sendable (StoreNotice) -> Void) async {
        let listener = PostgresNotificationListener(
            configuration: configuration, origin: origin, channels: StoreChannel.all, logger: logger)
        await listener.run(deliver)
    }

    /// Closes every connection.
    public func close() async {
        await writer.close()
        await reportWriter.close()
        for reader in readers { await reader.close() }
        await apart.close()
    }

    /// Closes every connection, waiting on the calling thread (a synchronous shutdown path; never call
    /// it on an event loop).
    public func closeConnections() {
        writer.closeWaiting()
        reportWriter.closeWaiting()
        for reader in readers { reader.closeWaiting() }
        apart.closeWaiting()
    }

    /// The connection settings of a `postgres://` (or `postgresql://`) URL. As libpq reads it, a `host`
    /// parameter naming a directory (`postgres://user@/db?host=/run/postgresql`) connects to the server's
    /// Unix socket there (`.s.PGSQL.<port>`), which also reaches a server from another network namespace.
    /// TLS is not offered yet.
    static func configuration(_ url: String) throws -> PostgresConnection.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw PostgresURLError(url: url, problem: "expected postgres://user[:password]@host[:port]/database")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw PostgresURLError(url: url, problem: "the URL names no database") }
        let username = components.user ?? "postgres"
        let port = components.port ?? 5432
        if let directory = components.queryItems?.first(where: { $0.name == "host" })?.value, directory.hasPrefix("/") {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: username, password: components.password, database: database)
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresURLError(url: url, problem: "the URL names no host (nor a socket directory as ?host=/path)")
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: username, password: components.password, database: database, tls: .disable)
    }
}

/// A `URLSESSIOND_DATABASE_URL` that does not name a PostgreSQL database; the password is never repeated.
public struct PostgresURLError: Error, CustomStringConvertible {
    let url: String
    let problem: String
    public var description: String { "\(Self.redacted(url)): \(problem)" }

    /// The URL with its password replaced by `…`, for logs and errors.
    public static func redacted(_ url: String) -> String {
        guard var shown = URLComponents(string: url) else { return "the database URL" }
        if shown.password != nil { shown.password = "…" }
        return shown.string ?? "the database URL"
    }
}

/// One connection and the serial queue that runs its transactions.
final class PostgresWorker: @unchecked Sendable {
    // `@unchecked Sendable`: `connection` and `reading` are replaced only on `queue`.
    private var connection: PostgresConnection
    private let configuration: PostgresConnection.Configuration
    private let id: Int
    /// The database's `origin`, which starts every notification it sends.
    private let origin: String
    /// A statement's, and opening a connection's (see `PostgresStoreDatabase.defaultStatementDeadline`).
    private let deadline: Duration
    private let statements: StatementCounter
    private let logger: Logger
    private let queue: DispatchQueue
    /// The last read's `COMMIT`, sent and not waited for, with the connection it went on (`run`).
    private var reading: (connection: PostgresConnection?, commits: [EventLoopFuture<Void>]) = (nil, [])
    /// The connection's named statements, kept across its transactions.
    private let prepared = PostgresPreparedStatements()

    init(
        configuration: PostgresConnection.Configuration, id: Int, origin: String, deadline: Duration, statements: StatementCounter,
        logger: Logger
    ) async throws {
        self.configuration = configuration
        self.statements = statements
        self.id = id
        self.origin = origin
        self.deadline = deadline
        self.logger = logger
        self.queue = DispatchQueue(label: "urlsessiond.postgres.\(id)")
        do {
            self.connection = try await Self.connect(configuration, id: id, logger: logger).get()
        } catch let error as PSQLError {
            throw PostgresStoreError(error)
        }
    }

    /// A transaction left open by a client that went silent (a node cut off from the database mid-way, or
    /// frozen) is ended by the server after this long: its row locks would otherwise keep the other
    /// nodes from taking the node's tasks over until TCP gave up on it, many minutes later. No transaction
    /// of the store waits on anything but the database between its statements.
    static let idleInTransactionTimeout = "10s"

    private static func connect(
        _ configuration: PostgresConnection.Configuration, id: Int, logger: Logger
    ) -> EventLoopFuture<PostgresConnection> {
        PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
            .flatMap { connection in
                connection.simpleQuery("SET idle_in_transaction_session_timeout = '\(idleInTransactionTimeout)'").map { _ in connection }
            }
    }

    /// `readOnly` nil: no transaction at all, each statement on its own (maintenance). Maintenance and an
    /// `unbounded` transaction have no statement deadline.
    func transaction<T: Sendable>(
        readOnly: Bool?, unbounded: Bool = false, _ body: @escaping @Sendable (any StoreConnection) throws -> T
    ) async throws -> T {
        let deadline = readOnly == nil || unbounded ? nil : self.deadline
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.runRetryingDeadlocks(readOnly: readOnly, deadline: deadline, body) })
            }
        }
    }

    /// Two nodes' transactions that lock the same rows in opposite orders deadlock (a group commit of
    /// completions across sessions against another node's); PostgreSQL aborts one of them (SQLSTATE 40P01),
    /// which runs again from its start after a short random pause, up to eight times. A transaction's body
    /// touches only the database, so running it again is safe.
    private func runRetryingDeadlocks<T>(readOnly: Bool?, deadline: Duration?, _ body: (any StoreConnection) throws -> T) throws -> T {
        for attempt in 1... {
            do {
                return try run(readOnly: readOnly, deadline: deadline, body)
            } catch let error as PostgresStoreError where error.sqlState == "40P01" && attempt < 8 {
                logger.notice("A transaction deadlocked with another node's and runs again", metadata: ["attempt": "\(attempt)"])
                usleep(useconds_t.random(in: 1_000...(5_000 * useconds_t(attempt))))
            }
        }
        fatalError("unreachable: the loop returns or throws")
    }

    /// On `queue`: BEGIN, the body, COMMIT — or ROLLBACK when it throws. A connection found closed (the
    /// server restarted, the network dropped) is opened again first.
    private func run<T>(readOnly: Bool?, deadline: Duration?, _ body: (any StoreConnection) throws -> T) throws -> T {
        if connection.isClosed {
            let opening = Self.connect(configuration, id: id, logger: logger)
            // One that opens too late is closed, never left behind.
            connection = try PostgresBoundedWait.wait(for: opening, within: self.deadline) {
                opening.whenSuccess { late in let _: EventLoopFuture<Void> = late.close() }
                return nil
            }
        }
        let store = PostgresStoreConnection(
            connection: connection, deadline: deadline, logger: logger, savepoints: SavepointCounter(),
            notifications: PendingNotifications(), statements: statements, prepared: prepared)
        if reading.connection === connection { store.pipeline.unread = reading.commits }
        reading = (nil, [])
        guard let readOnly else {
            let result = try body(store)
            try store.collectSent()
            return result
        }
        // A read sees one snapshot, as a SQLite read transaction does. Sent with the first statement.
        store.send(PostgresQuery(unsafeSQL: readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"))
        do {
            let result = try body(store)
            if readOnly {
                // A read's COMMIT ends nothing that could fail: it is sent, and its answer collected by the
                // connection's next transaction (ignored there). A read is one round trip.
                store.send(PostgresQuery(unsafeSQL: "COMMIT"))
                reading = (connection, store.pipeline.futures)
                return result
            }
            store.sendNotifications(origin: origin)
            try store.execute("COMMIT", [])
            return result
        } catch {
            _ = try? store.execute("ROLLBACK", [])
            throw error
        }
    }

    func close() async {
        try? await connection.close()
    }

    /// Closes the connection after the transaction under way, waiting on the calling thread.
    func closeWaiting() {
        queue.sync { try? connection.close().wait() }
    }
}
