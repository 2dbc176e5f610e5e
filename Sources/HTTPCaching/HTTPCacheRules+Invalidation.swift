import Foundation

/// Cache keys, and what an unsafe request makes stale (RFC 9111 §4.4).
extension HTTPCacheRules {
    /// Methods that cannot change the target's state (RFC 9110 §9.2.1), so their responses invalidate nothing.
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// Whether a response with `statusCode` to a `method` request invalidates what is stored (§4.4): an
    /// unsafe method answered 2xx or 3xx.
    public static func invalidates(method: String, statusCode: Int) -> Bool {
        !safeMethods.contains(method) && (200...399).contains(statusCode)
    }

    /// §4.4: the URLs a response to an unsafe request invalidates: for a method other than GET, HEAD, OPTIONS, TRACE and a
    /// 2xx or 3xx status, the target URL and the `Location` and `Content-Location` URLs (resolved against the target) when
    /// they have the target's origin; [] otherwise. Every URL returned is in `cacheKey` form.
    ///
    /// Other origins are left alone because a response from one origin must not be able to evict another's entries.
    public static func invalidatedURLs(method: String, statusCode: Int, url: String, responseFields: HTTPFields) -> [String] {
        guard invalidates(method: method, statusCode: statusCode), let target = CacheURL(url) else { return [] }
        var keys = [target.key]
        // Foundation resolves references (RFC 3986 §5.2); a target it cannot read still invalidates itself.
        guard let base = URL(string: url) else { return keys }
        for name in ["Location", "Content-Location"] {
            guard let reference = FieldValues.first(name, in: responseFields), !reference.isEmpty,
                let resolved = URL(string: reference, relativeTo: base)?.absoluteString,
                let candidate = CacheURL(resolved), candidate.origin == target.origin, !keys.contains(candidate.key)
            else { continue }
            keys.append(candidate.key)
        }
        return keys
    }

    /// The key a response is stored under: the URL without its fragment, scheme and host lowercased, the default port
    /// (80 for http, 443 for https) removed, an empty path as "/". nil when the string is not an absolute http(s) URL.
    public static func cacheKey(of url: String) -> String? {
        CacheURL(url)?.key
    }
}
