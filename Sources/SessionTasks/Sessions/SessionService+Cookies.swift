public import Foundation
public import HTTPCookies
public import TransferModels
import TransferStore

/// `HTTPCookieStorage` of a session, for the API: list, set, remove.
extension SessionService {
    /// The cookies of the session's storage (by domain, name and path), or with `url` those a request
    /// to it would send, in the `Cookie` header's order (`cookies(for:)`). None without a storage.
    public func cookies(of session: SessionRecord, for url: String?) async throws -> [CookieObject] {
        guard let placement = CookieStorages.placement(of: session) else { return [] }
        let storage = try await cookieStorages.storage(placement)
        if let url {
            guard let target = CookieURL(url) else { return [] }
            return storage.cookies(for: target, now: Date()).map(Self.object)
        }
        return storage.all(now: Date()).map(Self.object)
    }

    /// `setCookies(_:for:mainDocumentURL:)`, with the session's accept policy (`never` stores none;
    /// `onlyFromMainDocumentDomain` only cookies of the main document's site); returns those stored.
    public func setCookies(_ cookies: [Cookie], mainDocumentURL: String?, in session: SessionRecord) async throws
        -> [CookieObject]
    {
        guard let placement = CookieStorages.placement(of: session) else { return [] }
        let policy = session.configuration.httpCookieAcceptPolicy
        guard policy != .never else { return [] }
        let site = mainDocumentURL.flatMap(CookieURL.init).map { cookieStorages.registrableDomain(of: $0.host) }
        let accepted = cookies.filter { site == nil || policy == .always || cookieStorages.registrableDomain(of: $0.domain) == site }
        let now = Date()
        let stored = try await cookieStorages.storage(placement).store(accepted, now: now)
        return stored.map(Self.object)
    }

    /// `removeCookies(since:)`, or every cookie without `since`.
    public func removeCookies(of session: SessionRecord, since: Date?) async throws {
        guard let placement = CookieStorages.placement(of: session) else { return }
        try await cookieStorages.storage(placement).remove(since: since)
    }

    /// `deleteCookie(_:)`: the cookie with this name, domain (a leading dot ignored) and path; false when
    /// there is none.
    public func removeCookie(of session: SessionRecord, name: String, domain: String, path: String) async throws -> Bool {
        guard let placement = CookieStorages.placement(of: session) else { return false }
        let bare = domain.hasPrefix(".") ? String(domain.dropFirst()) : domain
        return try await cookieStorages.storage(placement).remove(Cookie.Identity(name: name, domain: bare.lowercased(), path: path))
    }

    static func object(_ cookie: Cookie) -> CookieObject {
        CookieObject(
            name: cookie.name, value: cookie.value, domain: cookie.isHostOnly ? cookie.domain : "." + cookie.domain,
            path: cookie.path, expiresDate: cookie.expiresDate, isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly,
            sameSitePolicy: cookie.sameSitePolicy)
    }
}
