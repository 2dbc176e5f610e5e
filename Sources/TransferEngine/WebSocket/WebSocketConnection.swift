public import Curl
import TransferModels
public import WebSockets

/// What a WebSocket connection reports as its bytes are read, in order.
public enum WebSocketConnectionEvent: Sendable, Equatable {
    /// The server accepted the upgrade (`webSocketTask.didOpenWithProtocol`), with the response head.
    case opened(protocol: String?, response: HTTPResponseHead)
    case message(WebSocketMessage)
    /// A pong answering a ping (the pings of the peer are answered here, and not reported).
    case pong([UInt8])
    /// The close handshake ended, or the connection failed: the code and reason of the peer's close frame,
    /// or `abnormalClosure` when there was none (`webSocketTask.didCloseWith`).
    case closed(code: WebSocketCloseCode, reason: String)
}

/// Why a WebSocket connection ended other than by the close handshake.
public enum WebSocketConnectionError: Error, Sendable, Equatable {
    /// The server did not accept the upgrade (its response head is kept: URLSession shows it on the task).
    case handshake(WebSocketHandshakeError, response: HTTPResponseHead?)
    /// The peer broke the protocol; a close frame with the error's code has been queued.
    case protocolViolation(WebSocketProtocolError)
    /// The connection failed (reset, TLS), or closed before the close handshake.
    case transport(String)
}

/// One client WebSocket over a connection libcurl opened (`CurlConnection`): the opening handshake, frames
/// both ways, pings answered, the close handshake (RFC 6455 §4, §5, §7). It never blocks: `readAvailable()`
/// takes what has arrived, `writePending()` sends what the socket takes, and the owner polls `socket` for
/// reading, and for writing while `hasPendingOutput`.
///
/// States: handshaking → open → closing (a close frame sent, waiting for the peer's) → closed; a close
/// frame received while open is answered and ends it. Confined to the owner's thread.
public final class WebSocketConnection {
    public enum State: Sendable, Equatable {
        case handshaking
        case open
        /// A close frame has been sent; the peer's ends the connection.
        case closing
        case closed
    }

    public private(set) var state = State.handshaking
    /// The close code and reason the connection ended with (`invalid` before it ended).
    public private(set) var closeCode = WebSocketCloseCode.invalid
    public private(set) var closeReason = ""
    public let connection: CurlConnection
    private let handshake: WebSocketHandshake
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    /// Bytes read before the response head was whole.
    private var headBytes: [UInt8] = []
    /// Bytes queued to send, and how many of them were sent.
    private var output: [UInt8] = []
    private var outputSent = 0
    /// Frames sent before the server accepted the upgrade: a client sends nothing after its handshake
    /// until the response (RFC 6455 §4.1), so they go once it is open.
    private var framesAwaitingOpen: [WebSocketFrame] = []
    /// The server's response head accepted the upgrade (frames follow it).
    private var isUpgraded = false

    /// Starts the handshake on a connected `connection`: `target` is the URL's path and query, `host` its
    /// authority, `fields` the request's other header fields (cookies, credentials).
    public init(
        connection: CurlConnection, target: String, host: String, protocols: [String],
        fields: [(name: String, value: String)], maximumMessageSize: Int
    ) {
        self.connection = connection
        handshake = WebSocketHandshake(protocols: protocols)
        parser = WebSocketFrameParser(role: .client, maximumPayload: maximumMessageSize)
        assembler = WebSocketMessageAssembler(maximumMessageSize: maximumMessageSize)
        output = handshake.requestHead(target: target, host: host, fields: fields)
    }

    public var socket: Int32? { connection.socket }
    public var hasPendingOutput: Bool { outputSent < output.count }
    /// The last `readAvailable` stopped at its limit: more may be there without the socket showing it.
    public private(set) var mayHaveMore = false

