import Foundation
import HTTPCookies
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// The cookie storages of the service, by scope (`httpCookieStorage`): the tenant's `shared` one,
/// which every session of the tenant configured `shared` uses (as `HTTPCookieStorage.shared` in an
/// app), and each session's `private` one. Tenants never share one.
///
/// A storage is read from the store on first use. Its persistent cookies (those with an expiry date)
/// are written back, the whole storage in one transaction, by `persistChanges()` — every quarter second
/// while something changed, on `flush`, and at shutdown. Session cookies and ephemeral sessions' storages
/// never reach the disk, as `HTTPCookieStorage` keeps session cookies for the app's life only.
final class CookieStorages: Sendable {
    private let store: TransferStore
    /// Without the system's list, an empty one: only single-label domains (`com`) are public suffixes.
    private let publicSuffixes: PublicSuffixList
    private let storages = LockedBox<[String: CookieStorage]>([:])
    /// One write at a time: the last one (at shutdown) waits for one in flight, and finds what a failed
    /// one (cancelled with the periodic writer) gave back.
    private let writes = TaskControlQueue()
    /// The pauses of storages whose writes failed (the periodic writer leaves them until they are due).
    let retries: WriteBackRetries

    init(store: TransferStore, publicSuffixes: PublicSuffixList?, logger: Logger) {
        self.store = store
        self.publicSuffixes = publicSuffixes ?? PublicSuffixList(text: "")
        self.retries = WriteBackRetries(writing: "cookies", logger: logger)
    }

    /// Where a session's cookies live: the storage's key, the session whose rows they are (private), and
    /// whether they are written to the store at all.
    struct Placement: Sendable {
        var key: String
        var sessionId: String?
        var isPersistent: Bool
    }

    static func placement(of session: SessionRecord) -> Placement? {
        switch session.configuration.httpCookieStorage {
        case .none: nil
        case .shared: Placement(key: StorageKey.shared(tenant: session.tenant), sessionId: nil, isPersistent: true)
        case .private:
            Placement(key: StorageKey.private(sessionId: session.id), sessionId: session.id, isPersistent: session.kind != .ephemeral)
        }
    }

    /// The cookies a transfer in `session` sends and keeps; nil when it neither sends nor keeps any
    /// (`httpShouldSetCookies` or the request's `httpShouldHandleCookies` false, or storage `none`).
    func cookies(for session: SessionRecord, request: URLRequestSnapshot) async throws -> (any TransferCookies)? {
        let configuration = session.configuration
        guard configuration.httpShouldSetCookies, request.httpShouldHandleCookies, let placement = Self.placement(of: session)
        else { return nil }
        let storage = try await storage(placement)
        var site: TransferCookieAccess.Site?
        if configuration.httpCookieAcceptPolicy == .onlyFromMainDocumentDomain, let main = request.mainDocumentURL,
            let document = CookieURL(main)
        {
            site = .init(registrableDomain: registrableDomain(of: document.host), suffixes: publicSuffixes)
        }
        return TransferCookieAccess(storage: storage, acceptPolicy: configuration.httpCookieAcceptPolicy, mainDocumentSite: site)
    }

    /// The storage, read from the store the first time it is used.
    func storage(_ placement: Placement) async throws -> CookieStorage {
        if let loaded = storages.withLock({ $0[placement.key] }) { return loaded }
        var jar = CookieJar(publicSuffixes: publicSuffixes)
        if placement.isPersistent {
            let now = Date()
            for row in try await store.cookies.cookies(inStorage: placement.key, now: now) { jar.store(Self.cookie(row), now: now) }
        }
        let loaded = CookieStorage(placement: placement, jar: jar)
        // Another transfer may have loaded it meanwhile: the first one stays.
        return storages.withLock { storages in
            if let first = storages[placement.key] { return first }
            storages[placement.key] = loaded
            return loaded
        }
    }

    /// The site (registrable domain) of `host`, by the public suffix list.
    func registrableDomain(of host: String) -> String {
        publicSuffixes.registrableDomain(of: host)
    }

