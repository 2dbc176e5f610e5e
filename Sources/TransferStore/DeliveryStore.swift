public import Foundation
import JSONCodec
import TransferModels

/// Webhook delivery: each session delegate's queue (its cursor, retry time, hold, disabled URL, health,
/// on the session's row), the `task.completion` events pending for completion handlers, and the
/// redelivery a client asks for. The dispatcher's verbs: which queues have work, their next events, and
/// one transaction for everything a batch of deliveries taught it. See `StoreMigrations.webhookDelivery`
/// for the model. The events themselves are `EventLog`'s; this type writes only their delivery columns.
public struct DeliveryStore: Sendable {
    let database: any StoreDatabase
    let secrets: SecretBox
    /// `SessionStore`'s cache: a cached session without a delegate needs no query.
    let sessionCache: LockedBox<[String: SessionRecord]>
    /// Which sessions' delegates changed (a patch, a re-attach with another delegate) or are to be
    /// redelivered to, after the commit.
    public let delegateChanges = EventFeed()

    var requestSecrets: RequestSecrets { RequestSecrets(box: secrets) }

    /// The SQL term that leaves out delegates living in the client (`DelegateConfiguration.url` nil, stored
    /// as `"url":null`): nothing is POSTed for them, so their events past the cursor are no backlog. Their
    /// queue's cursor never moves, and without this term every scan would find them again.
    static let webhookDelegate = #"delegate NOT LIKE '%"url":null%'"#
}

extension DeliveryStore {
    /// Sessions whose delegate queue has events past its cursor and may be tried by `dueBy`.
    public func sessionsWithDelegateBacklog(dueBy: Date, limit: Int) async throws -> [QueueOwner] {
        try await database.read { db in
            // The first three terms are the partial index `session_delegate_backlog`'s, verbatim.
            try db.rows(
                """
                SELECT id, tenant FROM session
                WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor
                AND (delegateRetryAt IS NULL OR delegateRetryAt <= ?) AND delegateHeldAt IS NULL AND \(Self.webhookDelegate)
                LIMIT ?
                """, dueBy, limit
            ).map { QueueOwner(sessionId: try $0.decode(forColumn: "id"), tenant: try $0.decode(forColumn: "tenant")) }
        }
    }

    /// Sessions with `task.completion` events neither delivered nor given up (whatever their retry time:
    /// the dispatcher waits for the head's `nextAttemptAt` itself).
    public func sessionsWithPendingCompletions(limit: Int) async throws -> [QueueOwner] {
        try await database.read { db in
            try db.rows(
                """
                SELECT pending.sessionId, COALESCE(session.tenant, '') AS tenant FROM (
                    SELECT DISTINCT sessionId FROM event
                    WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL
                    LIMIT ?
                ) AS pending LEFT JOIN session ON session.id = pending.sessionId
                """, limit
            ).map { QueueOwner(sessionId: try $0.decode(forColumn: "sessionId"), tenant: try $0.decode(forColumn: "tenant")) }
        }
    }

    /// Events waiting for delivery: past the cursor of every live delegate queue (an upper bound, since
    /// a filter may skip some), plus completion events pending.
    public func deliveryQueueDepth() async throws -> Int {
        try await database.read { db in
            let delegate =
                try db.value(
                    """
                    SELECT CAST(COALESCE(SUM(lastSequence - delegateCursor), 0) AS BIGINT) FROM session
                    WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor
                    AND \(Self.webhookDelegate)
                    """, as: Int.self) ?? 0
            let completions =
                try db.value(
                    """
                    SELECT COUNT(*) FROM event
                    WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL
                    """, as: Int.self) ?? 0
            return delegate + completions
        }
    }

    /// The session's delegate queue; nil when the session is gone, has no delegate, or its URL is disabled.
    ///
    /// - Throws: when the stored secret cannot be opened (another `URLSESSIOND_SECRET_KEY`).
    public func delegateQueue(sessionId: String) async throws -> DelegateQueue? {
        // Every change of the delegate goes through this store's cache: a cached session without one
        // needs no query.
        if let cached = sessionCache.withLock({ $0[sessionId] }), cached.delegate?.isWebhook != true { return nil }
        // The record stays as stored (its headers sealed): only its delegate and kind are read.
        let found: (SessionRecord, cursor: Int64, retryAt: Date?, disabledAt: Date?, heldAt: Date?)? = try await database.read { db in
            guard let row = try db.row("SELECT * FROM session WHERE id = ?", sessionId) else { return nil }
            return (
                try row.decode(SessionRecord.self), try row.decode(forColumn: "delegateCursor"),
                try row.decode(forColumn: "delegateRetryAt"),
                try row.decode(forColumn: "delegateDisabledAt"), try row.decode(forColumn: "delegateHeldAt")
            )
        }
        guard let (record, cursor, retryAt, disabledAt, heldAt) = found, let delegate = record.delegate, delegate.isWebhook,
            disabledAt == nil, heldAt == nil
        else { return nil }
        return DelegateQueue(
            sessionId: sessionId, tenant: record.tenant, delegate: delegate, cursor: cursor, retryAt: retryAt,
            waitsForReattach: record.kind == .background && !record.configuration.sessionSendsLaunchEvents,
            key: try delegateSecret(of: record).flatMap(WebhookSigningKey.init(secret:)))
    }

