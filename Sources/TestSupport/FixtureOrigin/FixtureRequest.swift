internal import Foundation

/// One parsed request head, as the routes see it.
struct FixtureRequest {
    var method: String
    /// The request target as sent: origin-form (`/path?query`), or absolute-form reduced to it.
    var target: String
    var path: String
    /// The raw query after `?`, or "" when there is none.
    var query: String
    var version: String
    var headers: [(name: String, value: String)]

    var isHead: Bool { self.method == "HEAD" }

    /// The first value of header `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return self.headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of header `name`, in order.
    func headers(named name: String) -> [String] {
        let wanted = name.lowercased()
        return self.headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The query's parameters in order, percent-decoded (`+` stays a plus: these are URLs, not forms).
    var parameters: [(name: String, value: String)] {
        self.query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The first value of query parameter `name`.
    func parameter(_ name: String) -> String? {
        self.parameters.first { $0.name == name }?.value
    }

    /// Query parameter `name` as an integer, or `fallback` when absent or not a number.
    func integer(_ name: String, default fallback: Int) -> Int {
        self.parameter(name).flatMap { Int($0) } ?? fallback
    }

    /// Query parameter `name` as seconds, or `fallback` when absent or not a number.
    func seconds(_ name: String, default fallback: Double) -> Double {
        self.parameter(name).flatMap { Double($0) }.map { max(0, $0) } ?? fallback
    }

    /// Query parameter `name` is `1` or `true`.
    func flag(_ name: String) -> Bool {
        self.parameter(name) == "1" || self.parameter(name) == "true"
    }

    /// The path's segments after the leading slash: `/bytes/10` is `["bytes", "10"]`.
    var segments: [Substring] {
        self.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    /// The client asked to end the connection after this exchange (RFC 9112 §9.3).
    var wantsClose: Bool {
        let tokens = self.headers(named: "Connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if self.version == "HTTP/1.0" { return !tokens.contains("keep-alive") }
        return tokens.contains("close")
    }

    /// Parses a head (request line and fields, without the blank line).
    ///
    /// - Throws: ``FixtureSocketError/malformed(status:reason:)`` with 400 for anything that is not HTTP/1.x.
    static func parse(head: [UInt8]) throws(FixtureSocketError) -> FixtureRequest {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        guard !lines.isEmpty else { throw .malformed(status: 400, reason: "empty request") }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, requestLine[2].hasPrefix("HTTP/1.") else {
            throw .malformed(status: 400, reason: "bad request line")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            if let first = line.first, first == " " || first == "\t" {
                throw .malformed(status: 400, reason: "obsolete line folding")
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else { throw .malformed(status: 400, reason: "bad header line") }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            headers.append((String(line[..<colon]), value))
        }
        var target = String(requestLine[1])
        if target.hasPrefix("http"), let schemeEnd = target.range(of: "://") {
            // Absolute-form (a client that takes the origin for a proxy): keep the path and query.
            let afterScheme = target[schemeEnd.upperBound...]
            target = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        }
        guard target.hasPrefix("/") || (target == "*" && requestLine[0] == "OPTIONS") else {
            throw .malformed(status: 400, reason: "bad request target")
        }
        let questionMark = target.firstIndex(of: "?")
        return FixtureRequest(
            method: String(requestLine[0]),
            target: target,
            path: String(target[..<(questionMark ?? target.endIndex)]),
            query: questionMark.map { String(target[target.index(after: $0)...]) } ?? "",
            version: String(requestLine[2]),
            headers: headers)
    }
}
