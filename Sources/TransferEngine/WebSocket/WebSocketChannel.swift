public import TransferModels

/// One open WebSocket as the API uses it (`URLSessionWebSocketTask`'s `send`, `receive`, `sendPing`): the
/// received messages in a bounded buffer, in order, each with its sequence; and the way to the loop for
/// messages and pings to send. Shared between the WebSocket loop (which fills it) and the control plane
/// (which reads it and sends through it).
///
/// The buffer applies backpressure rather than dropping: once it holds `bufferedMessagesLimit` messages or
/// `bufferedBytesLimit` bytes, the loop stops reading the socket (TCP's window then slows the server), and
/// reads again when a reader acknowledges messages (`messages(after:)`: everything up to `after` is taken).
/// So nothing received is ever lost; a reader that never reads stalls its own connection, no other.
public final class WebSocketChannel: Sendable {
    public enum State: Sendable, Equatable {
        case open
        /// A close frame was sent (`cancel(with:reason:)`); the peer's ends it. No more messages go.
        case closing
        case closed
    }

    /// What happened to a message given to `send`.
    public enum SendResult: Sendable, Equatable {
        /// Written to the connection (`send`'s completion handler with no error).
        case sent
        /// The connection is closing or closed: the message was not sent.
        case notOpen
    }

    public enum PingResult: Sendable, Equatable {
        case pong
        case notOpen
        case timedOut
    }

    public let id: TransferID
    /// A received message larger than this failed the task; one to send larger than this is refused.
    public let maximumMessageSize: Int
    public static let bufferedMessagesLimit = 1024
    /// The most bytes the buffer holds before reading stops: room for at least two messages of the largest size.
    public let bufferedBytesLimit: Int

    private struct Store {
        var messages: [WebSocketMessageObject] = []
        var bytes = 0
        var nextSequence: Int64 = 1
        var state = State.open
        /// The loop stopped reading because the buffer was full; an acknowledgement that makes room wakes it.
        var readingStopped = false
        var nextToken: UInt64 = 1
        var readers: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var sends: [UInt64: CheckedContinuation<SendResult, Never>] = [:]
        var pings: [UInt64: CheckedContinuation<PingResult, Never>] = [:]
    }

    private let store = LockedBox(Store())
    private let commands: @Sendable (WebSocketLoop.Command) -> Void

    init(id: TransferID, maximumMessageSize: Int, commands: @escaping @Sendable (WebSocketLoop.Command) -> Void) {
        self.id = id
        self.maximumMessageSize = maximumMessageSize
        self.bufferedBytesLimit = max(4 << 20, 2 * maximumMessageSize)
        self.commands = commands
    }

    public var state: State { store.withLock { $0.state } }

    // MARK: The API's side

    /// The buffered messages after `after` (up to `limit`), in order; those up to `after` are acknowledged
    /// and leave the buffer (`receive` consumed them).
    public func messages(after: Int64, limit: Int) -> (items: [WebSocketMessageObject], state: State) {
        let (items, state, wake) = store.withLock { store in
            let taken = store.messages.prefix { $0.sequence <= after }
            store.bytes -= taken.reduce(0) { $0 + $1.length }
            store.messages.removeFirst(taken.count)
            let wake = store.readingStopped && hasRoom(store)
            if wake { store.readingStopped = false }
            return (Array(store.messages.prefix(limit)), store.state, wake)
        }
        if wake { commands(.resumeReading(id)) }
        return (items, state)
    }

    /// Returns once a message after `after` is buffered, the connection ended, or `timeout` passed.
    public func waitForMessages(after: Int64, timeout: Duration) async {
        let timer = LockedBox<Task<Void, Never>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let token = store.withLock { store -> UInt64? in
                if store.state == .closed || store.messages.contains(where: { $0.sequence > after }) { return nil }
                defer { store.nextToken += 1 }
                store.readers[store.nextToken] = continuation
                return store.nextToken
            }
            guard let token else { return continuation.resume() }
            // Started once registered, so the timeout cannot come before the waiter it ends.
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: timeout)
                    self.wakeReader(token)
                }
            }
        }
        timer.withLock { $0?.cancel() }
    }

    /// Sends `message` (its `string` or its `data`); returns once it is written to the connection.
    public func send(_ message: WebSocketMessageObject) async -> SendResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<SendResult, Never>) in
            let token = store.withLock { store -> UInt64? in
                guard store.state == .open else { return nil }
                defer { store.nextToken += 1 }
                store.sends[store.nextToken] = continuation
                return store.nextToken
            }
            guard let token else { return continuation.resume(returning: .notOpen) }
            commands(.send(id, message, token: token))
        }
    }

    /// Sends a ping and returns when its pong arrives (`sendPing(pongReceiveHandler:)`), the connection
    /// ends, or `timeout` passes.
    public func sendPing(timeout: Duration) async -> PingResult {
        let timer = LockedBox<Task<Void, Never>?>(nil)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<PingResult, Never>) in
            let token = store.withLock { store -> UInt64? in
                guard store.state == .open else { return nil }
                defer { store.nextToken += 1 }
                store.pings[store.nextToken] = continuation
                return store.nextToken
            }
            guard let token else { return continuation.resume(returning: .notOpen) }
            timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: timeout)
                    self.resolvePing(token, .timedOut)
                }
            }
            commands(.ping(id, token: token))
        }
        timer.withLock { $0?.cancel() }
        return result
    }

    // MARK: The loop's side

    /// Buffers a received message; returns it with its sequence, and whether the buffer still has room.
    func append(string: String?, data: [UInt8]?) -> (WebSocketMessageObject, hasRoom: Bool) {
        let (message, room, readers) = store.withLock { store in
            let message = WebSocketMessageObject(sequence: store.nextSequence, string: string, data: data)
            store.nextSequence += 1
            store.messages.append(message)
            store.bytes += message.length
            let room = hasRoom(store)
            if !room { store.readingStopped = true }
            defer { store.readers = [:] }
            return (message, room, Array(store.readers.values))
        }
        for reader in readers { reader.resume() }
        return (message, room)
    }

    /// Whether the loop may read more now.
    var acceptsMessages: Bool { store.withLock { !$0.readingStopped } }

    func resolveSend(_ token: UInt64, _ result: SendResult) {
        store.withLock { $0.sends.removeValue(forKey: token) }?.resume(returning: result)
    }

    func resolvePing(_ token: UInt64, _ result: PingResult) {
        store.withLock { $0.pings.removeValue(forKey: token) }?.resume(returning: result)
    }

    /// `cancel(with:reason:)` began the close handshake: nothing more is sent.
    func closing() {
        let (sends, pings) = store.withLock { store in
            if store.state == .open { store.state = .closing }
            defer { (store.sends, store.pings) = ([:], [:]) }
            return (Array(store.sends.values), Array(store.pings.values))
        }
        for send in sends { send.resume(returning: .notOpen) }
        for ping in pings { ping.resume(returning: .notOpen) }
    }

    /// The connection ended: every waiter returns; the buffered messages stay readable.
    func closed() {
        closing()
        let readers = store.withLock { store in
            store.state = .closed
            defer { store.readers = [:] }
            return Array(store.readers.values)
        }
        for reader in readers { reader.resume() }
    }

    private func wakeReader(_ token: UInt64) {
        store.withLock { $0.readers.removeValue(forKey: token) }?.resume()
    }

    private func hasRoom(_ store: Store) -> Bool {
        store.messages.count < Self.bufferedMessagesLimit && store.bytes < bufferedBytesLimit
    }
}
