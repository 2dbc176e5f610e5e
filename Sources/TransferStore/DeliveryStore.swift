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
                    try row.decode(EventRecord.self), try row.decode(String?.self, forColumn: "taskCompletion"),
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

    /// Records a batch of delivery outcomes in one transaction: failures first, then acknowledgements
    /// and give-ups, then the queues' cursors, retry times and disabled URLs.
    public func recordDeliveries(_ outcomes: DeliveryOutcomes) async throws {
        guard !outcomes.isEmpty else { return }
        try await database.write { db in
            for failure in outcomes.failures {
                try db.execute(
                    "UPDATE event SET deliveryAttempts = deliveryAttempts + 1, nextAttemptAt = ? WHERE id = ?", failure.nextAttemptAt,
                    failure.eventId)
            }
            for (id, at) in outcomes.delivered {
                try db.execute(
                    "UPDATE event SET deliveredAt = ?, deliveryAttempts = deliveryAttempts + 1, nextAttemptAt = NULL WHERE id = ?", at, id)
            }
            for (id, at) in outcomes.abandoned {
                try db.execute(
                    "UPDATE event SET deliveryFailedAt = ?, deliveryAttempts = deliveryAttempts + 1, nextAttemptAt = NULL WHERE id = ?",
                    at, id)
            }
            // The cursor only moves forward (a condition rather than SQLite's two-argument MAX, which
            // PostgreSQL spells GREATEST).
            for (session, sequence) in outcomes.cursors {
                try db.execute("UPDATE session SET delegateCursor = ? WHERE id = ? AND delegateCursor < ?", sequence, session, sequence)
            }
            for (session, mark) in outcomes.delegateRetry {
                switch mark {
                case .now: try db.execute("UPDATE session SET delegateRetryAt = ? WHERE id = ?", nil as Date?, session)
                case .at(let date): try db.execute("UPDATE session SET delegateRetryAt = ? WHERE id = ?", date, session)
                }
            }
            for (session, at) in outcomes.disabled {
                try db.execute("UPDATE session SET delegateDisabledAt = ? WHERE id = ? AND delegateDisabledAt IS NULL", at, session)
            }
            for (session, at) in outcomes.held {
                try db.execute(
                    "UPDATE session SET delegateHeldAt = ?, delegateRetryAt = NULL WHERE id = ? AND delegateHeldAt IS NULL", at, session)
            }
            // One statement per session however many answers the batch had: a success replaces the
            // failure count (keep = 0), a batch of failures only adds to it (keep = 1).
            for (session, health) in outcomes.delegateHealth {
                try db.execute(
                    """
                    UPDATE session SET delegateFailures = delegateFailures * ? + ?,
                    delegateDeliveredAt = COALESCE(?, delegateDeliveredAt), delegateFailedAt = COALESCE(?, delegateFailedAt),
                    delegateFailureReason = COALESCE(?, delegateFailureReason) WHERE id = ?
                    """, health.deliveredAt == nil ? 1 : 0, health.failures, health.deliveredAt, health.lastFailure?.at,
                    health.lastFailure?.reason, session)
            }
        }
    }

    /// When the session's delegate URL was disabled by a 410 Gone (nil: it is not).
    public func delegateDisabledAt(sessionId: String) async throws -> Date? {
        try await database.read { db in
            try db.value("SELECT delegateDisabledAt FROM session WHERE id = ?", sessionId, as: Date?.self) ?? nil
        }
    }
}
