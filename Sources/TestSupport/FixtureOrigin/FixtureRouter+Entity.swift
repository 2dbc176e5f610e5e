internal import Foundation

/// A representation served with ranges and validators: `/bytes/{n}` and `/resource/{name}`.
struct FixtureEntity {
    var length: Int
    var etag: String?
    var lastModified: String?
    var acceptsRanges = true
    /// Fills the buffer with the bytes at the given offset.
    var produce: (UnsafeMutableBufferPointer<UInt8>, Int) -> Void
}

extension FixtureRouter {
    /// Bytes written per `send` when not throttled; throttled sends are smaller (see ``stream(_:range:…)``).
    static let chunkSize = 16_384

    static func bytes(
        _ request: FixtureRequest, count countText: Substring, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        guard let count = Int(countText), count >= 0 else {
            return try socket.send(.text(400, "bad size\n"), to: request)
        }
        let seed = request.parameter("seed").flatMap { UInt64($0) } ?? 0
        var etag = "\"bytes-\(count)-\(seed)\""
        if let custom = request.parameter("etag") {
            etag = custom.hasPrefix("\"") || custom.hasPrefix("W/") ? custom : "\"\(custom)\""
        }
        let corrupt = Self.corruptRange(request.parameter("corrupt"))
        let entity = FixtureEntity(
            length: count, etag: etag, lastModified: Self.fixedLastModified, acceptsRanges: !request.flag("noRanges")
        ) { buffer, offset in
            FixtureBytes.fill(buffer, offset: offset, seed: seed)
            // A corrupting mirror: the bytes of `corrupt` inverted, whatever range is asked for.
            guard let corrupt else { return }
            let first = max(offset, corrupt.lowerBound)
            for index in first..<max(first, min(offset + buffer.count, corrupt.upperBound)) { buffer[index - offset] ^= 0xFF }
        }
        return try Self.serve(entity, to: request, on: socket)
    }

