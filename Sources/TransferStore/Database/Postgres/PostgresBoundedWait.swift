import NIOCore
import PostgresNIO
import TransferModels

/// The wait of a worker's thread for an answer from PostgreSQL, with the two ends postgres-nio does not
/// give it: the answer is late (the network is partitioned: the connection stays open, nothing flows),
/// or it will never come (the query was written after the connection closed).
enum PostgresBoundedWait {
    /// Waits on the calling thread (never an event loop) for `future`. Past `deadline` it runs `late` on
    /// the loop, once, and only when the answer has not come meanwhile, and throws once what `late`
    /// returned has completed (the connection closed: the thread's next transaction finds it so).
    ///
    /// With `connection`, `future` is a statement's answer on it. A statement written once the connection
    /// has closed is dropped with its promise (the channel's handlers are gone), so the connection is
    /// looked at on the loop after the write (an event loop runs what it is given in order): closed then,
    /// the wait ends at once.
    static func wait<Value: Sendable>(
        for future: EventLoopFuture<Value>, on connection: PostgresConnection? = nil, within deadline: Duration?,
        late: @escaping @Sendable () -> EventLoopFuture<Void>? = { nil }
    ) throws -> Value {
        let outcome = Outcome(future.eventLoop.makePromise(of: Value.self))
        future.whenComplete { result in
            if outcome.claim() { outcome.promise.completeWith(result) }
        }
        if let connection {
            future.eventLoop.execute {
                guard connection.isClosed, outcome.claim() else { return }
                outcome.promise.fail(PostgresStoreError(message: "the connection to the database is closed"))
            }
        }
        let timer = deadline.map { deadline in
            future.eventLoop.scheduleTask(in: TimeAmount(deadline)) {
                guard outcome.claim() else { return }
                let failure = PostgresStoreError(message: "no answer from the database within \(deadline)")
                guard let cleanup = late() else { return outcome.promise.fail(failure) }
                cleanup.whenComplete { _ in outcome.promise.fail(failure) }
            }
        }
        defer { timer?.cancel() }
        do {
            return try outcome.promise.futureResult.wait()
        } catch let error as PSQLError {
            throw PostgresStoreError(error)
        } catch let error as PostgresError {
            throw PostgresStoreError(error)
        }
    }

    /// A statement's answer on `connection`; late, the connection is closed, and its next transaction
    /// opens another.
    static func answer<Value: Sendable>(
        to future: EventLoopFuture<Value>, on connection: PostgresConnection, within deadline: Duration?
    ) throws -> Value {
        try wait(for: future, on: connection, within: deadline) { connection.close() }
    }

    /// The one result a wait gets: the answer's, the closed connection's or the deadline's, whichever comes first
    /// (all on the loop).
    private final class Outcome<Value: Sendable>: Sendable {
        let promise: EventLoopPromise<Value>
        private let settled = LockedBox(false)

        init(_ promise: EventLoopPromise<Value>) { self.promise = promise }

        /// Whether the caller's result is the one the wait gets (it then completes `promise`).
        func claim() -> Bool {
            settled.withLock { settled in
                defer { settled = true }
                return !settled
            }
        }
    }
}
