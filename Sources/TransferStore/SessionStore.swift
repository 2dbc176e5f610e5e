import Foundation
public import TransferModels

/// Sessions: their rows (configuration, delegate, state, sequences), creation and the re-attach of a
/// background session, the shared session, updates, invalidation. Sessions are also kept in a
/// read-through cache (they change only through this store's aggregates), so the hot
/// `GET /v1/sessions/{id}` path needs no query for a session without a delegate (a delegate's delivery
/// state is read from its row each time: `DeliveryStore.delegateDelivery(sessionId:)`). A session's
/// events are `EventLog`'s (appended in this type's transactions), its tasks `TaskStore`'s.
public struct SessionStore: Sendable {
    let database: any StoreDatabase
    let secrets: SecretBox
    /// What each tenant may hold: a new session counts towards `sessions`.
    let quotaLimits: QuotaLimits
    /// Sessions by id, filled on first read and updated by every write of this store.
    ///
    /// With several nodes (PostgreSQL) a write on another node notifies `StoreChannel.sessions` at its
    /// commit and this node's listener (`TransferStore.followOtherNodes`) drops the entry. What remains is
    /// a window between that commit and the notification's arrival (milliseconds on a healthy network; up to the
    /// listener's reconnection when its connection dropped, after which the whole cache is dropped), in
    /// which this node may answer with the session as it was: its description, state or delegate. Rules
    /// that must hold (a task only on a valid session, sequences, cursors) are checked on the row inside
    /// the transactions, never on the cache. `lastSequence` is not notified: it changes with every event,
    /// and the cache's copy is only a lower bound that readers of the event log never rely on.
    let sessionCache: LockedBox<[String: SessionRecord]>
    /// Counts the other nodes' session writes heard: a read of a session that overlapped one of them
    /// is not cached, since it may have read the row before that write.
    let foreignSessionWrites = LockedBox<UInt64>(0)
    let events: EventLog
    let deliveries: DeliveryStore

    var requestSecrets: RequestSecrets { RequestSecrets(box: secrets) }
}

extension SessionStore {
    /// Creates a session; for a background configuration whose identifier is live for the tenant,
    /// returns that session instead (the re-attach of `URLSessionConfiguration.background(withIdentifier:)`).
    /// A new session counts towards the tenant's `sessions` quota (`QuotaExceeded` past it); a re-attach does not.
    ///
    /// `secret` is sealed before it touches the disk, as are the credentials in `httpAdditionalHeaders`
    /// (`RequestSecrets`).
    public func createSession(
        tenant: String, request: ValidatedSessionRequest, secret: String?
    ) async throws -> SessionCreation {
        let sealedSecret = try secret.map { try secrets.seal(Data($0.utf8)) }
        let outcome: SessionCreation = try await database.write { [requestSecrets, quotaLimits] db in
            if let identifier = request.configuration.identifier,
                var existing = try db.row(
                    "SELECT * FROM session WHERE tenant = ? AND identifier = ? AND state <> 'invalidated'", tenant, identifier
                )?.decode(SessionRecord.self)
            {
                // A client back with another delegate (a new address, a new secret) gets its events there,
                // those not delivered to the old one included.
                let replacesDelegate =
                    request.delegate != nil && (request.delegate != existing.delegate || request.clientSecret != nil)
                if replacesDelegate {
                    try Self.replaceDelegate(db, session: &existing, with: request.delegate, sealedSecret: sealedSecret)
                }
                // The client is back: after the events it has not received (delivered in sequence order),
                // `urlSessionDidFinishEvents(forBackgroundURLSession:)`. Events held for it (no launch
                // events) go now.
                try db.execute("UPDATE session SET delegateHeldAt = NULL WHERE id = ?", existing.id)
                db.notify(.sessions, existing.id)
                try EventLog.appendEvent(
                    db, session: &existing, taskId: nil, event: .sessionDidFinishEventsForBackgroundURLSession)
                let record = try requestSecrets.opened(existing)
                return replacesDelegate ? .reattachedWithNewDelegate(record) : .reattached(record)
            }
            try UsageStore.checkQuotas(db, tenant: tenant, limits: quotaLimits, adding: [(.sessions, 1)])
            var record = SessionRecord(
                id: ResourceID.make(prefix: "ses"), tenant: tenant, configuration: request.configuration,
                delegate: request.delegate, delegateSecret: sealedSecret, sessionDescription: request.sessionDescription)
            let row = try requestSecrets.sealed(record)  // the caller gets the real headers
            record.rowid = try db.insert(row, into: "session", returningRowID: true)
            return .created(record)
        }
        switch outcome {
        case .created(let record): cache(record)
        case .reattached(let record):
            cache(record)
            events.eventFeed.publish(record.id)
        case .reattachedWithNewDelegate(let record):
            cache(record)
            deliveries.delegateChanges.publish(record.id)
            events.eventFeed.publish(record.id)
        }
        return outcome
    }

