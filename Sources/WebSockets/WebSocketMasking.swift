/// The client's masking of payloads (RFC 6455 §5.3): each byte XORed with the key's byte at its index
/// modulo 4. Its own inverse, so it also unmasks.
public enum WebSocketMasking {
    public static func apply(key: (UInt8, UInt8, UInt8, UInt8), to payload: inout [UInt8]) {
        payload.withUnsafeMutableBytes { bytes in
            let count = bytes.count
            // Eight bytes at a time: the key repeated twice in a word, then the tail byte by byte.
            let keyWord = UInt64(truncatingIfNeeded: UInt32(key.0) | UInt32(key.1) << 8 | UInt32(key.2) << 16 | UInt32(key.3) << 24)
            let word = keyWord | keyWord << 32  // as little-endian: byte i of the word is key[i % 4]
            var index = 0
            while index + 8 <= count {
                let value = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                bytes.storeBytes(of: (value ^ word).littleEndian, toByteOffset: index, as: UInt64.self)
                index += 8
            }
            let keyBytes = [key.0, key.1, key.2, key.3]
            while index < count {
                bytes[index] ^= keyBytes[index & 3]
                index += 1
            }
        }
    }
}
