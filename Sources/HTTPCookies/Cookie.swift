public import Foundation

/// One stored cookie, with the properties `HTTPCookie` shows and the bookkeeping of RFC 6265 §5.3.
///
/// Named `Cookie`, not `HTTPCookie`, so as not to shadow Foundation's type.
public struct Cookie: Sendable, Hashable {
    public var name: String
    public var value: String
    /// Lowercased, without a leading dot. For a host-only cookie, the host that set it.
    public var domain: String
    /// Sent only to `domain` itself (no `Domain` attribute), not to its subdomains.
    public var isHostOnly: Bool
    public var path: String
    /// nil: a session cookie (`isSessionOnly`), gone when its storage is.
    public var expiresDate: Date?
    public var isSecure: Bool
    public var isHTTPOnly: Bool
    /// `SameSite` as given: `lax`, `strict` or `none` (lowercased); nil when absent or unknown.
    public var sameSitePolicy: String?
    /// When the cookie was first stored (kept when a newer one replaces it): orders the `Cookie` header.
    public var creationDate: Date
    public var lastAccessDate: Date
    /// Where the cookie came in the order its jar first stored cookies (kept when a newer one replaces
    /// it): orders the `Cookie` header where creation dates are equal, as for cookies given whole in one
    /// call or read back from rows written with one date. Not persisted: the jar numbers rows as it reads them.
    var creationSequence: UInt64 = 0

    public init(
        name: String, value: String, domain: String, isHostOnly: Bool, path: String, expiresDate: Date?,
        isSecure: Bool, isHTTPOnly: Bool, sameSitePolicy: String?, creationDate: Date, lastAccessDate: Date? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.expiresDate = expiresDate
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSitePolicy = sameSitePolicy
        self.creationDate = creationDate
        self.lastAccessDate = lastAccessDate ?? creationDate
    }

    public var isSessionOnly: Bool { expiresDate == nil }

    /// What makes two cookies the same cookie: a later one with this identity replaces an earlier one.
    public struct Identity: Hashable, Sendable {
        public var name: String
        public var domain: String
        public var path: String

        public init(name: String, domain: String, path: String) {
            self.name = name
            self.domain = domain
            self.path = path
        }
    }

    public var identity: Identity { Identity(name: name, domain: domain, path: path) }

    public func isExpired(at now: Date) -> Bool {
        expiresDate.map { $0 <= now } ?? false
    }
}

/// The parts of a request URL the cookie rules look at.
public struct CookieURL: Sendable, Hashable {
    /// Lowercased.
    public var scheme: String
    /// Lowercased, without brackets for IPv6.
    public var host: String
    /// The path as the request sends it (`RequestPath`), percent-encoded, never decoded; `/` when empty.
    public var path: String

    public init(scheme: String, host: String, path: String) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.path = path.isEmpty ? "/" : path
    }

    /// nil for a URL without a host (no cookie applies to it).
    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { return nil }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(scheme: scheme, host: bare, path: RequestPath.of(text))
    }

    /// `https` (and `wss`): where Secure cookies may be sent and set.
    public var isSecure: Bool { scheme == "https" || scheme == "wss" }

    /// An IPv4 or IPv6 literal: only host-only cookies apply to it.
    public var hostIsIPAddress: Bool {
        host.contains(":") || (host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." })
    }
}
