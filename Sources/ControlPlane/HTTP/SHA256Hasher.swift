import Crypto
import Foundation

/// Incremental SHA-256 over streamed bytes.
struct SHA256Hasher {
    private var hash = SHA256()

    mutating func update(_ buffer: UnsafeRawBufferPointer) { hash.update(bufferPointer: buffer) }

    mutating func update(_ bytes: [UInt8]) { hash.update(data: bytes) }

    mutating func finalize() -> Data { Data(hash.finalize()) }
}
