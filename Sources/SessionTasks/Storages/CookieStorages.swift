import Foundation
import HTTPCookies
import TransferEngine
import TransferModels
import TransferStore

/// The cookie storages of the service, by scope (`httpCookieStorage`): the tenant's `shared` one,
/// which every session of the tenant configured `shared` uses (as `HTTPCookieStorage.shared` in an
/// app), and each session's `private` one. Tenants never share one.
///
/// Kept in memory for now: a restart empties them (persistence for default and background sessions
/// comes with the rest of issue 11).
final class CookieStorages: Sendable {
    private let publicSuffixes: PublicSuffixList?
    private let storages = LockedBox<[String: CookieStorage]>([:])

    init(publicSuffixes: PublicSuffixList?) {
        self.publicSuffixes = publicSuffixes
    }

    /// `reset()`: empties the storage the session's cookies live in (the tenant's, when it is `shared`,
    /// as URLSession's `reset` empties the shared storage). A transfer that runs keeps its view and goes
    /// on with a storage of its own.
    func reset(_ session: SessionRecord) {
        guard let key = Self.key(of: session) else { return }
        storages.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// Which storage the session's cookies live in; nil for `none`.
    private static func key(of session: SessionRecord) -> String? {
        switch session.configuration.httpCookieStorage {
        case .none: nil
        case .shared: "tenant \(session.tenant)"
        case .private: "session \(session.id)"
        }
    }

    /// The cookies a transfer of `task` in `session` sends and keeps; nil when it neither sends nor keeps
    /// any (`httpShouldSetCookies` or the request's `httpShouldHandleCookies` false, or storage `none`).
    func cookies(for session: SessionRecord, request: URLRequestSnapshot) -> (any TransferCookies)? {
        let configuration = session.configuration
        guard configuration.httpShouldSetCookies, request.httpShouldHandleCookies, let key = Self.key(of: session) else {
            return nil
        }
        let storage = storages.withLock { storages in
            if let existing = storages[key] { return existing }
            let created = CookieStorage(jar: CookieJar(publicSuffixes: publicSuffixes))
            storages[key] = created
            return created
        }
        return TransferCookieAccess(storage: storage, acceptPolicy: configuration.httpCookieAcceptPolicy)
    }
}

/// One cookie storage: a jar under a lock, used from the engine's loop thread (quick, no I/O).
final class CookieStorage: Sendable {
    private let jar: LockedBox<CookieJar>

    init(jar: CookieJar) { self.jar = LockedBox(jar) }

    func header(for url: CookieURL, now: Date) -> String? {
        jar.withLock { CookieJar.header(for: $0.cookies(for: url, now: now)) }
    }

    func store(_ headers: [SetCookie], from url: CookieURL, now: Date) {
        jar.withLock { jar in
            for header in headers { jar.store(header, from: url, now: now) }
        }
    }
}

/// A transfer's view of its session's storage, with the session's accept policy: `never` keeps no new
/// cookie but still sends those stored; `always` and `onlyFromMainDocumentDomain` keep them (a request
/// without a `mainDocumentURL` is its own main document, so its cookies are first-party).
struct TransferCookieAccess: TransferCookies {
    let storage: CookieStorage
    let acceptPolicy: HTTPCookieAcceptPolicy

    func cookieHeader(for url: String) -> String? {
        guard let target = CookieURL(url) else { return nil }
        return storage.header(for: target, now: Date())
    }

    func received(_ setCookies: [String], from url: String) {
        guard acceptPolicy != .never, let origin = CookieURL(url) else { return }
        storage.store(setCookies.compactMap(SetCookie.init), from: origin, now: Date())
    }
}
