internal import Foundation

/// What the origin read of a request body. Bodies are hashed while read and kept only when small, so
/// uploads of any size cost constant memory.
struct FixtureBody {
    /// Bodies up to this size are kept for `/echo`'s `bodyBase64`.
    static let keptLimit = 65_536

    var size = 0
    var sha256 = FixtureSHA256.hex(of: [])
    /// The bytes, or nil once the body exceeded ``keptLimit``.
    var bytes: [UInt8]? = []
    var complete = true
}

/// Serves one connection: requests in sequence (keep-alive) until either side closes or the origin stops.
enum FixtureConnection {
    /// The most bytes of request line plus header fields; more is answered with 431.
    static let headLimit = 65_536
    /// Seconds an idle keep-alive connection is kept.
    static let keepAliveTimeout: Double = 60

    private enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    static func serve(_ socket: FixtureSocket, id: Int, core: FixtureOriginCore) {
        defer { core.state.withLock { $0.connectionEnds[id] = Date() } }
        do {
            while try Self.exchange(on: socket, connectionID: id, core: core) {}
        } catch .malformed(let status, let reason) {
            let response = FixtureResponse.text(status, "\(reason)\n", headers: [("Connection", "close")])
            try? socket.write(response.head(closing: true) + response.body)
            socket.closeAfterEarlyAnswer()
        } catch {
            // Stopped, reset, timed out: nothing to answer, and the socket closes when it is released.
        }
    }

    /// Serves one request; true when the connection stays open for the next.
    private static func exchange(
        on socket: FixtureSocket, connectionID: Int, core: FixtureOriginCore
    ) throws(FixtureSocketError) -> Bool {
        guard let head = try socket.readHead(limit: Self.headLimit, idleTimeout: Self.keepAliveTimeout) else {
            return false
        }
        let receivedAt = Date()
        let request = try FixtureRequest.parse(head: head)
        let framing = try Self.framing(of: request)
        var body = FixtureBody()

        if framing != .none && framing != .length(0),
            request.header("Expect")?.lowercased() == "100-continue"
        {
            if let early = FixtureRouter.responseBeforeBody(to: request) {
                // The body never comes unless asked for, so the connection cannot be reused.
                body.complete = false
                core.record(request, body: body, connectionID: connectionID, receivedAt: receivedAt)
                _ = try socket.send(early, to: request, closing: true)
                socket.closeAfterEarlyAnswer()
                return false
            }
            try socket.write("HTTP/1.1 100 Continue\r\n\r\n")
        }

        do {
            try Self.readBody(framing, from: socket, into: &body)
        } catch {
            body.complete = false
            core.record(request, body: body, connectionID: connectionID, receivedAt: receivedAt)
            throw error
        }
        core.record(request, body: body, connectionID: connectionID, receivedAt: receivedAt)
        let disposition = try FixtureRouter.respond(to: request, body: body, on: socket, core: core)
        // A request whose body framing was ambiguous (both fields) must not be followed on this connection.
        let ambiguous = request.header("Transfer-Encoding") != nil && request.header("Content-Length") != nil
        return disposition == .keepAlive && !request.wantsClose && !ambiguous
    }

    /// How the body is delimited (RFC 9112 §6.3): chunked wins over `Content-Length`, and no field means none.
    private static func framing(of request: FixtureRequest) throws(FixtureSocketError) -> Framing {
        let codings = request.headers(named: "Transfer-Encoding")
            .flatMap { $0.lowercased().split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if !codings.isEmpty {
            guard codings.last == "chunked" else {
                throw .malformed(status: 501, reason: "unsupported transfer coding")
            }
            return .chunked
        }
        let lengths = Set(
            request.headers(named: "Content-Length")
                .flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) })
        guard let text = lengths.first else { return .none }
        guard lengths.count == 1, !text.isEmpty, text.allSatisfy(\.isASCII), let length = Int(text), length >= 0,
            text.allSatisfy(\.isNumber)
        else { throw .malformed(status: 400, reason: "bad Content-Length") }
        return .length(length)
    }

    /// Reads the body, hashing as it goes; `body` holds what arrived even when this throws.
    private static func readBody(
        _ framing: Framing, from socket: FixtureSocket, into body: inout FixtureBody
    ) throws(FixtureSocketError) {
        let hasher = FixtureSHA256()
        defer { body.sha256 = hasher.finalizeHex() }
        var kept: [UInt8]? = []
        defer { body.bytes = kept }
        var size = 0
        defer { body.size = size }
        func consume(_ piece: ArraySlice<UInt8>) {
            piece.withUnsafeBytes { hasher.update($0) }
            size += piece.count
            if size <= FixtureBody.keptLimit { kept?.append(contentsOf: piece) } else { kept = nil }
        }
        switch framing {
        case .none:
            return
        case .length(let length):
            try socket.readExactly(length, consume)
        case .chunked:
            var trailerBytes = 0
            while true {  // bounded: every chunk is read from the peer, which must send the last one
                let line = String(decoding: try socket.readLine(limit: 4096), as: UTF8.self)
                let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw .malformed(status: 400, reason: "bad chunk size")
                }
                if size == 0 { break }
                try socket.readExactly(size, consume)
                guard try socket.readLine(limit: 2).isEmpty else {
                    throw .malformed(status: 400, reason: "chunk data longer than its size")
                }
            }
            while true {  // trailer fields up to the blank line, bounded like a head
                let line = try socket.readLine(limit: Self.headLimit)
                trailerBytes += line.count + 2
                if line.isEmpty { return }
                if trailerBytes > Self.headLimit { throw .malformed(status: 431, reason: "trailers too large") }
            }
        }
    }
}
