/// A close frame's status code, with `URLSessionWebSocketTask.CloseCode`'s names (RFC 6455 §7.4).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No close frame has been sent or received (URLSession's `closeCode` before the end).
    public static let invalid = Self(rawValue: 0)
    public static let normalClosure = Self(rawValue: 1000)
    public static let goingAway = Self(rawValue: 1001)
    public static let protocolError = Self(rawValue: 1002)
    public static let unsupportedData = Self(rawValue: 1003)
    /// The close frame carried no code (never sent).
    public static let noStatusReceived = Self(rawValue: 1005)
    /// The connection ended without a close frame (never sent).
    public static let abnormalClosure = Self(rawValue: 1006)
    public static let invalidFramePayloadData = Self(rawValue: 1007)
    public static let policyViolation = Self(rawValue: 1008)
    public static let messageTooBig = Self(rawValue: 1009)
    public static let mandatoryExtensionMissing = Self(rawValue: 1010)
    public static let internalServerError = Self(rawValue: 1011)
    /// The TLS handshake failed (never sent).
    public static let tlsHandshakeFailure = Self(rawValue: 1015)

    /// Whether a close frame may carry this code (§7.4.1–7.4.2): the defined codes but the three that
    /// only describe what happened locally (1005, 1006, 1015) and the reserved 1004; 1012–1014 (IANA's
    /// later registrations); 3000–4999 for libraries and applications.
    public var mayBeSent: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
