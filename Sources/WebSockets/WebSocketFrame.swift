/// What a frame carries (RFC 6455 §5.2): the three data opcodes, then the three control ones.
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) may come between the fragments of a message, are never
    /// fragmented themselves, and carry at most 125 bytes (§5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One frame as sent or received, its payload unmasked. Extensions are not negotiated (the handshake
/// offers none), so the RSV bits are always 0.
public struct WebSocketFrame: Sendable, Equatable {
    /// FIN: the last frame of its message (always true for a control frame).
    public var isFinal: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(isFinal: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
    }

    /// The largest payload of a control frame.
    public static let maximumControlPayload = 125
}

/// Which end of the connection: a client masks every frame it sends and reads the server's, which are
/// never masked; a server sends unmasked frames and reads the client's, which always are masked (§5.1:
/// anything else fails the connection). The service is a client to origins, and a server to the callers
/// its relay joins to them.
public enum WebSocketRole: Sendable {
    case client
    case server
}
