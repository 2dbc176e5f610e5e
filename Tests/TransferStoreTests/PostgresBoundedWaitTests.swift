import Foundation
import Logging
import NIOPosix
import PostgresNIO
import Testing
import TransferModels

@testable import TestSupport
@testable import TransferStore

/// A statement's wait ends however the connection fails: closed under it, or silent (a partition).
@Suite("PostgreSQL: waits for an answer that end")
struct PostgresBoundedWaitTests {
    /// postgres-nio drops a query written after its connection closed, promise and all; waited for with
    /// `wait()`, it hung a worker's thread, and with it the node's shutdown, for good.
    @Test(.timeLimit(.minutes(1)))
    func aStatementOnAClosedConnectionFailsAtOnce() async throws {
        let configuration = try PostgresStoreDatabase.configuration(try await PostgresServer.makeDatabase())
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger)
        try await connection.close()
        let store = PostgresStoreConnection(
            connection: connection, deadline: nil, logger: logger, savepoints: SavepointCounter(), notifications: PendingNotifications(),
            statements: StatementCounter(), prepared: PostgresPreparedStatements())
        let outcome = try #require(await Self.offTheCooperativePool { Result { try store.execute("SELECT 1", []) } }, "still waiting")
        #expect(throws: PostgresStoreError.self) { try outcome.get() }
        #expect("\(outcome)".contains("closed"), "\(outcome)")
        // The same through a named statement, which is prepared first.
        let rows = try #require(await Self.offTheCooperativePool { Result { try store.rows("SELECT 1", []) } }, "still waiting")
        #expect(throws: PostgresStoreError.self) { try rows.get() }
    }

    /// Cut off (connections open, nothing flows), each statement fails within the deadline, and so does
    /// opening another connection; back in touch, the next transaction opens one and succeeds.
    @Test(.timeLimit(.minutes(1)))
    func aDatabaseCutOffFailsWithinTheDeadlineAndIsUsedAgainAfter() async throws {
        let server = try await PostgresServer.shared()
        let relay = try await FixtureScript.start("pausable_relay.py", arguments: ["--target-port", "\(server.port)"])
        defer { relay.stop() }
        let url = try await PostgresServer.makeDatabase().replacingOccurrences(of: ":\(server.port)/", with: ":\(relay.port)/")
        let database = try await PostgresStoreDatabase(
            url: url, readers: 1, statementDeadline: .milliseconds(500), logger: Logger(label: "test"))
        #expect(try await database.read { db in try db.value("SELECT 1", as: Int.self) } == 1)

        relay.send(signal: SIGUSR1)
        for what in ["a statement on the open connection", "opening another"] {
            let began = ContinuousClock.now
            await #expect(throws: PostgresStoreError.self, "\(what)") {
                try await database.write { db in try db.execute("SELECT 1") }
            }
            let waited = ContinuousClock.now - began
            #expect(waited >= .milliseconds(450) && waited < .seconds(5), "\(what): \(waited)")
        }

        relay.send(signal: SIGUSR2)
        #expect(try await database.write { db in try db.value("SELECT 2", as: Int.self) } == 2)
        #expect(try await database.read { db in try db.value("SELECT 3", as: Int.self) } == 3)
        await database.close()
    }

    /// Runs a blocking `body` on a thread of its own (a worker's wait is never made on the cooperative
    /// pool); nil when it has not returned within `limit`, as it never did before the fix.
    private static func offTheCooperativePool<T: Sendable>(within limit: Double = 10, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { continuation in
            let answered = LockedBox(false)
            let answer: @Sendable (T?) -> Void = { value in
                let first = answered.withLock { answered in
                    defer { answered = true }
                    return !answered
                }
                if first { continuation.resume(returning: value) }
            }
            DispatchQueue.global().async { answer(body()) }
            DispatchQueue.global().asyncAfter(deadline: .now() + limit) { answer(nil) }
        }
    }
}
