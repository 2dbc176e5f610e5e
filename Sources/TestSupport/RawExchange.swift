#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The blocking body of ``HTTPClient/sendRaw(host:port:bytes:timeout:halfClose:)``: POSIX sockets only.
///
/// The socket is non-blocking after connect and every wait is a `poll` of at most 50 ms, so the whole
/// exchange respects one deadline and notices cancellation quickly.
enum RawExchange {
    private static let pollSliceMilliseconds: Int64 = 50

    static func run(
        host: String, port: Int, bytes: [UInt8], timeout: Double, halfClose: Bool, control: TransferControl
    ) throws -> [UInt8] {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        let fd = try Self.openConnection(host: host, port: port)
        defer { close(fd) }
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw Self.failure("fcntl") }

        let peerStillReading = try Self.writeAll(bytes, to: fd, deadline: deadline, control: control)
        if halfClose, peerStillReading { _ = shutdown(fd, Int32(SHUT_WR)) }
        return try Self.readToEnd(fd, deadline: deadline, control: control)
    }

    private static func openConnection(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw RawSocketError(operation: "getaddrinfo", code: rc, message: String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(first) }

        var lastError = RawSocketError(operation: "connect", code: ECONNREFUSED, message: "no address")
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {  // bounded: getaddrinfo's list is finite
            cursor = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = Self.failure("socket")
                continue
            }
            #if canImport(Darwin)
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            // A blocking connect is fine: tests connect to loopback, where it succeeds or is refused at once.
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            lastError = Self.failure("connect")
            close(fd)
        }
        throw lastError
    }

    /// Returns false when the peer stopped reading (reset or closed) before everything was written.
    private static func writeAll(
        _ bytes: [UInt8], to fd: Int32, deadline: ContinuousClock.Instant, control: TransferControl
    ) throws -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard try Self.wait(fd, for: Int16(POLLOUT), deadline: deadline, control: control) else { return true }
            let sent = bytes[offset...].withUnsafeBytes { chunk in
                #if canImport(Glibc)
                    send(fd, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
                #else
                    send(fd, chunk.baseAddress, chunk.count, 0)
                #endif
            }
            if sent > 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                continue
            } else if errno == EPIPE || errno == ECONNRESET {
                // The server answered (e.g. 400 or 413) and closed early; its answer is still readable.
                return false
            } else {
                throw Self.failure("send")
            }
        }
        return true
    }

    private static func readToEnd(
        _ fd: Int32, deadline: ContinuousClock.Instant, control: TransferControl
    ) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while try Self.wait(fd, for: Int16(POLLIN), deadline: deadline, control: control) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                break
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                continue
            } else if errno == ECONNRESET {
                break
            } else {
                throw Self.failure("recv")
            }
        }
        return received
    }

    /// Polls in short slices until `fd` is ready (true) or the deadline passes (false).
    private static func wait(
        _ fd: Int32, for events: Int16, deadline: ContinuousClock.Instant, control: TransferControl
    ) throws -> Bool {
        while true {
            if control.isCancelled { throw CancellationError() }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = min(Self.pollSliceMilliseconds, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&entry, 1, Int32(milliseconds))
            if rc > 0 { return true }  // also on POLLHUP/POLLERR: the next call reports what happened
            if rc < 0, errno != EINTR { throw Self.failure("poll") }
        }
    }

    private static func failure(_ operation: String) -> RawSocketError {
        let code = errno
        return RawSocketError(operation: operation, code: code, message: String(cString: strerror(code)))
    }
}
