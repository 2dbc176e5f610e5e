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
        let line = raw.trimmingSuffix()
        if line.isEmpty { return true }
        if line.hasPrefix("HTTP/") {
            self = ResponseHead()
            let parts = line.split(separator: " ", maxSplits: 2)
            httpVersion = parts.first.map(String.init) ?? ""
            statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return false
        }
        if let first = line.first, first == " " || first == "\t", let last = fields.indices.last {
            fields[last].value += " " + line.drop(while: { $0 == " " || $0 == "\t" })  // obsolete line folding
            return false
        }
        guard let colon = line.firstIndex(of: ":") else { return false }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
        fields.append((name, String(value)))
        return false
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
    fileprivate func trimmingSuffix() -> Substring {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == "\r" || last == "\n" || last == "\r\n" {
            end = index(before: end)
        }
        return self[..<end]
    }

    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
