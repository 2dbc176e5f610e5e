import TransferModels

/// A response body written while it is sent, for answers that stay open (server-sent events).
///
/// One producer — an async function run by the server's task group once the headers are on their way —
/// appends bytes with `write(_:)`; MHD's content-reader callback takes them on the connection's thread
/// (`ResponseStream+MHD.swift`). When nothing is buffered the reader parks the connection
/// (`MHD_suspend_connection`) instead of returning "nothing yet" over and over, and the next `write`,
/// `finish` or `abort` resumes it: an idle stream costs no CPU.
///
/// The stream ends when the producer finishes it (the body then ends cleanly after the buffered bytes),
/// or is aborted: the client went away (NOTIFY_COMPLETED, or a hang-up seen while parked), or the
/// producer failed (the connection is then closed without the final chunk, so the client sees an error).
public final class ResponseStream: Sendable {
    enum End: Sendable { case finished, aborted }

    struct State {
        var buffer: [UInt8] = []
        /// Bytes at the front of `buffer` already handed to MHD.
        var sent = 0
        var end: End?
        /// Set when MHD queued the response; nil again after NOTIFY_COMPLETED.
        var connection: OpaquePointer?
        var socket: Int32 = -1
        /// The reader suspended the connection and nobody resumed it yet.
        var isParked = false
        /// The producer, waiting for the client to read (see `highWater`).
        var roomWaiter: CheckedContinuation<Void, Never>?
        var closeHandlers: [@Sendable () -> Void] = []

        var pending: Int { buffer.count - sent }
    }

    /// A producer that gets this far ahead of the client waits, so a slow reader cannot grow the buffer.
    static let highWater = 256 * 1024
    let state = LockedBox(State())
    /// The body's length when known in advance (sent as Content-Length; a stream that ends short of it
    /// closes the connection, so the client sees the body is incomplete); nil: chunked.
    let length: UInt64?
    private let producer: @Sendable (ResponseStream) async -> Void

    /// - Parameters:
    ///   - length: the number of bytes the producer will write, when known.
    ///   - producer: writes the body, and returns when it is done or the stream is closed.
    public init(length: UInt64? = nil, producer: @escaping @Sendable (ResponseStream) async -> Void) {
        self.length = length
        self.producer = producer
    }

    /// Whether the stream ended (finished or aborted): writes are refused from then on.
    public var isClosed: Bool { state.withLock { $0.end != nil } }

    /// Appends `bytes` for the client, first waiting while `highWater` bytes are still unread.
    /// - Returns: false when the stream is closed (the bytes are dropped).
    @discardableResult
    public func write(_ bytes: [UInt8]) async -> Bool {
        await waitForRoom()
        let (accepted, parked) = state.withLock { state -> (Bool, OpaquePointer?) in
            guard state.end == nil else { return (false, nil) }
            state.buffer.append(contentsOf: bytes)
            return (true, Self.unpark(&state))
        }
        if let parked { resume(parked) }
        return accepted
    }

    /// Ends the body once the buffered bytes are sent. Harmless when already closed.
    public func finish() { close(.finished) }

    /// Closes the connection without ending the body properly (the client sees a failed transfer).
    public func abort() { close(.aborted) }

    /// Runs `handler` once the stream closes (at once when it already has), e.g. to wake the producer.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let closed = state.withLock { state -> Bool in
            if state.end == nil { state.closeHandlers.append(handler) }
            return state.end != nil
        }
        if closed { handler() }
    }

    /// Runs the producer, then finishes the stream whatever the producer left undone.
    func run() async {
        await producer(self)
        finish()
    }

    /// NOTIFY_COMPLETED: the connection is gone (the body was sent, or the client left); stop producing.
    func detach() {
        state.withLock { state in
            state.connection = nil  // first: a closed connection must never be resumed
            state.socket = -1
            state.isParked = false
        }
        close(.aborted)
    }

    private func close(_ end: End) {
        let (parked, waiter, handlers) = state.withLock {
            state -> (OpaquePointer?, CheckedContinuation<Void, Never>?, [@Sendable () -> Void]) in
            // A finished stream may still be aborted (its client left before the last bytes); nothing else changes an end.
            guard state.end == nil || (end == .aborted && state.end == .finished) else { return (nil, nil, []) }
            state.end = end
            if end == .aborted {
                state.buffer = []
                state.sent = 0
            }
            let waiter = state.roomWaiter
            state.roomWaiter = nil
            let handlers = state.closeHandlers
            state.closeHandlers = []
            return (Self.unpark(&state), waiter, handlers)
        }
        if let parked { resume(parked) }  // the reader then ends the body or the connection
        waiter?.resume()
        for handler in handlers { handler() }
    }

    private func waitForRoom() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                guard state.end == nil, state.pending >= Self.highWater else { return true }
                state.roomWaiter = continuation  // one producer: at most one waiter
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The connection to resume, when the reader parked it; the caller resumes it outside the lock.
    static func unpark(_ state: inout State) -> OpaquePointer? {
        guard state.isParked, let connection = state.connection else { return nil }
        state.isParked = false
        return connection
    }
}