    /// The tenant's session `id`, or nil when it does not exist or belongs to another tenant.
    public func session(id: String, tenant: String) async throws -> SessionRecord? {
        if let cached = cachedSession(id: id, tenant: tenant) { return cached }
        guard ResourceID.isWellFormed(id, prefix: "ses") else { return nil }
        let foreignWritesBefore = foreignSessionWrites.withLock { $0 }
        guard
            let record = try await database.read({ db in
                try db.row("SELECT * FROM session WHERE id = ?", id)?.decode(SessionRecord.self)
            }).map(requestSecrets.opened)
        else { return nil }
        // Another node's write heard meanwhile may be newer than the row read: the next read asks again.
        if foreignSessionWrites.withLock({ $0 }) == foreignWritesBefore { cache(record) }
        return record.tenant == tenant ? record : nil
    }

    /// The session from memory only, without touching the database (nil: unknown here, ask `session`).
    public func cachedSession(id: String, tenant: String) -> SessionRecord? {
        guard let record = sessionCache.withLock({ $0[id] }), record.tenant == tenant else { return nil }
        return record
    }

    /// The tenant's shared session (`URLSession.shared`), created on first use.
    public func sharedSession(tenant: String) async throws -> SessionRecord {
        let stored = try await database.write { db in
            if let existing = try db.row("SELECT * FROM session WHERE tenant = ? AND isShared <> 0", tenant)?.decode(SessionRecord.self) {
                return existing
            }
            var record = SessionRecord(
                id: ResourceID.make(prefix: "ses"), tenant: tenant, configuration: SessionConfiguration(kind: .default),
                delegate: nil, delegateSecret: nil, sessionDescription: nil, isShared: true)
            record.rowid = try db.insert(record, into: "session", returningRowID: true)  // no header to seal
            return record
        }
        let record = try requestSecrets.opened(stored)
        cache(record)
        return record
    }

    /// A page of the tenant's sessions in creation order, after the row `after` (exclusive).
    public func sessions(tenant: String, after: Int64?, limit: Int) async throws -> [SessionRecord] {
        try await deliveries.sessionsWithDelivery(tenant: tenant, after: after, limit: limit).map(\.record)
    }

    /// Loads every session into the cache (start-up), so reads of them need no query.
    public func warmSessionCache() async throws {
        let foreignWritesBefore = foreignSessionWrites.withLock { $0 }
        let records = try await database.read { db in
            try db.rows("SELECT * FROM session").map { try $0.decode(SessionRecord.self) }
        }.map(requestSecrets.opened)
        // Another node's write heard meanwhile may be newer than the rows read: they are read on demand.
        guard foreignSessionWrites.withLock({ $0 }) == foreignWritesBefore else { return }
        sessionCache.withLock { cache in
            for record in records { cache[record.id] = record }
        }
    }

    /// `record` is the clear form (`RequestSecrets.opened`).
    func cache(_ record: SessionRecord) {
        sessionCache.withLock { $0[record.id] = record }
    }
}
