#if canImport(Glibc)
    import Glibc
#endif

/// Writes frames (RFC 6455 §5.2): a client masks every frame with a fresh random key (§5.3), a server
/// masks none.
public enum WebSocketFrameEncoder {
    /// Appends `frame` to `output`, masked with `maskingKey` when given.
    public static func append(
        _ frame: WebSocketFrame, maskingKey: (UInt8, UInt8, UInt8, UInt8)?, to output: inout [UInt8]
    ) {
        let length = frame.payload.count
        output.append((frame.isFinal ? 0x80 : 0) | frame.opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch length {
        case 0...125:
            output.append(maskBit | UInt8(length))
        case 126...0xFFFF:
            output.append(maskBit | 126)
            output.append(UInt8(length >> 8))
            output.append(UInt8(length & 0xFF))
        default:
            output.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { output.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift))) }
        }
        guard let maskingKey else {
            output.append(contentsOf: frame.payload)
            return
        }
        output.append(contentsOf: [maskingKey.0, maskingKey.1, maskingKey.2, maskingKey.3])
        var masked = frame.payload
        WebSocketMasking.apply(key: maskingKey, to: &masked)
        output.append(contentsOf: masked)
    }

    /// `frame` as `role` sends it: masked with a new random key by a client, unmasked by a server (§5.1).
    public static func frame(_ frame: WebSocketFrame, from role: WebSocketRole) -> [UInt8] {
        switch role {
        case .client: clientFrame(frame)
        case .server: serverFrame(frame)
        }
    }

    /// A client's frame, masked with a new random key.
    public static func clientFrame(_ frame: WebSocketFrame) -> [UInt8] {
        var key: UInt32 = 0
        withUnsafeMutableBytes(of: &key) { arc4random_buf($0.baseAddress!, 4) }
        var output: [UInt8] = []
        output.reserveCapacity(frame.payload.count + 14)
        append(
            frame, maskingKey: (UInt8(key & 0xFF), UInt8(key >> 8 & 0xFF), UInt8(key >> 16 & 0xFF), UInt8(key >> 24)),
            to: &output)
        return output
    }

    /// A server's frame, unmasked.
    public static func serverFrame(_ frame: WebSocketFrame) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(frame.payload.count + 10)
        append(frame, maskingKey: nil, to: &output)
        return output
    }

    /// A close frame's payload: the code, then the reason (cut to fit 125 bytes, at a character).
    public static func closePayload(code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var payload = [UInt8(code.rawValue >> 8 & 0xFF), UInt8(code.rawValue & 0xFF)]
        var reasonBytes: [UInt8] = []
        for character in reason {
            let bytes = Array(String(character).utf8)
            guard reasonBytes.count + bytes.count <= WebSocketFrame.maximumControlPayload - 2 else { break }
            reasonBytes += bytes
        }
        payload += reasonBytes
        return payload
    }
}
