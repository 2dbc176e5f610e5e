import Foundation
public import ServiceLifecycle
public import TransferModels
import TransferStore

/// URLSession's session API: create (and re-attach), read, list, update, invalidate, `reset()`, `flush()`,
/// redeliver — and the session's storages (`HTTPCookieStorage`, `URLCache`, `URLCredentialStorage`),
/// which it owns and writes to the store while it runs (a service of its own: stopped after the task
/// service, it writes what the last responses set).
///
/// What a session's end asks of its transfers (closing connections, cancelling tasks) goes through
/// `SessionTransfers`, which the task service implements.
public final class SessionService: Service, Sendable {
    let store: TransferStore
    let cookieStorages: CookieStorages
    let urlCaches: URLCaches
    let credentialStorages: CredentialStorages
    let files: TaskFiles
    /// The task service, which owns this service (so never gone while it is used).
    unowned let transfers: any SessionTransfers

    init(store: TransferStore, storages: SessionStorages, files: TaskFiles, transfers: any SessionTransfers) {
        self.store = store
        (self.cookieStorages, self.urlCaches, self.credentialStorages) = (storages.cookies, storages.urlCaches, storages.credentials)
        self.files = files
        self.transfers = transfers
    }

    // MARK: Service

    /// Writes the storages' changes every 250 ms, and once more at shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.cookieStorages.persistPeriodically() }
                group.addTask { await self.urlCaches.persistPeriodically() }
            }
        }
        // What the last responses set, every storage tried whatever its pause; a failure is logged by
        // storage, and one kind's holds back not the other's.
        try? await cookieStorages.persistChanges()
        try? await urlCaches.persistChanges()
    }

    // MARK: Sessions

    /// Creates a session, or re-attaches to the background session of that identifier.
    public func create(tenant: String, request: ValidatedSessionRequest, secret: String?) async throws -> SessionCreation {
        try await store.sessions.createSession(tenant: tenant, request: request, secret: secret)
    }

    /// The tenant's session `id` (`shared`: its shared session, made on first use); nil when it has none.
    public func session(id: String, tenant: String) async throws -> SessionRecord? {
        if id == "shared" { return try await shared(tenant: tenant) }
        return try await store.sessions.session(id: id, tenant: tenant)
    }

    /// `URLSession.shared` of the tenant, made on first use.
    public func shared(tenant: String) async throws -> SessionRecord {
        try await store.sessions.sharedSession(tenant: tenant)
    }

    /// The session as cached in memory, without waiting for the store; nil on a miss.
    public func cachedSession(id: String, tenant: String) -> SessionRecord? {
        store.sessions.cachedSession(id: id, tenant: tenant)
    }

    /// The tenant's sessions with their delegates' delivery state, oldest first, after the cursor `after`.
    public func list(tenant: String, after: Int64?, limit: Int) async throws -> [SessionWithDelivery] {
        try await store.deliveries.sessionsWithDelivery(tenant: tenant, after: after, limit: limit)
    }

    /// The delegate's delivery state, read from the row now; nil without a delegate.
    public func delivery(of session: SessionRecord) async throws -> DelegateDeliveryRecord? {
        session.delegate?.isWebhook == true ? try await store.deliveries.delegateDelivery(sessionId: session.id) : nil
    }

    /// A merge patch of `delegate` and `sessionDescription`; nil when the session is gone.
    public func update(id: String, tenant: String, update: SessionUpdate) async throws -> SessionUpdateOutcome? {
        try await store.sessions.updateSession(id: id, tenant: tenant, update: update)
    }

    /// The delegate's undelivered events go again now, from the first one on.
    public func redeliver(sessionId: String, tenant: String) async throws -> RedeliveryOutcome {
        try await store.deliveries.redeliverDelegateEvents(sessionId: sessionId, tenant: tenant)
    }

    /// `finishTasksAndInvalidate()` (running tasks finish) or `invalidateAndCancel()` (they are
    /// cancelled): the session takes no new task, what only it could use (its private storages) goes, its
    /// connections close once its tasks are done, and it becomes `invalidated` when its last task completes.
    /// Returns the session as it is then; nil when the tenant has no such session.
    public func invalidate(_ session: SessionRecord, cancellingTasks: Bool) async throws -> SessionRecord? {
        guard let (_, unfinished) = try await store.sessions.beginInvalidation(id: session.id, tenant: session.tenant) else {
            return nil
        }
        try await cookieStorages.discard(session)
        try await urlCaches.discard(session)
        try await credentialStorages.discard(session)
        transfers.sessionInvalidated(session.id)
        if cancellingTasks {
            for taskId in unfinished {  // one already finishing is fine
                _ = try? await transfers.cancel(taskId: taskId, tenant: session.tenant, producingResumeData: false)
            }
        }
        return try await store.sessions.session(id: session.id, tenant: session.tenant)
    }

    /// `reset()`: the session's cookie, URL cache and credential storages are emptied, in memory, on disk
    /// and in the store, its connections closed, and its completed tasks' files and kept bodies removed.
    public func reset(_ session: SessionRecord) async throws {
        try await cookieStorages.reset(session)
        try await urlCaches.reset(session)
        try await credentialStorages.reset(session)
        transfers.closeConnections(ofSession: session.id, idleOnly: false)
        let released = try await store.blobs.releaseFiles(sessionId: session.id)
        for path in released.paths { unlink(path) }
        await files.deleteObjects(released.objects)
    }

    /// `flush()`: what the storages hold in memory is written to the store now, and the session's idle
    /// connections are closed.
    public func flush(_ session: SessionRecord) async throws {
        try await cookieStorages.persistChanges()
        try await urlCaches.persistChanges()
        transfers.closeConnections(ofSession: session.id, idleOnly: true)
    }
}

/// What a session's reset, flush and invalidation ask of its transfers.
protocol SessionTransfers: AnyObject, Sendable {
    func closeConnections(ofSession id: String, idleOnly: Bool)
    /// The session's connections close once its last transfer ends.
    func sessionInvalidated(_ id: String)
    func cancel(taskId: String, tenant: String, producingResumeData: Bool) async throws -> TaskRecord
}
