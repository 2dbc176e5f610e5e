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

    /// `/gate/{name}?bytes=N&total=T&seed=S`: `Content-Length: T` (default 2 N), the first N bytes of
    /// `/bytes/T?seed=S`, then nothing until the test opens the gate (``FixtureOrigin/openGate(_:)``; at most
    /// 60 s), then the rest. `chunked=1` sends chunks instead; `fail=1` closes at the gate instead of going on.
    static func gate(
        _ request: FixtureRequest, name: String, on socket: FixtureSocket, core: FixtureOriginCore
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let count = max(0, request.integer("bytes", default: 1000))
        let total = max(count, request.integer("total", default: count * 2))
        let body = FixtureBytes.binary(count: total, seed: UInt64(max(0, request.integer("seed", default: 0))))
        let chunked = request.flag("chunked")
        func chunk(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            bytes.isEmpty ? [] : Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + [0x0D, 0x0A]
        }
        let framing = chunked ? ("Transfer-Encoding", "chunked") : ("Content-Length", "\(total)")
        // `ranges=1`: the head claims range support (a mirror that fails mid-file after saying so).
        let ranges = request.flag("ranges") ? [("Accept-Ranges", "bytes")] : []
        let head = FixtureResponse(status: 200, headers: [("Content-Type", "application/x-gated"), framing] + ranges)
        try socket.write(head.head(closing: true) + (chunked ? chunk(body[..<count]) : Array(body[..<count])))
        let deadline = ContinuousClock.now + .seconds(60)
        while !core.state.withLock({ $0.openGates.contains(name) }) {  // bounded by the deadline
            guard ContinuousClock.now < deadline else { return .close }
            try socket.pause(seconds: 0.01)
        }
        if request.flag("fail") { return .close }
        try socket.write(chunked ? chunk(body[count...]) + Array("0\r\n\r\n".utf8) : Array(body[count...]))
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

    /// `/status-line?text=`: `text` as the status line (e.g. `HTTP/1.1 Gomorrah`), then a 2-byte body, then close.
    static func statusLine(_ request: FixtureRequest, on socket: FixtureSocket) throws(FixtureSocketError) -> FixtureDisposition {
        let line = request.parameter("text") ?? "HTTP/1.1"
        try socket.write(Array("\(line)\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi".utf8))
        return .close
    }

    /// `/garbage`: bytes that are not an HTTP response, then close.
    static func garbage(on socket: FixtureSocket) throws(FixtureSocketError) -> FixtureDisposition {
        try socket.write(Array("SSH-2.0-definitely not HTTP\r\n\u{0}\u{7F}garbage\r\n\r\n".utf8))
        return .close
    }
}
