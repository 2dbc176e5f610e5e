/// Routes that misbehave on purpose: slow, stalled, truncated, closed, reset or garbled answers.
extension FixtureRouter {
    /// `/drip?bytes=N&interval=S&status=C`: the head with `Content-Length: N`, then one `*` every S seconds.
    static func drip(
        _ request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let count = max(0, request.integer("bytes", default: 10))
        let interval = request.seconds("interval", default: 0.1)
        let status = request.integer("status", default: 200)
        let head = FixtureResponse(
            status: status, headers: [("Content-Type", "application/octet-stream"), ("Content-Length", "\(count)")])
        try socket.write(head.head(closing: request.wantsClose))
        guard !request.isHead else { return request.wantsClose ? .close : .keepAlive }
        for _ in 0..<count {
            try socket.pause(seconds: interval)
            try socket.write([0x2A])
        }
        return request.wantsClose ? .close : .keepAlive
    }

    /// `/stall?bytes=N&total=T`: `Content-Length: T` (default N + 1), the first N bytes of `/bytes/T`, then
    /// nothing until the client gives up or the origin stops.
    static func stall(
        _ request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let count = max(0, request.integer("bytes", default: 0))
        let total = max(count, request.integer("total", default: count + 1))
        let head = FixtureResponse(
            status: 200, headers: [("Content-Type", "application/octet-stream"), ("Content-Length", "\(total)")])
        try socket.write(head.head(closing: false) + FixtureBytes.binary(count: count, seed: 0))
        try socket.waitForPeerClose()
        return .close
    }

    /// `/slow-headers?delay=S`: nothing for S seconds (default 1), then `200 ok`.
    static func slowHeaders(
        _ request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        try socket.pause(seconds: request.seconds("delay", default: 1))
        return try socket.send(.text(200, "ok\n"), to: request)
    }

    /// `/truncated?length=N&send=M`: promises N bytes (default 100) of `/bytes/N`, sends M (default N / 2)
    /// and closes. With `chunked=1` it sends M bytes as one chunk and closes before the last chunk.
    static func truncated(
        _ request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let length = max(1, request.integer("length", default: 100))
        let sent = min(length - 1, max(0, request.integer("send", default: length / 2)))
        let bytes = FixtureBytes.binary(count: sent, seed: 0)
        if request.flag("chunked") {
            let head = FixtureResponse(status: 200, headers: [("Transfer-Encoding", "chunked")])
            let chunk = sent > 0 ? Array("\(String(sent, radix: 16))\r\n".utf8) + bytes + [0x0D, 0x0A] : []
            try socket.write(head.head(closing: true) + chunk)
        } else {
            let head = FixtureResponse(status: 200, headers: [("Content-Length", "\(length)")])
            try socket.write(head.head(closing: true) + bytes)
        }
        return .close
    }

    /// `/garbage`: bytes that are not an HTTP response, then close.
    static func garbage(on socket: FixtureSocket) throws(FixtureSocketError) -> FixtureDisposition {
        try socket.write(Array("SSH-2.0-definitely not HTTP\r\n\u{0}\u{7F}garbage\r\n\r\n".utf8))
        return .close
    }
}
