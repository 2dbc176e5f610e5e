/// Reads frames from the bytes of a connection as they arrive (RFC 6455 §5.2), unmasking them, and
/// refuses what the protocol forbids before buffering it: a payload over `maximumPayload` is refused from
/// its header, so a peer cannot make the reader hold more than that.
public struct WebSocketFrameParser: Sendable {
    public let role: WebSocketRole
    /// The largest data frame payload taken (the message limit: a frame cannot be larger than its message).
    public let maximumPayload: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start (consumed bytes are dropped in bulk, not per frame).
    private var start = 0

    public init(role: WebSocketRole, maximumPayload: Int) {
        self.role = role
        self.maximumPayload = maximumPayload
    }

    /// Bytes read but not yet part of a returned frame.
    public var bufferedCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes arrive.
    /// - Throws: `WebSocketProtocolError` (the connection must then fail with its close code).
    public mutating func nextFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw .protocolError("reserved bits set without an extension") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolError("unknown opcode \(first & 0x0F)")
        }
        let isFinal = first & 0x80 != 0
        let isMasked = second & 0x80 != 0
        switch role {
        case .client where isMasked: throw .protocolError("a masked frame from the server")
        case .server where !isMasked: throw .protocolError("an unmasked frame from the client")
        default: break
        }
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            guard length >> 63 == 0 else { throw .protocolError("a 64-bit length with its top bit set") }
            headerLength = 10
        }
        if opcode.isControl {
            guard isFinal else { throw .protocolError("a fragmented control frame") }
            guard length <= UInt64(WebSocketFrame.maximumControlPayload) else {
                throw .protocolError("a control frame of more than 125 bytes")
            }
        } else if length > UInt64(maximumPayload) {
            throw .messageTooBig(limit: maximumPayload)
        }
        let maskOffset = start + headerLength
        if isMasked { headerLength += 4 }
        let total = headerLength + Int(length)
        guard available >= total else { return nil }
        var payload = Array(buffer[(start + headerLength)..<(start + total)])
        if isMasked {
            let key = (buffer[maskOffset], buffer[maskOffset + 1], buffer[maskOffset + 2], buffer[maskOffset + 3])
            WebSocketMasking.apply(key: key, to: &payload)
        }
        start += total
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
        }
        return WebSocketFrame(isFinal: isFinal, opcode: opcode, payload: payload)
    }
}