    /// `corrupt=first-last` (inclusive) as a range of offsets; nil when absent or malformed.
    static func corruptRange(_ text: String?) -> Range<Int>? {
        guard let bounds = text?.split(separator: "-"), bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]),
            first <= last
        else { return nil }
        return first..<last + 1
    }

    static func resource(
        _ request: FixtureRequest, name: String, on socket: FixtureSocket, core: FixtureOriginCore
    ) throws(FixtureSocketError) -> FixtureDisposition {
        guard let resource = core.resource(name) else {
            return try socket.send(.text(404, "no resource \(name)\n"), to: request)
        }
        let body = resource.body
        let entity = FixtureEntity(length: body.count, etag: resource.etag, lastModified: resource.lastModified) {
            buffer, offset in
            _ = buffer.initialize(from: body[offset..<offset + buffer.count])
        }
        return try Self.serve(entity, to: request, on: socket)
    }

    /// Answers 304, 416, 206 or 200 as the conditional and range fields ask (RFC 9110 §13, §14).
    ///
    /// `rate` (bytes per second) throttles the body and `chunked=1` frames it chunked without a length.
    static func serve(
        _ entity: FixtureEntity, to request: FixtureRequest, on socket: FixtureSocket
    ) throws(FixtureSocketError) -> FixtureDisposition {
        var headers: [(String, String)] = [("Content-Type", "application/octet-stream")]
        if let etag = entity.etag { headers.append(("ETag", etag)) }
        if let lastModified = entity.lastModified { headers.append(("Last-Modified", lastModified)) }
        if entity.acceptsRanges { headers.append(("Accept-Ranges", "bytes")) }

        if let condition = request.header("If-None-Match"), let etag = entity.etag,
            Self.weakMatch(condition, etag)
        {
            return try socket.send(FixtureResponse(status: 304, headers: Array(headers.dropFirst())), to: request)
        }
        var status = 200
        var range = 0..<entity.length
        if entity.acceptsRanges, let rangeField = request.header("Range"), Self.ifRangeHolds(request, entity) {
            switch Self.parseRange(rangeField, length: entity.length) {
            case .ignored:
                break
            case .unsatisfiable:
                let response = FixtureResponse.text(
                    416, "range not satisfiable\n", headers: [("Content-Range", "bytes */\(entity.length)")])
                return try socket.send(response, to: request)
            case .satisfiable(let bounds):
                status = 206
                range = bounds
                let last = bounds.upperBound - 1
                headers.append(("Content-Range", "bytes \(bounds.lowerBound)-\(last)/\(entity.length)"))
            }
        }
        let chunked = request.flag("chunked")
        headers.append(chunked ? ("Transfer-Encoding", "chunked") : ("Content-Length", "\(range.count)"))
        let closing = request.wantsClose
        try socket.write(FixtureResponse(status: status, headers: headers).head(closing: closing))
        guard !request.isHead else { return closing ? .close : .keepAlive }
        let rate = request.parameter("rate").flatMap { Double($0) }.flatMap { $0 > 0 ? $0 : nil }
        try Self.stream(entity, range: range, rate: rate, chunked: chunked, on: socket)
        return closing ? .close : .keepAlive
    }

    /// Writes `range` of the entity, paced to `rate` bytes per second when given.
    ///
    /// Pacing follows a schedule from the start (byte k is due at k / rate s), so sleep overshoot does not
    /// accumulate; throttled pieces are about a tenth of a second's worth, so a transfer can be interrupted
    /// at a fine grain.
    private static func stream(
        _ entity: FixtureEntity, range: Range<Int>, rate: Double?, chunked: Bool, on socket: FixtureSocket
    ) throws(FixtureSocketError) {
        let pieceSize = rate.map { min(Self.chunkSize, max(1, Int($0 / 10))) } ?? Self.chunkSize
        var buffer = [UInt8](repeating: 0, count: pieceSize)
        let started = ContinuousClock.now
        var offset = range.lowerBound
        while offset < range.upperBound {  // bounded: each turn sends at least one byte
            let count = min(pieceSize, range.upperBound - offset)
            buffer.withUnsafeMutableBufferPointer { entity.produce(.init(rebasing: $0[0..<count]), offset) }
            let piece = buffer[0..<count]
            let framed = chunked ? Array("\(String(count, radix: 16))\r\n".utf8) + piece + [0x0D, 0x0A] : Array(piece)
            try socket.write(framed)
            offset += count
            if let rate {
                let due = started + .milliseconds(Int64(Double(offset - range.lowerBound) / rate * 1000))
                let wait = ContinuousClock.now.duration(to: due)
                // To the microsecond (a pause cut to whole milliseconds sent pieces early: a throttled body
                // came in under its time once under load).
                if wait > .zero { try socket.pause(seconds: Double(wait / .microseconds(1)) / 1_000_000) }
            }
        }
        if chunked { try socket.write("0\r\n\r\n") }
    }

    private enum RangeRequest {
        case ignored
        case unsatisfiable
        case satisfiable(Range<Int>)
    }

    /// One `bytes=` range (`a-b`, `a-`, `-suffix`). Several ranges, other units or bad syntax are ignored,
    /// which RFC 9110 §14.2 allows: the full representation is sent.
    private static func parseRange(_ field: String, length: Int) -> RangeRequest {
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .ignored }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let isDigits = { (text: String) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        if first.isEmpty {
            guard isDigits(last), let suffix = Int(last) else { return .ignored }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, length - suffix)..<length)
        }
        guard isDigits(first), let start = Int(first) else { return .ignored }
        var end = length - 1
        if !last.isEmpty {
            guard isDigits(last), let requested = Int(last), requested >= start else { return .ignored }
            end = min(end, requested)
        }
        guard start < length else { return .unsatisfiable }
        return .satisfiable(start..<end + 1)
    }

    /// `If-Range` holds when absent, when it is the entity's strong ETag, or when it is exactly its
    /// `Last-Modified` date (RFC 9110 §13.1.5); otherwise the range is ignored and the whole entity sent.
    private static func ifRangeHolds(_ request: FixtureRequest, _ entity: FixtureEntity) -> Bool {
        guard let condition = request.header("If-Range")?.trimmingCharacters(in: .whitespaces) else { return true }
        if condition.hasPrefix("\"") || condition.hasPrefix("W/") {
            guard let etag = entity.etag, !etag.hasPrefix("W/") else { return false }
            return condition == etag
        }
        return condition == entity.lastModified
    }

    /// Whether an `If-None-Match` list names `etag`, by weak comparison (RFC 9110 §13.1.2).
    static func weakMatch(_ condition: String, _ etag: String) -> Bool {
        let opaque = { (tag: String) in tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag }
        let candidates = condition.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return candidates.contains("*") || candidates.contains { opaque($0) == opaque(etag) }
    }
}
