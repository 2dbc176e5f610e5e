#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Why a connection's thread stopped serving it.
enum FixtureSocketError: Error {
    /// ``FixtureOrigin/stop()`` was called.
    case stopped
    /// The peer closed or reset the connection.
    case peerClosed
    /// A bounded wait elapsed.
    case timedOut
    /// The request could not be parsed; the origin answers `status` and closes.
    case malformed(status: Int, reason: String)
    /// A system call failed with `errno`.
    case system(String, Int32)
}

/// One accepted, non-blocking connection, owned by its connection thread.
///
/// Every wait is a `poll` on the socket plus the origin's wake pipe: ``FixtureOrigin/stop()`` makes that
/// pipe readable, so any thread blocked here returns within one poll, and no wait is unbounded even if the
/// wake is missed. Reads go through `pending`, so a request head and the start of its body can share a read.
final class FixtureSocket {
    /// Seconds a write may make no progress before the connection is dropped (a client paused that long is gone).
    static let writeTimeout: Double = 120
    /// Seconds a request may pause between two reads once it has started.
    static let readTimeout: Double = 60

    let fd: Int32
    private let wakeFD: Int32
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)

    init(fd: Int32, wakeFD: Int32) {
        self.fd = fd
        self.wakeFD = wakeFD
    }

    deinit {
        close(self.fd)
        self.scratch.deallocate()
    }

    /// Bytes received and not consumed yet.
    var buffered: Int { self.pending.count - self.pendingStart }

    /// Waits up to `timeout` seconds for `events` on the socket: true when ready, false when the time is up.
    ///
    /// - Throws: ``FixtureSocketError/stopped`` when the origin stops meanwhile.
    func wait(for events: Int16, timeout: Double) throws(FixtureSocketError) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        while true {  // bounded: each turn polls at most 1 s and the deadline ends the loop
            let remaining = ContinuousClock.now.duration(to: deadline)
            var entries = [
                pollfd(fd: self.fd, events: events, revents: 0),
                pollfd(fd: self.wakeFD, events: Int16(POLLIN), revents: 0),
            ]
            let rc = poll(&entries, 2, Self.pollSlice(remaining))
            if rc < 0, errno != EINTR { throw .system("poll", errno) }
            if entries[1].revents != 0 { throw .stopped }
            if rc > 0, entries[0].revents != 0 { return true }  // POLLHUP/POLLERR too: the next call tells
            if remaining <= .zero { return false }
        }
    }

    /// `remaining` in whole milliseconds, rounded up and capped at one second, for `poll`.
    private static func pollSlice(_ remaining: Duration) -> Int32 {
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(min(1000, seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
    }

    /// Pauses `seconds` unless the origin stops first.
    func pause(seconds: Double) throws(FixtureSocketError) {
        let deadline = ContinuousClock.now + .microseconds(Int64((max(0, seconds) * 1_000_000).rounded(.up)))
        while true {  // bounded by the deadline
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return }
            var entry = pollfd(fd: self.wakeFD, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, Self.pollSlice(remaining)) > 0 { throw .stopped }
        }
    }

    /// Reads whatever arrives within `timeout` into `pending`; false at end of stream or reset.
    ///
    /// Consumed bytes are dropped here, so indices into `pending` are only valid between two receives.
    private func receive(timeout: Double) throws(FixtureSocketError) -> Bool {
        if self.pendingStart > 0, self.pendingStart >= self.pending.count / 2 {
            self.pending.removeFirst(self.pendingStart)
            self.pendingStart = 0
        }
        while true {  // bounded: EAGAIN only follows a poll, which is bounded by `timeout`
            guard try self.wait(for: Int16(POLLIN), timeout: timeout) else { throw .timedOut }
            let count = recv(self.fd, self.scratch.baseAddress, self.scratch.count, 0)
            if count > 0 {
                self.pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: self.scratch[0..<count]))
                return true
            }
            if count == 0 { return false }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            throw .system("recv", errno)
        }
    }

    /// Reads a request head through its blank line, at most `limit` bytes, and returns it without that line.
    ///
    /// Returns nil when the peer closes, or stays silent for `idleTimeout`, before sending a byte: that is
    /// the normal end of a keep-alive connection.
    func readHead(limit: Int, idleTimeout: Double) throws(FixtureSocketError) -> [UInt8]? {
        var scanned = 0  // bytes after `pendingStart` known not to start a terminator
        while true {  // bounded: each turn receives more bytes, and `limit` caps them
            if let end = self.find([0x0D, 0x0A, 0x0D, 0x0A], skipping: &scanned) {
                guard end - self.pendingStart <= limit else {
                    throw .malformed(status: 431, reason: "request head over \(limit) bytes")
                }
                let head = Array(self.pending[self.pendingStart..<end])
                self.pendingStart = end + 4
                return head
            }
            if self.buffered > limit { throw .malformed(status: 431, reason: "request head over \(limit) bytes") }
            let started = self.buffered > 0
            do throws(FixtureSocketError) {
                guard try self.receive(timeout: started ? Self.readTimeout : idleTimeout) else {
                    if started { throw FixtureSocketError.peerClosed }
                    return nil
                }
            } catch .timedOut where !started {
                return nil
            }
        }
    }

    /// Reads one CRLF-terminated line (without the CRLF), at most `limit` bytes, for chunked framing.
    func readLine(limit: Int) throws(FixtureSocketError) -> [UInt8] {
        var scanned = 0
        while true {  // bounded: each turn receives more bytes, and `limit` caps them
            if let end = self.find([0x0D, 0x0A], skipping: &scanned) {
                let line = Array(self.pending[self.pendingStart..<end])
                self.pendingStart = end + 2
                return line
            }
            if self.buffered > limit { throw .malformed(status: 400, reason: "chunk line over \(limit) bytes") }
            guard try self.receive(timeout: Self.readTimeout) else { throw .peerClosed }
        }
    }

    /// The index in `pending` where `needle` starts, searching the unconsumed bytes after the first `scanned`;
    /// on a miss, `scanned` advances so the next search skips what cannot match.
    private func find(_ needle: [UInt8], skipping scanned: inout Int) -> Int? {
        var index = self.pendingStart + scanned
        while index + needle.count <= self.pending.count {
            if self.pending[index] == needle[0], self.pending[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        scanned = max(0, index - self.pendingStart)
        return nil
    }

    /// Hands exactly `count` body bytes to `consume`, in pieces as they arrive.
    func readExactly(_ count: Int, _ consume: (ArraySlice<UInt8>) -> Void) throws(FixtureSocketError) {
        var remaining = count
        while remaining > 0 {  // bounded: each turn consumes bytes or receives more
            if self.buffered == 0 {
                guard try self.receive(timeout: Self.readTimeout) else { throw .peerClosed }
            }
            let take = min(remaining, self.buffered)
            consume(self.pending[self.pendingStart..<self.pendingStart + take])
            self.pendingStart += take
            remaining -= take
        }
    }

    /// Writes all of `bytes`, waiting (bounded) while the peer's window is full.
    func write(_ bytes: [UInt8]) throws(FixtureSocketError) {
        var offset = 0
        while offset < bytes.count {  // bounded: each turn sends bytes or waits at most `writeTimeout`
            let sent = bytes[offset...].withUnsafeBytes { chunk in
                #if canImport(Glibc)
                    Glibc.send(self.fd, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(self.fd, chunk.baseAddress, chunk.count, 0)
                #endif
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard try self.wait(for: Int16(POLLOUT), timeout: Self.writeTimeout) else { throw .timedOut }
            } else if sent < 0, errno == EPIPE || errno == ECONNRESET {
                throw .peerClosed
            } else {
                throw .system("send", errno)
            }
        }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) throws(FixtureSocketError) {
        try self.write(Array(text.utf8))
    }

    /// Waits until the peer closes (reading and discarding what it sends) or the origin stops.
    func waitForPeerClose() throws(FixtureSocketError) {
        while true {  // bounded: ends when the peer closes or stop() wakes the wait
            self.pendingStart = self.pending.count
            guard try self.receive(timeout: 3600) else { return }
        }
    }

    /// Ends the connection after an early answer (a 4xx before the whole request was read) without losing it.
    ///
    /// Closing with unread input makes the kernel send a reset, which can destroy the answer still in flight
    /// to the client. So: shut down the sending side, then read and discard for at most a second, as servers'
    /// "lingering close" does (RFC 9112 §9.6).
    func closeAfterEarlyAnswer() {
        _ = shutdown(self.fd, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .seconds(1)
        self.pendingStart = self.pending.count
        while ContinuousClock.now < deadline {  // bounded by the deadline
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard (try? self.receive(timeout: Double(remaining / .milliseconds(1)) / 1000)) == true else { return }
            self.pendingStart = self.pending.count
        }
    }

    /// Makes the next `close` send a TCP reset instead of a FIN (`SO_LINGER` with a zero timeout).
    func abortOnClose() {
        var linger = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(self.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
    }
}

@available(*, unavailable)
extension FixtureSocket: Sendable {}
