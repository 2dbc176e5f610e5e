import Crypto
import Foundation

/// Writing, measuring and hashing the files bodies are kept in.
enum BodyFiles {
    /// Writes a body (`TaskCompleter.keepBody` fsyncs it, off the concurrency pool).
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor)
    }

    /// Writes all of `bytes` at the descriptor's offset (a short write goes on, an interrupted one again).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {  // bounded: each pass writes at least one byte or throws
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += written
        }
    }

    /// The bytes of a kept file (what the tenant's `storedBytes` quota counts for it).
    static func size(ofFile path: String) throws -> Int64 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int64(status.st_size)
    }

    static func digest(ofFile path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return "sha-256=:\(Data(hash.finalize()).base64EncodedString()):"
    }

    static func digest(of bytes: [UInt8]) -> String {
        "sha-256=:\(Data(SHA256.hash(data: bytes)).base64EncodedString()):"
    }
}
