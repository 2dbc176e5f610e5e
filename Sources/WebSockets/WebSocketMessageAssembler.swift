/// A whole message, as `URLSessionWebSocketTask.Message` has it.
public enum WebSocketMessage: Sendable, Equatable {
    case string(String)
    case data([UInt8])
}

/// What the frames of a connection amount to, in order.
public enum WebSocketInbound: Sendable, Equatable {
    case message(WebSocketMessage)
    case ping([UInt8])
    case pong([UInt8])
    /// The peer's close frame: its code (nil when it carried none: 1005 for the application) and reason.
    case close(code: WebSocketCloseCode?, reason: String)
}

/// Joins fragments into messages (RFC 6455 §5.4), checks text is UTF-8 (§8.1) and every message fits
/// `maximumMessageSize`, and lets control frames through between fragments.
public struct WebSocketMessageAssembler: Sendable {
    public let maximumMessageSize: Int
    /// The opcode of the message being received in fragments, and its bytes so far.
    private var partial: (opcode: WebSocketOpcode, bytes: [UInt8])?

    public init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// What `frame` completes, or nil when it is a fragment of a message still arriving.
    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketInbound? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard partial == nil else { throw .protocolError("a new message before the last one's final fragment") }
            if frame.isFinal { return try message(frame.opcode, frame.payload) }
            partial = (frame.opcode, frame.payload)
            return nil
        case .continuation:
            guard let (opcode, kept) = partial else { throw .protocolError("a continuation frame outside a message") }
            guard kept.count + frame.payload.count <= maximumMessageSize else {
                throw .messageTooBig(limit: maximumMessageSize)
            }
            partial = nil  // the bytes uniquely referenced while they grow
            var bytes = consume kept
            bytes += frame.payload
            if frame.isFinal { return try message(opcode, bytes) }
            partial = (opcode, bytes)
            return nil
        }
    }

    private func message(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) throws(WebSocketProtocolError) -> WebSocketInbound {
        guard bytes.count <= maximumMessageSize else { throw .messageTooBig(limit: maximumMessageSize) }
        guard opcode == .text else { return .message(.data(bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return .message(.string(text))
    }

    /// A close frame's payload: empty, or a code the peer may send and a UTF-8 reason (§5.5.1, §7.4).
    static func close(_ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketInbound {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .protocolError("a close frame of one byte") }
        let code = WebSocketCloseCode(rawValue: Int(payload[0]) << 8 | Int(payload[1]))
        guard code.mayBeSent else { throw .protocolError("close code \(code.rawValue)") }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else { throw .invalidUTF8 }
        return .close(code: code, reason: reason)
    }
}
