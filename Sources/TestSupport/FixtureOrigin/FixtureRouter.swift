/// The origin's routes. Every body is deterministic, so tests can compute digests on their own.
///
/// | Route | Behaviour |
/// |---|---|
/// | `/bytes/{n}?seed=&rate=&chunked=1&noRanges=1&etag=&corrupt=` | ``FixtureOrigin/bytes(count:seed:)``; ranges, throttling; `corrupt=first-last` inverts those bytes (a corrupting mirror) |
/// | `/resource/{name}` | the bytes of ``FixtureOrigin/setResource(_:body:etag:lastModified:)``, same logic |
/// | `/status/{code}` | that status, body `{code}` (none for 204/304), `WWW-Authenticate` on 401 |
/// | `/redirect/{code}?to=&cookie=` | `code` with `Location: to` (default `/echo`), and `Set-Cookie: cookie` when given |
/// | `/redirect-chain/{n}?code=` | `code` (302) to `/redirect-chain/{n-1}?hops=…` until 0, then `{"hops": n}` |
/// | `/absolute-redirect-to-port?port=&path=&code=` | `code` (302) to `http://host:port/path` (cross-origin) |
/// | `/echo`, `/upload` | JSON: method, path, query, headers, bodySize, bodySHA256 (`/echo`: bodyBase64 ≤ 64 KiB) |
/// | `/drip?bytes=&interval=&status=` | `Content-Length: bytes`, then one `*` per `interval` s |
/// | `/stall?bytes=&total=` | `Content-Length: total`, the first `bytes` of `/bytes/{total}`, then silence |
/// | `/gate/{name}?bytes=&total=&seed=&chunked=1&fail=1&ranges=1` | the first `bytes` of `/bytes/{total}`, then waits for ``FixtureOrigin/openGate(_:)`` (60 s at most) and sends the rest, or closes with `fail=1`; `ranges=1` adds `Accept-Ranges: bytes` |
/// | `/slow-headers?delay=` | waits `delay` s before the status line |
/// | `/truncated?length=&send=&chunked=1` | promises `length`, sends `send` bytes, closes |
/// | `/close`, `/reset`, `/garbage` | closes without a response; resets (RST); answers with non-HTTP bytes |
/// | `/status-line?text=` | `text` as the status line (`HTTP/1.1 Gomorrah`), a 2-byte body, close |
/// | `/encoded/{gzip,deflate,br,zstd}?size=` | ``FixtureOrigin/text(count:)`` compressed; `X-Decoded-SHA256` |
/// | `/unknown-coding?contentEncoding=&transferEncoding=&size=` | ``FixtureOrigin/text(count:)`` as it is, labelled with those codings |
/// | `/cookies/set?a=1&…`, `/cookies/delete?a`, `/cookies` | `Set-Cookie` per pair; JSON of the `Cookie` received |
/// | `/basic-auth/{user}/{password}` | 401 with a Basic challenge unless those credentials came |
/// | `/proxy-auth/{user}/{password}` | through the origin as a proxy: 407 (Basic, realm `proxy`) unless those credentials came |
/// | `/any-auth/{user}/{password}` | 401 offering Digest, then Basic; either valid answer gets 200 |
/// | `/negotiate-auth/{user}/{password}` | 401 offering Negotiate, then Basic; a valid Basic answer gets 200 |
/// | `/digest-auth/{user}/{password}` | 401 with a Digest (MD5, qop=auth) challenge unless a valid response came |
/// | `/cache/{maxAge}` | `Cache-Control: max-age`, `ETag`; a matching `If-None-Match` gets 304 |
/// | `/cacheable/{name}?cc=&etag=&lastModified=&expires=&date=&vary=&size=&status=&stamp=1` | those caching fields; 304 to a match |
/// | `/headers-size/{n}` | about n bytes of response head |
/// | `/informational` | `103 Early Hints` then 200 |
/// | `/multipart-replace?parts=&size=&interval=&boundary=` | `multipart/x-mixed-replace`: parts `X-Part: 1…n`, then close |
///
/// Anything else is 404. `HEAD` works everywhere: the same head, no body.
enum FixtureRouter {
    /// `Last-Modified` of every generated entity.
    static let fixedLastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    static func respond(
        to request: FixtureRequest, body: FixtureBody, on socket: FixtureSocket, core: FixtureOriginCore
    ) throws(FixtureSocketError) -> FixtureDisposition {
        let segments = request.segments
        switch (segments.first ?? "", segments.count) {
        case ("bytes", 2): return try Self.bytes(request, count: segments[1], on: socket)
        case ("resource", 2): return try Self.resource(request, name: String(segments[1]), on: socket, core: core)
        case ("status", 2): return try socket.send(Self.status(segments[1]), to: request)
        case ("redirect", 2): return try socket.send(Self.redirect(request, code: segments[1]), to: request)
        case ("redirect-chain", 2): return try socket.send(Self.redirectChain(request, segments[1]), to: request)
        case ("absolute-redirect-to-port", 1):
            return try socket.send(Self.absoluteRedirect(request, host: core.host), to: request)
        case ("echo", 1): return try socket.send(Self.echo(request, body: body, includeBody: true), to: request)
        case ("upload", 1): return try socket.send(Self.echo(request, body: body, includeBody: false), to: request)
        case ("drip", 1): return try Self.drip(request, on: socket)
        case ("stall", 1): return try Self.stall(request, on: socket)
        case ("gate", 2): return try Self.gate(request, name: String(segments[1]), on: socket, core: core)
        case ("slow-headers", 1): return try Self.slowHeaders(request, on: socket)
        case ("truncated", 1): return try Self.truncated(request, on: socket)
        case ("close", 1): return .close
        case ("reset", 1):
            socket.abortOnClose()
            return .close
        case ("garbage", 1): return try Self.garbage(on: socket)
        case ("status-line", 1): return try Self.statusLine(request, on: socket)
        case ("encoded", 2): return try Self.encoded(request, coding: String(segments[1]), on: socket, core: core)
        case ("unknown-coding", 1): return try Self.unknownCoding(request, on: socket)
        case ("cookies", 1), ("cookies", 2): return try socket.send(Self.cookies(request), to: request)
        case ("basic-auth", 3): return try socket.send(Self.basicAuth(request, segments), to: request)
        case ("digest-auth", 3): return try socket.send(Self.digestAuth(request, segments), to: request)
        case ("any-auth", 3): return try socket.send(Self.anyAuth(request, segments), to: request)
        case ("negotiate-auth", 3): return try socket.send(Self.negotiateAuth(request, segments), to: request)
        case ("proxy-auth", 3): return try socket.send(Self.proxyAuth(request, segments), to: request)
        case ("cache", 2): return try socket.send(Self.cache(request, maxAge: segments[1]), to: request)
        case ("cacheable", 2): return try socket.send(Self.cacheable(request, name: segments[1]), to: request)
        case ("headers-size", 2): return try socket.send(Self.headersSize(segments[1]), to: request)
        case ("informational", 1): return try Self.informational(request, on: socket)
        case ("multipart-replace", 1): return try Self.multipartReplace(request, on: socket)
        default: return try socket.send(.text(404, "no route for \(request.path)\n"), to: request)
        }
    }

