public import Foundation

/// A cookie store with the rules of RFC 6265 §5.3 (storage) and §5.4 (the `Cookie` header), plus what
/// browsers agree on from 6265bis: Secure cookies only from secure origins, `__Secure-` and `__Host-`
/// prefixes, non-secure origins cannot overwrite Secure cookies, lifetimes capped at 400 days.
///
/// Why not libcurl's cookie engine (shared through `CURLSH`, listed with `CURLINFO_COOKIELIST`): the
/// service's cookie storages are per tenant or per session, not per connection share; URLSession's
/// accept policies, `httpShouldHandleCookies` and the API's `HTTPCookie` properties (`sameSitePolicy`,
/// `isHTTPOnly`) need the cookies as values, which libcurl 7.88 keeps only as Netscape text lines (without
/// SameSite); and the store must decide durability. So the rules live here, as a value type its owner
/// keeps under its own lock.
///
/// Cookies are grouped by domain, so a request looks at the cookies of its host and its parent domains
/// only, never at the whole jar.
public struct CookieJar: Sendable {
    /// Cookies kept per domain (browsers keep 180; RFC 6265 asks for at least 50).
    public static let maximumPerDomain = 180
    /// Cookies kept in all (RFC 6265 asks for at least 3,000).
    public static let maximumCount = 3_000

    private let publicSuffixes: PublicSuffixList?
    private var byDomain: [String: [Cookie]] = [:]
    public private(set) var count = 0
    /// The `creationSequence` of the next cookie stored anew.
    private var nextCreationSequence: UInt64 = 0
    /// The latest creation date of a cookie stored, in whole milliseconds since 1970 (see `creationDate(now:)`).
    private var latestCreationMillisecond = -Double.infinity

    /// - Parameter publicSuffixes: the list that refuses cookies for `co.uk` and the like; nil refuses
    ///   only single-label domains (`com`).
    public init(publicSuffixes: PublicSuffixList?) {
        self.publicSuffixes = publicSuffixes
    }

    /// Whether the jar holds no cookie at all (expired ones count until they are removed).
    public var isEmpty: Bool { byDomain.values.allSatisfy(\.isEmpty) }

    /// Every cookie, by domain then name.
    public var all: [Cookie] {
        byDomain.keys.sorted().flatMap { domain in byDomain[domain]!.sorted { ($0.name, $0.path) < ($1.name, $1.path) } }
    }

    // MARK: Storing (RFC 6265 §5.3)

    /// Stores the cookie a response from `url` sets; returns it, or nil when the rules refuse it (or it
    /// only expired an older one).
    @discardableResult
    public mutating func store(_ header: SetCookie, from url: CookieURL, now: Date) -> Cookie? {
        let domain: String
        let isHostOnly: Bool
        if let attribute = header.domain {
            guard Self.domainMatches(url, attribute) else { return nil }
            if isPublicSuffix(attribute) {
                guard attribute == url.host else { return nil }  // a public suffix may set a cookie for itself only
                (domain, isHostOnly) = (url.host, true)
            } else {
                (domain, isHostOnly) = (attribute, false)
            }
        } else {
            (domain, isHostOnly) = (url.host, true)
        }
        if header.isSecure && !url.isSecure { return nil }
        if header.name.hasPrefix("__Secure-") && !(header.isSecure && url.isSecure) { return nil }
        if header.name.hasPrefix("__Host-") && !(header.isSecure && url.isSecure && isHostOnly && header.path == "/") {
            return nil
        }
        let cookie = Cookie(
            name: header.name, value: header.value, domain: domain, isHostOnly: isHostOnly,
            path: header.path ?? Self.defaultPath(of: url.path), expiresDate: header.expiresDate(now: now),
            isSecure: header.isSecure, isHTTPOnly: header.isHTTPOnly, sameSitePolicy: header.sameSite,
            creationDate: creationDate(now: now))
        if !cookie.isSecure && !url.isSecure && overwritesSecureCookie(cookie) { return nil }
        return insert(cookie, now: now)
    }