    /// The session's oldest pending `task.completion` events after `sequence` `after` (at most `limit`),
    /// in `sequence` order.
    public func pendingCompletions(sessionId: String, after: Int64, limit: Int) async throws -> [CompletionDelivery] {
        typealias Found = (event: EventRecord, completion: String?, secret: Data?)
        let (found, session): ([Found], SessionRecord?) = try await database.read { db in
            let rows = try db.rows(
                """
                SELECT event.*, task.completion AS taskCompletion, task.completionSecret AS taskCompletionSecret
                FROM event LEFT JOIN task ON task.id = event.taskId
                WHERE event.sessionId = ? AND event.type = 'task.completion' AND event.deliveredAt IS NULL
                AND event.deliveryFailedAt IS NULL AND event.sequence > ?
                ORDER BY event.sequence LIMIT ?
                """, sessionId, after, limit)
            let found: [Found] = try rows.map { row in
                (
                    try EventRecord(row: row), try row.decode(String?.self, forColumn: "taskCompletion"),
                    try row.decode(Data?.self, forColumn: "taskCompletionSecret")
                )
            }
            let session = rows.isEmpty ? nil : try db.row("SELECT * FROM session WHERE id = ?", sessionId)?.decode(SessionRecord.self)
            return (found, session)
        }
        let sessionKey = try session.flatMap { try delegateSecret(of: $0) }.flatMap(WebhookSigningKey.init(secret:))
        return try found.map { item in
            let completion = try StoredJSON.value(TaskCompletionHandler.self, from: item.completion, column: "task.completion")
            let taskKey = try item.secret.map { String(decoding: try secrets.open($0), as: UTF8.self) }
                .flatMap(WebhookSigningKey.init(secret:))
            return CompletionDelivery(event: item.event, url: completion?.url, key: taskKey ?? sessionKey)
        }
    }

    /// Records a batch of delivery outcomes in one transaction of two statements, whatever the batch holds
    /// (`DeliveryOutcomes.eventChanges`, `sessionChanges`): every event's attempts and marks, then every
    /// session's cursor, retry time, hold, disabled URL and health. A statement per event was 40,000
    /// statements for the 40,000 POSTs of `Benchmarks/events.sh 8 8000`, each a round trip on PostgreSQL.
    public func recordDeliveries(_ outcomes: DeliveryOutcomes) async throws {
        guard !outcomes.isEmpty else { return }
        let events = outcomes.eventChanges
        let sessions = outcomes.sessionChanges
        try await database.write { db in
            if !events.isEmpty {
                try db.send(
                    """
                    UPDATE event SET deliveryAttempts = event.deliveryAttempts + u.attempts, nextAttemptAt = u.retryat,
                      deliveredAt = COALESCE(u.deliveredat, event.deliveredAt),
                      deliveryFailedAt = COALESCE(u.failedat, event.deliveryFailedAt)
                    FROM {rows} WHERE event.id = u.ref
                    """, over: events)
            }
            guard !sessions.isEmpty else { return }
            // Each column as its own statement did before: the cursor only moves forward (a condition rather
            // than SQLite's two-argument MAX, which PostgreSQL spells GREATEST); a hold applies once and
            // clears the retry time; a 410 disables once; a success replaces the failure count (keep = 0),
            // a batch of failures only adds to it (keep = 1). Every right-hand side reads the row as it was.
            try db.send(
                """
                UPDATE session SET
                  delegateCursor = CASE WHEN u.seq > session.delegateCursor THEN u.seq ELSE session.delegateCursor END,
                  delegateRetryAt = CASE WHEN u.heldat IS NOT NULL AND session.delegateHeldAt IS NULL THEN NULL
                    WHEN u.retryset = 1 THEN u.retryat ELSE session.delegateRetryAt END,
                  delegateHeldAt = COALESCE(session.delegateHeldAt, u.heldat),
                  delegateDisabledAt = COALESCE(session.delegateDisabledAt, u.disabledat),
                  delegateFailures = CASE WHEN u.keep IS NULL THEN session.delegateFailures
                    ELSE session.delegateFailures * u.keep + u.failures END,
                  delegateDeliveredAt = COALESCE(u.deliveredat, session.delegateDeliveredAt),
                  delegateFailedAt = COALESCE(u.failedat, session.delegateFailedAt),
                  delegateFailureReason = COALESCE(u.reason, session.delegateFailureReason)
                FROM {rows} WHERE session.id = u.ref
                """, over: sessions)
        }
    }

    /// When the session's delegate URL was disabled by a 410 Gone (nil: it is not).
    public func delegateDisabledAt(sessionId: String) async throws -> Date? {
        try await database.read { db in
            try db.value("SELECT delegateDisabledAt FROM session WHERE id = ?", sessionId, as: Date?.self) ?? nil
        }
    }
}