    /// The final response to send instead of `100 Continue`, for requests that should never send their body:
    /// `/status/{4xx or 5xx}`, as a server rejecting an upload up front would.
    static func responseBeforeBody(to request: FixtureRequest) -> FixtureResponse? {
        let segments = request.segments
        guard segments.count == 2, segments[0] == "status", let code = Int(segments[1]), code >= 400 else {
            return nil
        }
        return Self.status(segments[1])
    }

    private static func status(_ codeText: Substring) -> FixtureResponse {
        guard let code = Int(codeText), (200...599).contains(code) else {
            return .text(400, "status must be 200...599\n")
        }
        var response = FixtureResponse.text(code, "\(code)")
        if FixtureResponse.forbidsBody(code) { response.headers = [] }
        if code == 401 { response.headers.append(("WWW-Authenticate", #"Basic realm="fixture""#)) }
        if code == 407 { response.headers.append(("Proxy-Authenticate", #"Basic realm="fixture""#)) }
        return response
    }

    private static func redirect(_ request: FixtureRequest, code codeText: Substring) -> FixtureResponse {
        guard let code = Int(codeText), (300...399).contains(code) else {
            return .text(400, "redirect code must be 300...399\n")
        }
        let location = request.parameter("to") ?? "/echo"
        let cookie = request.parameter("cookie").map { [("Set-Cookie", $0)] } ?? []
        return .text(code, "redirecting to \(location)\n", headers: [("Location", location)] + cookie)
    }

    private static func redirectChain(_ request: FixtureRequest, _ remainingText: Substring) -> FixtureResponse {
        guard let remaining = Int(remainingText), remaining >= 0 else { return .text(400, "bad hop count\n") }
        let hops = request.integer("hops", default: 0)
        guard remaining > 0 else { return .json(200, ["hops": hops]) }
        let code = request.integer("code", default: 302)
        var location = "/redirect-chain/\(remaining - 1)?hops=\(hops + 1)"
        if request.parameter("code") != nil { location += "&code=\(code)" }
        return .text(code, "redirecting to \(location)\n", headers: [("Location", location)])
    }

    private static func absoluteRedirect(_ request: FixtureRequest, host: String) -> FixtureResponse {
        guard let port = request.parameter("port").flatMap({ Int($0) }), (1...65_535).contains(port) else {
            return .text(400, "port=1...65535 is required\n")
        }
        let path = request.parameter("path") ?? "/echo"
        let location = "http://\(host):\(port)\(path.hasPrefix("/") ? path : "/" + path)"
        let code = request.integer("code", default: 302)
        return .text(code, "redirecting to \(location)\n", headers: [("Location", location)])
    }
}
