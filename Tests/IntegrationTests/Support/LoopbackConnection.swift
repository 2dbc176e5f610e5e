import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the service from a chosen loopback address (127.0.0.x), kept open between
/// requests: what the per-address connection limit counts.
final class LoopbackConnection {
    private let fd: Int32

    /// Connects from `source` to `127.0.0.1:port`; reads wait at most `timeout` seconds.
    init(from source: String = "127.0.0.1", port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Sends `GET path` (keep-alive) and returns the status of the answer, or nil when the connection
    /// ended (or stayed silent for the timeout) without one.
    func get(_ path: String) -> Int? {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<64 {  // bounded: a status line and small headers arrive in a few reads
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n"), let length = Self.contentLength(text[..<end.lowerBound]),
                received.count >= text.utf8.distance(from: text.startIndex, to: end.upperBound) + length
            {
                break
            }
        }
        let statusLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    private static func contentLength(_ head: Substring) -> Int? {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
