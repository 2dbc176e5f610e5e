/// What a webSocket task (`URLSessionWebSocketTask`) carries beyond a data task: the subprotocols it offers,
/// the largest message it takes, and — once the connection has ended — the close code and reason.
/// Kept with the task (the store's `webSocket` column) and shown on the task object.
public struct WebSocketTaskOptions: Codable, Sendable, Hashable {
    /// `Sec-WebSocket-Protocol` offered, in order of preference (`webSocketTask(with:protocols:)`).
    public var protocols: [String]
    /// `maximumMessageSize`: a received message larger than this fails the task.
    public var maximumMessageSize: Int
    /// `closeCode`: 0 (`invalid`) until the connection ended; then the code of the close frame received
    /// (or sent by `cancel(with:reason:)`), 1005 when it carried none, 1006 when there was none.
    public var closeCode: Int
    /// `closeReason`: the close frame's reason. RFC 6455 requires it to be UTF-8 (it is checked on receipt),
    /// so it is given as text where URLSession has `Data`; nil when there was none.
    public var closeReason: String?

    /// URLSession's default `maximumMessageSize` (1 MiB).
    public static let defaultMaximumMessageSize = 1 << 20
    /// The largest `maximumMessageSize` a task may ask for: a received message is held whole in memory.
    public static let maximumMessageSizeLimit = 64 << 20
    /// The most subprotocols one task offers.
    public static let maximumProtocols = 32

    public init(
        protocols: [String] = [], maximumMessageSize: Int = Self.defaultMaximumMessageSize, closeCode: Int = 0, closeReason: String? = nil
    ) {
        self.protocols = protocols
        self.maximumMessageSize = maximumMessageSize
        self.closeCode = closeCode
        self.closeReason = closeReason
    }

    enum CodingKeys: String, CodingKey { case protocols, maximumMessageSize, closeCode, closeReason }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(protocols, forKey: .protocols)
        try c.encode(maximumMessageSize, forKey: .maximumMessageSize)
        try c.encode(closeCode, forKey: .closeCode)
        try c.encode(closeReason, forKey: .closeReason)
    }
}