    /// `reset()`: empties the storage the session's cookies live in (the tenant's, when it is `shared`,
    /// as URLSession's `reset` empties the shared storage), in memory and in the store.
    func reset(_ session: SessionRecord) async throws {
        guard let placement = Self.placement(of: session) else { return }
        try await storage(placement).removeAll()
        try await persistChanges()
    }

    /// The session is invalidated: its private storage can never be used again, so it goes from memory
    /// and from the store (its running transfers keep their view until they end). A shared one stays.
    func discard(_ session: SessionRecord) async throws {
        guard let placement = Self.placement(of: session), placement.sessionId != nil else { return }
        storages.withLock { _ = $0.removeValue(forKey: placement.key) }
        retries.forget(placement.key)
        if placement.isPersistent { try await store.cookies.replaceCookies([placement.key: []]) }
    }

    /// Writes every storage changed since the last call (its persistent cookies, whole), all in one
    /// transaction. When that fails, each storage is written alone, so that one the store refuses holds
    /// back no other; what failed is logged and tried again later, and the first failure thrown.
    /// `onlyDue`: the periodic writer's turn, which leaves a storage that failed until its pause is over.
    func persistChanges(onlyDue: Bool = false) async throws {
        try await writes.run("cookies") {
            let now = ContinuousClock.now
            let changed = storages.withLock { Array($0.values) }
                .filter { !onlyDue || retries.isDue($0.placement.key, at: now) }.compactMap { $0.takeChanges() }
            guard !changed.isEmpty else { return }
            try await StorageWriteBack.write(
                changed,
                { batch in
                    try await store.cookies.replaceCookies(Dictionary(batch.map { ($0.placement.key, $0.rows) }, uniquingKeysWith: { $1 }))
                },
                written: { retries.logWritten($0.placement.key) },
                failed: { changes, error in
                    changes.storage.markChanged()
                    retries.logFailure(changes.placement.key, error)
                })
        }
    }

    /// Persists every quarter second while the service runs (`cancel` ends it; `TaskService.run` writes
    /// once more after the engine stopped). A failure is logged where it happens, by storage.
    func persistPeriodically(every interval: Duration = .milliseconds(250)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { break }  // the service's last write follows the engine's stop
            try? await persistChanges(onlyDue: true)
        }
    }

    static func cookie(_ row: CookieRecord) -> Cookie {
        Cookie(
            name: row.name, value: row.value, domain: row.domain, isHostOnly: row.isHostOnly, path: row.path,
            expiresDate: row.expiresAt, isSecure: row.isSecure, isHTTPOnly: row.isHTTPOnly, sameSitePolicy: row.sameSite,
            creationDate: row.createdAt, lastAccessDate: row.lastAccessAt)
    }
}

/// One cookie storage: a jar under a lock, used from the engine's loop thread (quick, no I/O), and
/// whether it changed since it was last written.
final class CookieStorage: Sendable {
    struct Changes {
        var storage: CookieStorage
        var placement: CookieStorages.Placement
        var rows: [CookieRecord]
    }

    let placement: CookieStorages.Placement
    private let state: LockedBox<(jar: CookieJar, changed: Bool)>

    init(placement: CookieStorages.Placement, jar: CookieJar) {
        self.placement = placement
        self.state = LockedBox((jar, false))
    }

    func header(for url: CookieURL, now: Date) -> String? {
        CookieJar.header(for: cookies(for: url, now: now))
    }

    func store(_ headers: [SetCookie], from url: CookieURL, now: Date) {
        state.withLock { state in
            for header in headers { state.jar.store(header, from: url, now: now) }
            state.changed = true
        }
    }

    func cookies(for url: CookieURL, now: Date) -> [Cookie] {
        state.withLock { $0.jar.cookies(for: url, now: now) }
    }

    /// Whether the storage holds no cookie (then no request needs its URL parsed for one).
    var isEmpty: Bool { state.withLock { $0.jar.isEmpty } }

