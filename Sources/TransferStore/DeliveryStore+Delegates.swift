import Foundation
public import TransferModels

extension DeliveryStore {
    /// The delivery state of the session's delegate, read from its row now (never from the session
    /// cache, which the dispatcher's writes do not update); nil when the session is gone or has no webhook
    /// delegate (none, or one in the client).
    public func delegateDelivery(sessionId: String) async throws -> DelegateDeliveryRecord? {
        try await database.read { db in
            try db.row(
                "SELECT \(DelegateDeliveryRecord.columns) FROM session WHERE id = ? AND delegate IS NOT NULL AND \(Self.webhookDelegate)",
                sessionId
            ).map(DelegateDeliveryRecord.init(row:))
        }
    }

    /// A page of the tenant's sessions in creation order, after the row `after` (exclusive), each with its
    /// delegate's delivery state from the same row.
    public func sessionsWithDelivery(tenant: String, after: Int64?, limit: Int) async throws -> [SessionWithDelivery] {
        let found = try await database.read { db in
            try db.rows("SELECT * FROM session WHERE tenant = ? AND rowid > ? ORDER BY rowid LIMIT ?", tenant, after ?? 0, limit)
                .map { row in
                    let record = try row.decode(SessionRecord.self)
                    return SessionWithDelivery(
                        record: record, delivery: record.delegate?.isWebhook == true ? try DelegateDeliveryRecord(row: row) : nil)
                }
        }
        return try found.map { SessionWithDelivery(record: try requestSecrets.opened($0.record), delivery: $0.delivery) }
    }

    /// `POST /v1/sessions/{id}/redeliver`: the delegate's undelivered events go again now, from the
    /// queue's cursor, as after a change of delegate (`restartDelegateQueue`: a retry wait, a hold and a
    /// 410 are forgotten; the dispatcher holding the session's lease re-reads the queue).
    public func redeliverDelegateEvents(sessionId: String, tenant: String) async throws -> RedeliveryOutcome {
        let outcome: RedeliveryOutcome = try await database.write { db in
            guard
                let session = try db.row("SELECT * FROM session WHERE id = ? AND tenant = ?" + db.forUpdate, sessionId, tenant)?
                    .decode(SessionRecord.self)
            else { return .notFound }
            guard session.delegate?.isWebhook == true else { return .noDelegate }  // none, or one in the client
            try Self.restartDelegateQueue(db, sessionId: sessionId)
            return .restarted(session)
        }
        guard case .restarted(let stored) = outcome else { return outcome }
        delegateChanges.publish(sessionId)
        return .restarted(try requestSecrets.opened(stored))
    }

    /// Opens the session's delegate queue again after its delegate changed, once the dispatcher wrote
    /// everything it learned from the old address (a 410 or a hold written after the change was the old
    /// address's, not the new one's).
    public func reopenDelegateQueue(sessionId: String) async throws {
        try await database.write { db in
            try db.execute(
                "UPDATE session SET delegateRetryAt = NULL, delegateHeldAt = NULL, delegateDisabledAt = NULL WHERE id = ?", sessionId)
        }
    }

    /// The delegate's secret in clear, for signing (never for answering a client).
    public func delegateSecret(of record: SessionRecord) throws -> String? {
        guard let sealed = record.delegateSecret else { return nil }
        return String(decoding: try secrets.open(sealed), as: UTF8.self)
    }

    /// Forgets what the dispatcher learned about the delegate's address — its retry time, a hold, a 410 —
    /// and the attempt counts of the events not delivered yet, and tells every node's dispatcher at the
    /// commit (`delegateChanges`), whose holder of the session's lease re-reads the queue from its cursor.
    /// For a new delegate, and for a redeliver to the same one. The health (last success, failures since)
    /// stays: it is what happened.
    static func restartDelegateQueue(_ db: any StoreConnection, sessionId: String) throws {
        db.notify(.delegates, sessionId)
        try db.execute(
            "UPDATE session SET delegateRetryAt = NULL, delegateHeldAt = NULL, delegateDisabledAt = NULL WHERE id = ?", sessionId)
        try db.execute(
            """
            UPDATE event SET deliveryAttempts = 0, nextAttemptAt = NULL
            WHERE sessionId = ? AND sequence > (SELECT delegateCursor FROM session WHERE id = ?)
            AND type <> 'task.completion' AND deliveredAt IS NULL
            """, sessionId, sessionId)
    }
}
