/// A response's status line and header fields, as libcurl hands them over line by line
/// (`CURLOPT_HEADERFUNCTION`). A new status line starts a new response: 1xx, redirects and the final one.
public struct ResponseHead: Sendable, Hashable {
    public var httpVersion = ""
    public var statusCode = 0
    /// Header fields in arrival order, names as received.
    public var fields: [(name: String, value: String)] = []

    public init() {}

    /// Feeds one header line (with or without CRLF). Returns true when the line ended the head (blank line).
    public mutating func consume(line raw: String) -> Bool {
        var line = raw
        return line.withUTF8 { consume(line: UnsafeRawBufferPointer($0)) }
    }

    /// Feeds one header line as libcurl's header callback gives it: its bytes, with or without CRLF. Read
    /// as bytes, not characters (the names, the colon and the whitespace are ASCII; each piece is decoded
    /// as UTF-8 on its own, which a multi-byte sequence cannot straddle): parsing the line as a `String`
    /// was 2 % of the service's CPU for small tasks (`Benchmarks/transfers.sh` with `PROFILE`).
    public mutating func consume(line bytes: UnsafeRawBufferPointer) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\r") || bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        guard end > 0 else { return true }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.starts(with: "HTTP/".utf8) {
            self = ResponseHead()
            // "HTTP/1.1 200 OK": the version, then the code (runs of spaces count as one, as a split does).
            let versionEnd = line.firstIndex(of: UInt8(ascii: " ")) ?? end
            httpVersion = Self.text(line, 0..<versionEnd)
            var codeStart = versionEnd
            while codeStart < end, line[codeStart] == UInt8(ascii: " ") { codeStart += 1 }
            let codeEnd = line[codeStart...].firstIndex(of: UInt8(ascii: " ")) ?? end
            statusCode = Int(Self.text(line, codeStart..<codeEnd)) ?? 0
            return false
        }
        if Self.isBlank(line[0]), let last = fields.indices.last {
            let start = line.firstIndex { !Self.isBlank($0) } ?? end
            fields[last].value += " " + Self.text(line, start..<end)  // obsolete line folding
            return false
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let valueStart = line[(colon + 1)...].firstIndex { !Self.isBlank($0) } ?? end
        fields.append((Self.text(line, 0..<colon), Self.text(line, valueStart..<end)))
        return false
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func text(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: line[range]), as: UTF8.self)
    }

    /// The first value of a field, case-insensitively.
    public func value(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// `allHeaderFields` as HTTPURLResponse builds it: one entry per name (first spelling kept), repeated
    /// fields joined with ", ".
    public var allHeaderFields: [String: String] {
        var result: [String: String] = [:]
        var spelling: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            if let existing = spelling[key] {
                result[existing] = (result[existing] ?? "") + ", " + value
            } else {
                spelling[key] = name
                result[name] = value
            }
        }
        return result
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.httpVersion == rhs.httpVersion
            && lhs.fields.map { "\($0.name):\($0.value)" } == rhs.fields.map { "\($0.name):\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(statusCode) }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