    /// Stores a cookie given whole (`setCookies(_:for:mainDocumentURL:)`): refused for a public suffix
    /// unless host-only, else kept as given (the caller applies the accept policy).
    @discardableResult
    public mutating func store(_ cookie: Cookie, now: Date) -> Cookie? {
        guard !cookie.name.isEmpty || !cookie.value.isEmpty, !cookie.domain.isEmpty else { return nil }
        if !cookie.isHostOnly && isPublicSuffix(cookie.domain) { return nil }
        return insert(cookie, now: now)
    }

    /// The creation date of a cookie a response sets `now`: `now` to the millisecond, but at least a
    /// millisecond after every cookie stored before it. The cookies of one response (one `now`) so come
    /// out in the order they were set (§5.4 step 2) also once written to the store and read back, as the
    /// store keeps dates to the millisecond and no sequence. A clock that steps back changes nothing:
    /// creation order is the order cookies were stored in.
    private mutating func creationDate(now: Date) -> Date {
        let millisecond = max(Self.millisecond(of: now), latestCreationMillisecond + 1)
        return Date(timeIntervalSince1970: millisecond / 1000)
    }

    /// The date to the nearest millisecond since 1970, as the store writes it.
    private static func millisecond(of date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded()
    }

    /// The replacement step: an older cookie with the same name, domain and path gives way and passes on
    /// its creation date and sequence; an expired one only removes it.
    private mutating func insert(_ cookie: Cookie, now: Date) -> Cookie? {
        var cookie = cookie
        var cookies = byDomain[cookie.domain] ?? []
        if let index = cookies.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
            cookie.creationDate = cookies[index].creationDate
            cookie.creationSequence = cookies[index].creationSequence
            cookies.remove(at: index)
            count -= 1
        } else {
            cookie.creationSequence = nextCreationSequence
            nextCreationSequence += 1
        }
        latestCreationMillisecond = max(latestCreationMillisecond, Self.millisecond(of: cookie.creationDate))
        guard !cookie.isExpired(at: now) else {
            byDomain[cookie.domain] = cookies.isEmpty ? nil : cookies
            return nil
        }
        cookies.append(cookie)
        count += 1
        byDomain[cookie.domain] = cookies
        evict(in: cookie.domain, now: now)
        return cookie
    }

    /// Keeps the limits: expired cookies go first, then the least recently used.
    private mutating func evict(in domain: String, now: Date) {
        if var cookies = byDomain[domain], cookies.count > Self.maximumPerDomain {
            cookies.removeAll { $0.isExpired(at: now) }
            while cookies.count > Self.maximumPerDomain,
                let oldest = cookies.indices.min(by: { cookies[$0].lastAccessDate < cookies[$1].lastAccessDate })
            {
                cookies.remove(at: oldest)
            }
            count -= (byDomain[domain]?.count ?? 0) - cookies.count
            byDomain[domain] = cookies
        }
        guard count > Self.maximumCount else { return }
        removeExpired(now: now)
        while count > Self.maximumCount, let oldest = all.min(by: { $0.lastAccessDate < $1.lastAccessDate }) {
            remove(oldest.identity)
        }
    }

    /// 6265bis "leave Secure cookies alone": a non-secure origin cannot replace or shadow a Secure cookie
    /// of the same name whose domain and path cover the new one's.
    private func overwritesSecureCookie(_ cookie: Cookie) -> Bool {
        for (domain, cookies) in byDomain where Self.domainsOverlap(domain, cookie.domain) {
            for existing in cookies where existing.isSecure && existing.name == cookie.name {
                if Self.pathMatches(cookie.path, existing.path) { return true }
            }
        }
        return false
    }

    private func isPublicSuffix(_ domain: String) -> Bool {
        publicSuffixes?.isPublicSuffix(domain) ?? !domain.contains(".")
    }

    // MARK: Sending (RFC 6265 §5.4)

    /// The cookies to send to `url`, in the `Cookie` header's order (§5.4 step 2: longer paths first,
    /// then older first; equal creation dates in the order the jar first stored them, never by domain);
    /// marks them used.
    public mutating func cookies(for url: CookieURL, now: Date) -> [Cookie] {
        var selected: [Cookie] = []
        for domain in Self.candidateDomains(of: url) {
            // Taken out while marked, so the array is not shared and is changed in place, not copied.
            guard var cookies = byDomain.removeValue(forKey: domain) else { continue }
            for index in cookies.indices {
                let cookie = cookies[index]
                guard !cookie.isExpired(at: now), !cookie.isHostOnly || domain == url.host,
                    !cookie.isSecure || url.isSecure, Self.pathMatches(url.path, cookie.path)
                else { continue }
                cookies[index].lastAccessDate = now
                selected.append(cookie)
            }
            byDomain[domain] = cookies
        }
        return selected.sorted { first, second in
            if first.path.utf8.count != second.path.utf8.count { return first.path.utf8.count > second.path.utf8.count }
            if first.creationDate != second.creationDate { return first.creationDate < second.creationDate }
            return first.creationSequence < second.creationSequence
        }
    }

    /// The `Cookie` header for `cookies` (`name=value; …`; a nameless cookie sends its value alone), or
    /// nil when there is none.
    public static func header(for cookies: [Cookie]) -> String? {
        guard !cookies.isEmpty else { return nil }
        return cookies.map { $0.name.isEmpty ? $0.value : "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    // MARK: Removing

    @discardableResult
    public mutating func remove(_ identity: Cookie.Identity) -> Bool {
        guard var cookies = byDomain[identity.domain],
            let index = cookies.firstIndex(where: { $0.name == identity.name && $0.path == identity.path })
        else { return false }
        cookies.remove(at: index)
        count -= 1
        byDomain[identity.domain] = cookies.isEmpty ? nil : cookies
        return true
    }

    /// Every cookie goes.
    public mutating func removeAll() {
        byDomain = [:]
        count = 0
    }

    /// `removeCookies(since:)`: the cookies stored at or after `date`.
    public mutating func remove(since date: Date) {
        removeAll { $0.creationDate >= date }
    }

    public mutating func removeExpired(now: Date) {
        removeAll { $0.isExpired(at: now) }
    }

    /// Session cookies (`isSessionOnly`) end with their storage's life (a restart).
    public mutating func removeSessionCookies() {
        removeAll { $0.isSessionOnly }
    }

    private mutating func removeAll(where predicate: (Cookie) -> Bool) {
        for (domain, cookies) in byDomain {
            let kept = cookies.filter { !predicate($0) }
            count -= cookies.count - kept.count
            byDomain[domain] = kept.isEmpty ? nil : kept
        }
    }

    // MARK: The matching rules (RFC 6265 §5.1.3, §5.1.4)

    /// The host and each of its parent domains: the only domains whose cookies can apply. An IP address
    /// has no parent domains.
    static func candidateDomains(of url: CookieURL) -> [String] {
        guard !url.hostIsIPAddress else { return [url.host] }
        var domains = [url.host]
        var rest = Substring(url.host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }

    /// §5.1.3: the host is the domain, or a host name ending in `.domain`.
    static func domainMatches(_ url: CookieURL, _ domain: String) -> Bool {
        if url.host == domain { return true }
        return !url.hostIsIPAddress && url.host.hasSuffix("." + domain)
    }

    private static func domainsOverlap(_ first: String, _ second: String) -> Bool {
        first == second || first.hasSuffix("." + second) || second.hasSuffix("." + first)
    }

    /// §5.1.4: the request path is the cookie path, or under it at a `/` boundary.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/")
            || requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// §5.1.4: the directory of the request path (`/a/b/c` → `/a/b`), `/` at the top.
    static func defaultPath(of path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
