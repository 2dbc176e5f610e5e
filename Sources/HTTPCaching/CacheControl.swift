/// Cache-Control directives (RFC 9111 §5.2) from every `Cache-Control` field of a message.
///
/// One type serves requests and responses: the directives share a syntax, and each rule reads only the ones that
/// apply to its side. Parsing is lenient the way §4.2.1 and §1.2.2 ask a recipient to be, never the way that would
/// make a response look fresher than its sender meant.
public struct CacheControl: Sendable, Equatable {
    /// Seconds; the first occurrence wins (§4.2.1). A value that is not delta-seconds counts as 0, so a response
    /// with a garbled `max-age` is stale rather than fresh for a guessed time.
    public var maxAge: Int?
    /// Parsed but ignored by a private cache.
    public var sMaxAge: Int?
    /// Request: how stale a response the client accepts; `max-stale` without a value accepts any (`Int.max`).
    public var maxStale: Int?
    /// Request: how long the response must stay fresh.
    public var minFresh: Int?
    public var noStore = false
    /// `no-cache` with or without field names: a private cache may treat the qualified form as the whole (§5.2.2.4).
    public var noCache = false
    public var mustRevalidate = false
    public var proxyRevalidate = false
    public var isPublic = false
    public var isPrivate = false
    public var immutable = false
    /// Request: answer from the cache or not at all.
    public var onlyIfCached = false
    /// Response: seconds past its freshness during which it may be served while it is revalidated in the
    /// background (RFC 5861 §3).
    public var staleWhileRevalidate: Int?

    /// The greatest delta-seconds a cache needs to represent (§1.2.2); larger values count as this.
    static let deltaSecondsLimit = 2_147_483_648

    /// Reads every `Cache-Control` field of `fields`; directive names are case-insensitive and unknown ones ignored.
    public init(fields: HTTPFields) {
        let text = FieldValues.all("Cache-Control", in: fields).joined(separator: ",")
        for (name, argument) in Self.directives(in: text) {
            switch name {
            case "max-age": maxAge = maxAge ?? Self.deltaSeconds(argument)
            case "s-maxage": sMaxAge = sMaxAge ?? Self.deltaSeconds(argument)
            case "max-stale": maxStale = maxStale ?? (argument == nil ? Int.max : Self.deltaSeconds(argument))
            case "min-fresh": minFresh = minFresh ?? Self.deltaSeconds(argument)
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "proxy-revalidate": proxyRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "immutable": immutable = true
            case "only-if-cached": onlyIfCached = true
            case "stale-while-revalidate": staleWhileRevalidate = staleWhileRevalidate ?? Self.deltaSeconds(argument)
            default: break
            }
        }
    }

    /// delta-seconds (§1.2.2): digits only; anything else is 0, an overflowing value the 2^31 limit.
    static func deltaSeconds(_ argument: String?) -> Int {
        guard let argument, !argument.isEmpty, argument.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
        return min(Int(argument) ?? deltaSecondsLimit, deltaSecondsLimit)
    }

    /// Splits `text` into (lowercased name, argument) pairs at commas outside quoted strings; a quoted argument is
    /// returned unquoted and unescaped, a missing one as nil.
    static func directives(in text: String) -> [(name: String, argument: String?)] {
        var result: [(name: String, argument: String?)] = []
        var scanner = Substring(text)
        while !scanner.isEmpty {
            let name = FieldValues.trimmed(scanner.prefix { $0 != "," && $0 != "=" }).lowercased()
            scanner = scanner.drop { $0 != "," && $0 != "=" }
            var argument: String?
            if scanner.first == "=" {
                scanner.removeFirst()
                argument = readArgument(&scanner)
            }
            scanner = scanner.drop { $0 != "," }.dropFirst()  // past anything malformed up to the next directive
            if !name.isEmpty { result.append((name, argument)) }
        }
        return result
    }

    /// Reads a token or quoted-string argument from the front of `scanner`, leaving it at the following comma.
    private static func readArgument(_ scanner: inout Substring) -> String {
        while let first = scanner.first, first == " " || first == "\t" { scanner.removeFirst() }
        guard scanner.first == "\"" else {
            let token = scanner.prefix { $0 != "," }
            scanner = scanner.dropFirst(token.count)
            return FieldValues.trimmed(token)
        }
        scanner.removeFirst()
        var value = ""
        while let character = scanner.popFirst() {
            if character == "\"" { break }
            if character == "\\", let escaped = scanner.popFirst() {
                value.append(escaped)
            } else {
                value.append(character)
            }
        }
        return value
    }
}
