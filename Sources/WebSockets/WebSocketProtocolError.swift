/// Why a connection fails (RFC 6455 §7.1.7), with the close code that tells the peer.
public enum WebSocketProtocolError: Error, Sendable, Equatable {
    /// A frame or a sequence of frames the protocol forbids: 1002.
    case protocolError(String)
    /// A text message, or a close reason, that is not UTF-8: 1007.
    case invalidUTF8
    /// A message larger than the receiver takes (`maximumMessageSize`): 1009.
    case messageTooBig(limit: Int)

    public var closeCode: WebSocketCloseCode {
        switch self {
        case .protocolError: .protocolError
        case .invalidUTF8: .invalidFramePayloadData
        case .messageTooBig: .messageTooBig
        }
    }

    /// What the close frame's reason says (short: a control frame holds 125 bytes, the code included).
    public var reason: String {
        switch self {
        case .protocolError(let detail): String(detail.prefix(100))  // the details are ASCII
        case .invalidUTF8: "invalid UTF-8"
        case .messageTooBig(let limit): "message larger than \(limit) bytes"
        }
    }
}