    /// Queues a message, sent once the connection is open (a message after `close` is refused, as
    /// URLSession's).
    /// - Returns: false when the connection is closing or closed.
    @discardableResult
    public func send(_ message: WebSocketMessage) -> Bool {
        guard state == .open || state == .handshaking else { return false }
        switch message {
        case .string(let text): queue(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
        case .data(let bytes): queue(WebSocketFrame(opcode: .binary, payload: bytes))
        }
        return true
    }

    /// Queues a ping; its pong is reported as `.pong`.
    @discardableResult
    public func sendPing(_ payload: [UInt8] = []) -> Bool {
        guard state == .open || state == .handshaking else { return false }
        queue(WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(WebSocketFrame.maximumControlPayload))))
        return true
    }

    /// Starts the close handshake (`cancel(with:reason:)`): a close frame, then the peer's ends it (after
    /// what was sent before it, once open).
    public func close(code: WebSocketCloseCode, reason: String) {
        guard state == .open || state == .handshaking else { return }
        queue(WebSocketFrame(opcode: .close, payload: code.mayBeSent ? WebSocketFrameEncoder.closePayload(code: code, reason: reason) : []))
        closeCode = code
        closeReason = reason
        state = .closing
    }

    /// Sends what the socket takes of the queued bytes.
    /// - Throws: `WebSocketConnectionError.transport` when the connection failed.
    public func writePending() throws(WebSocketConnectionError) {
        while outputSent < output.count {
            let sent: Int?
            do {
                sent = try output.withUnsafeBytes { bytes in
                    try connection.send(UnsafeRawBufferPointer(rebasing: bytes[outputSent...]))
                }
            } catch {
                throw .transport((error as? CurlError)?.message ?? "\(error)")
            }
            guard let sent, sent > 0 else { return }
            outputSent += sent
        }
        output.removeAll(keepingCapacity: output.count <= 1 << 16)
        outputSent = 0
    }

    /// Reads what has arrived and returns what it amounts to, in order; `.closed` is the last event.
    /// - Throws: `WebSocketConnectionError` when the handshake is refused, the peer breaks the protocol
    ///   (a close frame with its code is queued: keep writing until it is sent), or the connection fails.
    ///
    /// - Parameter limit: stop once this many bytes were read (an owner that bounds what it buffers reads
    ///   again later; TLS may hold decrypted bytes that `poll` does not show, so it reads again without
    ///   waiting for the socket when `mayHaveMore`).
    public func readAvailable(limit: Int = .max) throws(WebSocketConnectionError) -> [WebSocketConnectionEvent] {
        var events: [WebSocketConnectionEvent] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var read = 0
        mayHaveMore = false
        while state != .closed {
            guard read < limit else {
                mayHaveMore = true
                break
            }
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { bytes in try connection.receive(into: bytes) }
            } catch {
                state = .closed
                throw .transport((error as? CurlError)?.message ?? "\(error)")
            }
            guard let count else { break }
            guard count > 0 else {
                // The peer closed without finishing the close handshake.
                state = .closed
                closeCode = .abnormalClosure
                events.append(.closed(code: .abnormalClosure, reason: ""))
                return events
            }
            read += count
            try consume(buffer[..<count], into: &events)
        }
        return events
    }

    private func consume(_ bytes: ArraySlice<UInt8>, into events: inout [WebSocketConnectionEvent]) throws(WebSocketConnectionError) {
        if !isUpgraded {
            headBytes += bytes
            let parsed: (HTTPResponseHead, Int)?
            do {
                parsed = try HTTPResponseHead.parse(headBytes)
            } catch {
                state = .closed
                throw .handshake(error, response: nil)
            }
            guard let (head, used) = parsed else { return }
            do {
                let chosen = try handshake.validate(head)
                events.append(.opened(protocol: chosen, response: head))
                isUpgraded = true
                if state == .handshaking { state = .open }  // else closing: `close` came first
                for frame in framesAwaitingOpen { queue(frame) }
                framesAwaitingOpen = []
            } catch {
                state = .closed
                throw .handshake(error, response: head)
            }
            parser.append(headBytes[used...])
            headBytes = []
        } else {
            parser.append(bytes)
        }
        do {
            while state != .closed, let frame = try parser.nextFrame() {
                guard let inbound = try assembler.receive(frame) else { continue }
                handle(inbound, into: &events)
            }
        } catch {
            fail(error)
            throw .protocolViolation(error)
        }
    }

    private func handle(_ inbound: WebSocketInbound, into events: inout [WebSocketConnectionEvent]) {
        switch inbound {
        case .message(let message):
            if state == .open { events.append(.message(message)) }  // after our close frame: dropped (§5.5.1)
        case .ping(let payload):
            if state == .open { queue(WebSocketFrame(opcode: .pong, payload: payload)) }
        case .pong(let payload):
            events.append(.pong(payload))
        case .close(let code, let reason):
            if state == .open {
                // Echo the code (§5.5.1); an empty close is answered with an empty one.
                queue(WebSocketFrame(opcode: .close, payload: code.map { WebSocketFrameEncoder.closePayload(code: $0, reason: "") } ?? []))
            }
            state = .closed
            closeCode = code ?? .noStatusReceived
            closeReason = reason
            events.append(.closed(code: closeCode, reason: reason))
        }
    }

    /// A protocol violation: the close frame with its code is queued, and the connection is over.
    private func fail(_ error: WebSocketProtocolError) {
        if state == .open {
            queue(WebSocketFrame(opcode: .close, payload: WebSocketFrameEncoder.closePayload(code: error.closeCode, reason: error.reason)))
        }
        state = .closed
        closeCode = error.closeCode
        closeReason = error.reason
    }

    private func queue(_ frame: WebSocketFrame) {
        guard isUpgraded else { return framesAwaitingOpen.append(frame) }
        output += WebSocketFrameEncoder.clientFrame(frame)
    }
}

@available(*, unavailable) extension WebSocketConnection: Sendable {}
