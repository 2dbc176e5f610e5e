/// `multipart/x-mixed-replace`: a stream of parts, each replacing the previous one (server push).
extension FixtureRouter {
    /// `/multipart-replace?parts=N&size=S&interval=T&boundary=B`: `200` with `Content-Type:
    /// multipart/x-mixed-replace; boundary=B` (default `fixture-frame`), then N parts (default 3): part i
    /// (from 1) with `Content-Type: text/plain`, `X-Part: i`, `Content-Length: S` (default 64) and the
    /// content ``FixtureOrigin/multipartContent(part:size:)``, T seconds apart (default 0: all in one
    /// write), then the closing delimiter; the body ends when the connection closes.
    static func multipartReplace(
        _ request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let parts = min(1000, max(0, request.integer("parts", default: 3)))
        let size = min(1 << 20, max(0, request.integer("size", default: 64)))
        let interval = request.seconds("interval", default: 0)
        let boundary = request.parameter("boundary") ?? "fixture-frame"
        let head = FixtureResponse.head(
            status: 200,
            headers: [("Content-Type", "multipart/x-mixed-replace; boundary=\(boundary)"), ("Connection", "close")])
        guard !request.isHead else {
            try socket.write(head)
            return .close
        }
        var pending = head
        for part in stride(from: 1, through: parts, by: 1) {
            pending += Array("--\(boundary)\r\nContent-Type: text/plain\r\nX-Part: \(part)\r\nContent-Length: \(size)\r\n\r\n".utf8)
            pending += FixtureOrigin.multipartContent(part: part, size: size) + Array("\r\n".utf8)
            if interval > 0 {
                try socket.write(pending)
                pending = []
                try socket.pause(seconds: interval)
            }
        }
        try socket.write(pending + Array("--\(boundary)--\r\n".utf8))
        return .close
    }
}

extension FixtureOrigin {
    /// The content of part `part` of `/multipart-replace`: `size` bytes of `/bytes/{size}?seed={part}`.
    public static func multipartContent(part: Int, size: Int) -> [UInt8] {
        FixtureBytes.binary(count: size, seed: UInt64(part))
    }
}
