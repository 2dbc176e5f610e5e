public import TransferModels
import WebSockets

/// One open WebSocket as the API uses it (`URLSessionWebSocketTask`'s `send`, `receive`, `sendPing`): the
/// received messages in a bounded buffer, in order, each with its sequence; and the way to the loop for
/// messages and pings to send. Shared between the WebSocket loop (which fills it) and the control plane
/// (which reads it and sends through it).
///
/// The buffer applies backpressure rather than dropping: once it holds `bufferedMessagesLimit` messages or
/// `bufferedBytesLimit` bytes, the loop stops reading the socket (TCP's window then slows the server), and
/// reads again when a reader acknowledges messages (`messages(after:)`: everything up to `after` is taken).
/// So nothing received is ever lost; a reader that never reads stalls its own connection, no other.
///
/// The buffer has one consumer at a time: the API's readers (`messages(after:limit:)`), or a relay that
/// joined a caller's socket to the connection (`attachRelay`), which takes messages as it writes them.
/// While a relay holds it, the API's reads are refused, so no message is taken twice or acknowledged by
/// a reader that never saw it.
public final class WebSocketChannel: Sendable {
    public typealias State = WebSocketConnectionState
    public typealias SendResult = WebSocketSendResult
    public typealias PingResult = WebSocketPingResult
    public typealias RelayAttachment = WebSocketRelayAttachment

