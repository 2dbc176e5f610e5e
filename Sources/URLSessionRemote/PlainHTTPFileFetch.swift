internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif
#if canImport(Glibc)
    internal import Glibc
#endif

/// A task's file fetched from a service reached over plain `http`: one `GET` whose body is read in 1 MiB
/// blocks straight into the file.
///
/// Why not `HTTPTransport` here: through libcurl's write callback 1 GiB from a service on the same machine
/// cost the client 1.7 s of CPU, read here 0.85 s (`/usr/bin/time urlsessiond get`, release build;
/// FoundationNetworking's download task, before, 6.5 s). Only the plain case is taken here — `http`, a
/// `200` with a `Content-Length`; anything else (`https`, another status such as a problem answer, a
/// chunked body, a failure on the way) answers false, and the caller asks again through the transport,
/// which knows TLS and proxies and reads problem answers. A `GET` of a file may be sent twice.
enum PlainHTTPFileFetch {
    /// Fetches `request` (a `GET` with its headers) into a new file at `destination`; false when it was not
    /// fetched here (nothing is left at `destination` then).
    static func fetch(_ request: URLRequest, to destination: URL) async -> Bool {
        guard let url = request.url, url.scheme?.lowercased() == "http", let host = url.host,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let port = url.port ?? 80
        var head = "GET \(target) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
        for (name, value) in request.allHTTPHeaderFields ?? [:] { head += "\(name): \(value)\r\n" }
        head += "Accept-Encoding: identity\r\nConnection: close\r\n\r\n"
        let exchange = Exchange(host: host, port: port, head: Array(head.utf8), timeout: request.timeoutInterval)
        let fetched = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: exchange.run(into: destination.path)) }
        }
        if !fetched { try? FileManager.default.removeItem(at: destination) }
        return fetched
    }

    /// One blocking exchange, run off the concurrency pool.
    private struct Exchange: Sendable {
        let host: String
        let port: Int
        let head: [UInt8]
        let timeout: TimeInterval
        static let blockSize = 1 << 20
        static let largestHead = 64 << 10

        func run(into path: String) -> Bool {
            guard let socket = connect() else { return false }
            defer { close(socket) }
            guard sendAll(head, on: socket) else { return false }
            var buffer = [UInt8](repeating: 0, count: Self.blockSize)
            var filled = 0
            var headEnd: Int?
            while headEnd == nil {  // bounded: the head must end within `largestHead` bytes
                guard filled < Self.largestHead else { return false }
                let read = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, Self.largestHead - filled, 0) }
                guard read > 0 else { return false }
                filled += read
                headEnd = Self.endOfHead(buffer[0..<filled])
            }
            guard let headEnd, let length = Self.contentLength(ofOK: buffer[0..<headEnd]) else { return false }
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard file >= 0 else { return false }
            defer { close(file) }
            var received = filled - headEnd
            guard received <= length, writeAll(buffer[headEnd..<filled], to: file) else { return false }
            while received < length {  // bounded: each turn reads at least a byte or returns
                let read = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, min(Self.blockSize, length - received), 0) }
                if read < 0 && errno == EINTR { continue }
                guard read > 0, writeAll(buffer[0..<read], to: file) else { return false }
                received += read
            }
            return true
        }

        private func connect() -> Int32? {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else { return nil }
            defer { freeaddrinfo(list) }
            var timeval = timeval(tv_sec: Int(max(1, timeout)), tv_usec: 0)
            var next: UnsafeMutablePointer<addrinfo>? = list
            while let address = next {  // bounded: the resolver's list
                next = address.pointee.ai_next
                let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard socket >= 0 else { continue }
                let size = socklen_t(MemoryLayout<timeval>.size)
                _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeval, size)
                _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeval, size)
                if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
                close(socket)
            }
            return nil
        }

        private func sendAll(_ bytes: [UInt8], on socket: Int32) -> Bool {
            var sent = 0
            while sent < bytes.count {  // bounded: each turn sends at least a byte or returns
                let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }

        private func writeAll(_ bytes: ArraySlice<UInt8>, to file: Int32) -> Bool {
            var written = 0
            while written < bytes.count {  // bounded: each turn writes at least a byte or returns
                let count = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + written, bytes.count - written) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }

        /// Where the body begins: after the blank line that ends the head; nil while it has not come.
        static func endOfHead(_ bytes: ArraySlice<UInt8>) -> Int? {
            let end: [UInt8] = [13, 10, 13, 10]
            guard bytes.count >= end.count else { return nil }
            for index in bytes.startIndex...(bytes.endIndex - end.count) where bytes[index..<index + end.count].elementsEqual(end) {
                return index + end.count
            }
            return nil
        }

        /// The body's length when the head is a `200` with a `Content-Length` and no transfer coding; nil
        /// for anything else.
        static func contentLength(ofOK head: ArraySlice<UInt8>) -> Int? {
            let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
            guard let status = lines.first?.split(separator: " "), status.count >= 2, status[0].hasPrefix("HTTP/1."),
                status[1] == "200"
            else { return nil }
            var length: Int?
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "transfer-encoding" { return nil }
                if name == "content-length" {
                    guard let parsed = Int(value), parsed >= 0, length == nil || length == parsed else { return nil }
                    length = parsed
                }
            }
            return length
        }
    }
}