    /// Every cookie that has not expired.
    func all(now: Date) -> [Cookie] {
        state.withLock { $0.jar.all.filter { !$0.isExpired(at: now) } }
    }

    /// Stores whole cookies (the API's `setCookies`); returns those kept.
    func store(_ cookies: [Cookie], now: Date) -> [Cookie] {
        state.withLock { state in
            state.changed = true
            return cookies.compactMap { state.jar.store($0, now: now) }
        }
    }

    func remove(since date: Date?) {
        state.withLock { state in
            if let date { state.jar.remove(since: date) } else { state.jar.removeAll() }
            state.changed = true
        }
    }

    func remove(_ identity: Cookie.Identity) -> Bool {
        state.withLock { state in
            let removed = state.jar.remove(identity)
            if removed { state.changed = true }
            return removed
        }
    }

    func removeAll() {
        state.withLock { state in
            state.jar.removeAll()
            state.changed = true
        }
    }

    func markChanged() { state.withLock { $0.changed = true } }

    /// The longest name, domain and path together (UTF-8 bytes) of a cookie written to the store; a
    /// longer one (RFC 6265bis allows a name of up to 4,095 bytes) is kept in memory only, as a session
    /// cookie is. The store's key of a cookie is its storage, name, domain and path, and PostgreSQL's
    /// b-tree holds keys of at most 2,704 bytes: one longer, incompressible key would fail the write of
    /// every storage in its batch, again at each turn. The same on SQLite, so both stores keep the same.
    static let maximumStoredIdentityLength = 2048

    /// The rows to write when the storage changed and is persistent; marks it written.
    func takeChanges() -> Changes? {
        guard placement.isPersistent else { return nil }
        let cookies = state.withLock { state -> [Cookie]? in
            guard state.changed else { return nil }
            state.changed = false
            return state.jar.all
        }
        guard let cookies else { return nil }
        let now = Date()
        let rows = cookies.compactMap { cookie -> CookieRecord? in
            guard let expires = cookie.expiresDate, expires > now else { return nil }  // session cookies stay in memory
            guard cookie.name.utf8.count + cookie.domain.utf8.count + cookie.path.utf8.count <= Self.maximumStoredIdentityLength
            else { return nil }  // kept for the service's life only, as a session cookie
            return CookieRecord(
                storage: placement.key, sessionId: placement.sessionId, name: cookie.name, domain: cookie.domain,
                path: cookie.path, value: cookie.value, isHostOnly: cookie.isHostOnly, expiresAt: expires,
                isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly, sameSite: cookie.sameSitePolicy,
                createdAt: cookie.creationDate, lastAccessAt: cookie.lastAccessDate)
        }
        return Changes(storage: self, placement: placement, rows: rows)
    }
}

/// A transfer's view of its session's storage, with the session's accept policy: `never` keeps no new
/// cookie but still sends those stored; `onlyFromMainDocumentDomain` keeps only cookies from responses of
/// the main document's site (its registrable domain; a request without a `mainDocumentURL` is its own
/// main document); `always` keeps them all.
struct TransferCookieAccess: TransferCookies {
    /// The main document's site, for `onlyFromMainDocumentDomain`.
    struct Site: Sendable {
        var registrableDomain: String
        var suffixes: PublicSuffixList
    }

    let storage: CookieStorage
    let acceptPolicy: HTTPCookieAcceptPolicy
    let mainDocumentSite: Site?

    func cookieHeader(for url: String) -> String? {
        // Most sessions' storages hold no cookie: parsing the URL for one was 2.6 % of the service's CPU for
        // small tasks (`Benchmarks/transfers.sh` with `PROFILE`).
        guard !storage.isEmpty, let target = CookieURL(url) else { return nil }
        return storage.header(for: target, now: Date())
    }

    func received(_ setCookies: [String], from url: String) {
        guard acceptPolicy != .never, let origin = CookieURL(url) else { return }
        if let site = mainDocumentSite, site.suffixes.registrableDomain(of: origin.host) != site.registrableDomain { return }
        storage.store(setCookies.compactMap(SetCookie.init), from: origin, now: Date())
    }
}
