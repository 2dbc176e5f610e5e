import JSONCodec

/// Checks shared by the request types; each throws the first problem, naming the field.
enum Validate {
    static func range<T: Comparable>(_ value: T, _ range: ClosedRange<T>, field: String) throws(RequestDecodingError) {
        guard range.contains(value) else {
            throw .invalidValue(field, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }

    /// A duration in seconds: finite, > 0, at most `max`.
    static func interval(_ value: Double, field: String, max: Double) throws(RequestDecodingError) {
        guard value.isFinite, value > 0, value <= max else {
            throw .invalidValue(field, "must be a number of seconds greater than 0 and at most \(Int(max))")
        }
    }

    /// Free text the store keeps as text (a description, a user name, a realm): at most `maxCharacters`
    /// Unicode scalars (as JSON Schema counts) and no NUL (U+0000), which PostgreSQL's `text` cannot hold
    /// and libcurl's C strings would cut at — refused on either store, so both answer alike.
    static func text(_ value: String, field: String, maxCharacters: Int) throws(RequestDecodingError) {
        guard value.unicodeScalars.count <= maxCharacters else {
            throw .invalidValue(field, "must be at most \(maxCharacters) characters")
        }
        guard !value.utf8.contains(0) else { throw .invalidValue(field, "must not contain NUL (U+0000)") }
    }

    /// `requiresDNSSECValidation: true`, of a session or a request: names are resolved by the system's
    /// `getaddrinfo` through libcurl, which reports no DNSSEC validation, so the service refuses rather than
    /// give lookups a client could not tell from validated ones.
    static func dnssecRefusal(field: String) -> RequestDecodingError {
        .invalidValue(field, "cannot be honoured: names are resolved by getaddrinfo, which reports no DNSSEC validation; only false")
    }

    static func identifier(_ value: String, field: String) throws(RequestDecodingError) {
        let allowed = value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard (1...255).contains(value.utf8.count), allowed else {
            throw .invalidValue(field, "must be 1 to 255 characters of A-Z, a-z, 0-9, '.', '_' and '-'")
        }
    }

    /// RFC 9110 `token` characters for a field name.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
                case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
                    UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                    UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
                    true
                default: false
                }
            }
    }

    /// Header names must be tokens and values must not smuggle a line break (request splitting).
    static func headerFields(_ headers: [String: String], field: String) throws(RequestDecodingError) {
        guard headers.count <= 100 else { throw .invalidValue(field, "at most 100 header fields") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard isToken(name), name.utf8.count <= 256 else {
                throw .invalidValue("\(field).\(name)", "is not a valid header field name")
            }
            guard value.utf8.count <= 8192, !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .invalidValue("\(field).\(name)", "must be at most 8192 bytes without CR, LF or NUL")
            }
        }
    }

    /// An absolute http or https URL with a host.
    static func httpURL(_ value: String, field: String, maxLength: Int = 8192) throws(RequestDecodingError) {
        guard value.utf8.count <= maxLength else { throw .invalidValue(field, "must be at most \(maxLength) characters") }
        let lower = value.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .invalidValue(field, "must be an absolute http or https URL")
        }
        guard !value.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .invalidValue(field, "must be an absolute http or https URL with a host and no spaces")
        }
        let rest = value.utf8.drop { $0 != UInt8(ascii: ":") }.dropFirst(3)  // after `scheme://`
        let authority = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard isAuthority(Array(authority)) else {
            throw .invalidValue(
                field, "must be an absolute http or https URL with an ASCII host (punycode for others) and a numeric port")
        }
    }

    /// `[userinfo@]host[:port]` in ASCII, as the contract's `HTTPURL` pattern states it: a registered name
    /// or an IPv6 literal in brackets, and a port of at most five digits.
    private static func isAuthority(_ bytes: [UInt8]) -> Bool {
        let userinfoEnd = bytes.lastIndex(of: UInt8(ascii: "@"))
        let userinfo = userinfoEnd.map { bytes[..<$0] } ?? []
        var hostAndPort = userinfoEnd.map { bytes[($0 + 1)...] } ?? bytes[...]
        let subDelimiters = Set("!$&'()*+,;=".utf8)
        func isUnreserved(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || Set("-._~".utf8).contains(byte)
        }
        guard userinfo.allSatisfy({ isUnreserved($0) || subDelimiters.contains($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "%") })
        else { return false }
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return false }
            hostAndPort = hostAndPort[hostAndPort.index(after: close)...]
        } else {
            let host = hostAndPort.prefix { $0 != UInt8(ascii: ":") }
            guard !host.isEmpty, host.allSatisfy({ isUnreserved($0) || subDelimiters.contains($0) }) else { return false }
            hostAndPort = hostAndPort[host.endIndex...]
        }
        guard let colon = hostAndPort.first else { return true }
        let port = hostAndPort.dropFirst()
        return colon == UInt8(ascii: ":") && port.count <= 5 && port.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    /// `SOCKSUser` and `SOCKSPassword`: both or neither, each 1 to 255 bytes without NUL (RFC 1929's
    /// sub-negotiation carries each with a one-byte length).
    private static func socksLogin(_ proxy: ProxyDictionary, field: String) throws(RequestDecodingError) {
        for case (let name, let value?) in [("SOCKSUser", proxy.SOCKSUser), ("SOCKSPassword", proxy.SOCKSPassword)] {
            guard (1...255).contains(value.utf8.count), !value.utf8.contains(0) else {
                throw .invalidValue("\(field).\(name)", "must be 1 to 255 bytes (RFC 1929), without NUL")
            }
        }
        if (proxy.SOCKSUser == nil) != (proxy.SOCKSPassword == nil) {
            let missing = proxy.SOCKSUser == nil ? "SOCKSUser" : "SOCKSPassword"
            throw .invalidValue("\(field).\(missing)", "SOCKSUser and SOCKSPassword are given together")
        }
    }

    static func proxy(_ proxy: ProxyDictionary, field: String) throws(RequestDecodingError) {
        let hosts = [("HTTPProxy", proxy.HTTPProxy), ("HTTPSProxy", proxy.HTTPSProxy), ("SOCKSProxy", proxy.SOCKSProxy)]
        for case (let name, let host?) in hosts {
            guard (1...255).contains(host.utf8.count),
                host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") })
            else { throw .invalidValue("\(field).\(name)", "must be a host name or address") }
        }
        for case (let name, let port?) in [("HTTPPort", proxy.HTTPPort), ("HTTPSPort", proxy.HTTPSPort), ("SOCKSPort", proxy.SOCKSPort)] {
            try range(port, 1...65535, field: "\(field).\(name)")
        }
        let enabledWithoutHost = [
            ("HTTPEnable", proxy.HTTPEnable, proxy.HTTPProxy), ("HTTPSEnable", proxy.HTTPSEnable, proxy.HTTPSProxy),
            ("SOCKSEnable", proxy.SOCKSEnable, proxy.SOCKSProxy),
        ].first { $0.1 == true && $0.2 == nil }
        if let (name, _, _) = enabledWithoutHost {
            throw .invalidValue("\(field).\(name)", "an enabled proxy needs its host")
        }
        try socksLogin(proxy, field: field)
        if let list = proxy.ExceptionsList, list.count > 1000 || list.contains(where: { $0.isEmpty || $0.utf8.count > 255 }) {
            throw .invalidValue("\(field).ExceptionsList", "at most 1000 non-empty host patterns")
        }
    }
}
