import TransferEngine
public import TransferModels

/// A webSocket task's connection as the API uses it (`URLSessionWebSocketTask`'s `send`, `receive`,
/// `sendPing`, and the relay that joins a caller's socket to it): the engine's channel, behind the task layer.
public struct TaskWebSocket: Sendable {
    let channel: WebSocketChannel

    /// The subprotocol the server chose, nil when none.
    public var chosenProtocol: String? { channel.chosenProtocol }
    /// A received message larger than this failed the task; one to send larger than this is refused.
    public var maximumMessageSize: Int { channel.maximumMessageSize }
    public var state: WebSocketConnectionState { channel.state }
    /// How the connection ended, once it has.
    public var close: WebSocketClose? { channel.close }

    /// Sends `message`; answers once it is written (or could not be).
    public func send(_ message: WebSocketMessageObject) async -> WebSocketSendResult { await channel.send(message) }

    /// Sends `message`, calling `completion` once it is written (or could not be).
    public func send(_ message: WebSocketMessageObject, completion: @escaping @Sendable (WebSocketSendResult) -> Void) {
        channel.send(message, completion: completion)
    }

    /// The close handshake with `code` and `reason`.
    public func close(code: Int, reason: String) { channel.close(code: code, reason: reason) }

    /// A ping, answered by the pong or after `timeout`.
    public func sendPing(timeout: Duration) async -> WebSocketPingResult { await channel.sendPing(timeout: timeout) }

    /// The received messages after `after` (which acknowledges those up to it), at most `limit`; nil while a
    /// relay holds the buffer.
    public func messages(after: Int64, limit: Int) -> (items: [WebSocketMessageObject], state: WebSocketConnectionState)? {
        channel.messages(after: after, limit: limit)
    }

    /// Returns once a message after `after` is there, the connection ended, or `timeout` passed.
    public func waitForMessages(after: Int64, timeout: Duration) async {
        await channel.waitForMessages(after: after, timeout: timeout)
    }

    /// Whether a relay holds the buffer.
    public var hasRelay: Bool { channel.hasRelay }

    /// A relay takes the buffer; `wake` is called when a message arrives, a send is written, or the
    /// connection ends.
    public func attachRelay(wake: @escaping @Sendable () -> Void) -> WebSocketRelayAttachment { channel.attachRelay(wake: wake) }

    /// The relay gives the buffer back.
    public func detachRelay() { channel.detachRelay() }

    /// The relay's read: as `messages(after:limit:)`, for the relay that holds the buffer.
    public func relayMessages(after: Int64, limit: Int) -> (items: [WebSocketMessageObject], state: WebSocketConnectionState) {
        channel.relayMessages(after: after, limit: limit)
    }
}
