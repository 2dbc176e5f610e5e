/// An absolute http(s) URL taken apart just enough to normalise it into a cache key and compare origins.
///
/// Hand-parsed rather than through Foundation's `URL` so that the key is the same on every platform and
/// Foundation version: a cache whose keys shift between releases silently loses every stored response.
struct CacheURL: Equatable {
    /// Lowercased: `http` or `https`.
    var scheme: String
    /// `user:password@` as written, or empty.
    var userInfo: String
    /// Lowercased; an IPv6 literal keeps its brackets.
    var host: String
    /// nil when absent or the scheme's default.
    var port: Int?
    /// The path (never empty: at least "/") and query, as written; no fragment.
    var pathAndQuery: String

    /// The scheme, host and effective port (RFC 6454): what "same origin" compares.
    var origin: String { "\(scheme)://\(host):\(port ?? Self.defaultPort(scheme))" }

    var key: String {
        "\(scheme)://\(userInfo)\(host)" + (port.map { ":\($0)" } ?? "") + pathAndQuery
    }

    init?(_ text: String) {
        guard !text.contains(where: { $0.isWhitespace || ($0.asciiValue ?? 0x20) < 0x20 }),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        scheme = text[..<colon].lowercased()
        let rest = text[text.index(after: colon)...]
        guard scheme == "http" || scheme == "https", rest.hasPrefix("//") else { return nil }
        let afterSlashes = rest.dropFirst(2).prefix { $0 != "#" }
        let authority = afterSlashes.prefix { $0 != "/" && $0 != "?" }
        let path = afterSlashes.dropFirst(authority.count)
        pathAndQuery = path.hasPrefix("/") ? String(path) : "/" + path
        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            hostAndPort = authority[authority.index(after: at)...]
        } else {
            userInfo = ""
        }
        // The port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        let portColon = hostAndPort.lastIndex(of: ":").flatMap { colon in
            hostAndPort[colon...].contains("]") ? nil : colon
        }
        let hostPart = portColon.map { hostAndPort[..<$0] } ?? hostAndPort
        guard !hostPart.isEmpty else { return nil }
        host = hostPart.lowercased()
        port = nil
        if let portColon {
            let digits = hostAndPort[hostAndPort.index(after: portColon)...]
            if !digits.isEmpty {
                guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number <= 65_535 else { return nil }
                port = number == Self.defaultPort(scheme) ? nil : number
            }
        }
    }

    static func defaultPort(_ scheme: String) -> Int { scheme == "https" ? 443 : 80 }
}