    public let id: TransferID
    /// The subprotocol the server chose (`webSocketTask.didOpenWithProtocol`), nil when none.
    public let chosenProtocol: String?
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
        var sends: [UInt64: @Sendable (SendResult) -> Void] = [:]
        var pings: [UInt64: CheckedContinuation<PingResult, Never>] = [:]
        /// The attached relay's wake-up: called (outside the lock) when a message arrives or the connection ends.
        var relayWake: (@Sendable () -> Void)?
        /// How the connection ended (the close frame received, or sent by `cancel(with:reason:)`), once closed.
        var close: WebSocketClose?
    }

    private let store = LockedBox(Store())
    private let commands: @Sendable (WebSocketLoop.Command) -> Void

    init(
        id: TransferID, maximumMessageSize: Int, chosenProtocol: String? = nil,
        commands: @escaping @Sendable (WebSocketLoop.Command) -> Void
    ) {
        self.id = id
        self.chosenProtocol = chosenProtocol
        self.maximumMessageSize = maximumMessageSize
        self.bufferedBytesLimit = max(4 << 20, 2 * maximumMessageSize)
        self.commands = commands
    }

    public var state: State { store.withLock { $0.state } }

    /// How the connection ended — the code and reason of the close frame received, or of the one sent by
    /// `cancel(with:reason:)`; 1006 when it dropped — nil while it is open.
    public var close: WebSocketClose? { store.withLock { $0.close } }

    // MARK: The API's side

    /// The buffered messages after `after` (up to `limit`), in order; those up to `after` are acknowledged
    /// and leave the buffer (`receive` consumed them). Nil while a relay holds the buffer.
    public func messages(after: Int64, limit: Int) -> (items: [WebSocketMessageObject], state: State)? {
        let (page, wake) = store.withLock { store -> ((items: [WebSocketMessageObject], state: State)?, Bool) in
            guard store.relayWake == nil else { return (nil, false) }
            let wake = acknowledge(upTo: after, &store)
            return ((Array(store.messages.prefix(limit)), store.state), wake)
        }
        if wake { commands(.resumeReading(id)) }
        return page
    }

    /// Whether a relay holds the buffer.
    public var hasRelay: Bool { store.withLock { $0.relayWake != nil } }

    /// Makes a relay the buffer's consumer: it takes messages with `relayMessages`, and `wake` is called
    /// whenever one arrives or the connection ends.
    public func attachRelay(wake: @escaping @Sendable () -> Void) -> RelayAttachment {
        store.withLock { store in
            guard store.state == .open else { return .notOpen }
            guard store.relayWake == nil else { return .taken }
            store.relayWake = wake
            return .attached
        }
    }

    /// The relay is gone: what it did not acknowledge stays for the API's readers.
    public func detachRelay() {
        store.withLock { $0.relayWake = nil }
    }

    /// The relay's read: acknowledges the messages up to `after` (written to its caller), and returns the
    /// buffered ones after it, at most `limit` of them, with the channel's state.
    public func relayMessages(after: Int64, limit: Int) -> (items: [WebSocketMessageObject], state: State) {
        let (items, state, wake) = store.withLock { store in
            let wake = acknowledge(upTo: after, &store)
            return (Array(store.messages.prefix(limit)), store.state, wake)
        }
        if wake { commands(.resumeReading(id)) }
        return (items, state)
    }

    /// Removes the messages up to `after`; true when that made room for the stopped loop to read again.
    private func acknowledge(upTo after: Int64, _ store: inout Store) -> Bool {
        let taken = store.messages.prefix { $0.sequence <= after }
        store.bytes -= taken.reduce(0) { $0 + $1.length }
        store.messages.removeFirst(taken.count)
        let wake = store.readingStopped && hasRoom(store)
        if wake { store.readingStopped = false }
        return wake
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
            send(message) { continuation.resume(returning: $0) }
        }
    }

    /// Sends `message`; `completion` is called (on the loop's thread, or at once when the connection is not
    /// open) once it is written. Messages go in the order of the calls, whoever makes them.
    public func send(_ message: WebSocketMessageObject, completion: @escaping @Sendable (SendResult) -> Void) {
        let token = store.withLock { store -> UInt64? in
            guard store.state == .open else { return nil }
            defer { store.nextToken += 1 }
            store.sends[store.nextToken] = completion
            return store.nextToken
        }
        guard let token else { return completion(.notOpen) }
        commands(.send(id, message, token: token))
    }

    /// `cancel(with:reason:)` as the task's relay asks it (its caller's close frame): the close handshake
    /// with `code` and `reason`; the server's close frame then ends the connection without an error.
    public func close(code: Int, reason: String) {
        guard state == .open else { return }
        commands(.close(id, WebSocketClose(code: code, reason: reason)))
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
        let (message, room, readers, relay) = store.withLock { store in
            let message = WebSocketMessageObject(sequence: store.nextSequence, string: string, data: data)
            store.nextSequence += 1
            store.messages.append(message)
            store.bytes += message.length
            let room = hasRoom(store)
            if !room { store.readingStopped = true }
            defer { store.readers = [:] }
            return (message, room, Array(store.readers.values), store.relayWake)
        }
        for reader in readers { reader.resume() }
        relay?()
        return (message, room)
    }

    /// Whether the loop may read more now.
    var acceptsMessages: Bool { store.withLock { !$0.readingStopped } }

    func resolveSend(_ token: UInt64, _ result: SendResult) {
        store.withLock { $0.sends.removeValue(forKey: token) }?(result)
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
        for send in sends { send(.notOpen) }
        for ping in pings { ping.resume(returning: .notOpen) }
    }

    /// The connection ended (how, when known): every waiter returns; the buffered messages stay readable.
    func closed(_ close: WebSocketClose?) {
        closing()
        let (readers, relay) = store.withLock { store in
            store.state = .closed
            store.close = close ?? WebSocketClose(code: WebSocketCloseCode.abnormalClosure.rawValue, reason: "")
            defer { store.readers = [:] }
            return (Array(store.readers.values), store.relayWake)
        }
        for reader in readers { reader.resume() }
        relay?()
    }

    private func wakeReader(_ token: UInt64) {
        store.withLock { $0.readers.removeValue(forKey: token) }?.resume()
    }

    private func hasRoom(_ store: Store) -> Bool {
        store.messages.count < Self.bufferedMessagesLimit && store.bytes < bufferedBytesLimit
    }
}
