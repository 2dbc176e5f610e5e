public import Foundation
import GRDB
import JSONCodec
public import TransferModels

/// The webhook dispatcher's verbs: which queues have work, their next events, and one transaction for
/// everything a batch of deliveries taught it. See `registerDeliveryMigrations` for the model.
extension TransferStore {
    /// Sessions whose delegate queue has events past its cursor and may be tried by `dueBy`.
    public func sessionsWithDelegateBacklog(dueBy: Date, limit: Int) async throws -> [QueueOwner] {
        try await pool.read { db in
            // The first three terms are the partial index `session_delegate_backlog`'s, verbatim.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, tenant FROM session
                    WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor
                    AND (delegateRetryAt IS NULL OR delegateRetryAt <= ?) AND delegateHeldAt IS NULL
                    LIMIT ?
                    """, arguments: [dueBy, limit]
            ).map { QueueOwner(sessionId: $0["id"], tenant: $0["tenant"]) }
        }
    }

    /// Sessions with `task.completion` events neither delivered nor given up (whatever their retry time:
    /// the dispatcher waits for the head's `nextAttemptAt` itself).
    public func sessionsWithPendingCompletions(limit: Int) async throws -> [QueueOwner] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT pending.sessionId, COALESCE(session.tenant, '') AS tenant FROM (
                        SELECT DISTINCT sessionId FROM event
                        WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL
                        LIMIT ?
                    ) AS pending LEFT JOIN session ON session.id = pending.sessionId
                    """, arguments: [limit]
            ).map { QueueOwner(sessionId: $0["sessionId"], tenant: $0["tenant"]) }
        }
    }

    /// Events waiting for delivery: past the cursor of every live delegate queue (an upper bound, since
    /// a filter may skip some), plus completion events pending.
    public func deliveryQueueDepth() async throws -> Int {
        try await pool.read { db in
            let delegate =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COALESCE(SUM(lastSequence - delegateCursor), 0) FROM session
                        WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor
                        """) ?? 0
            let completions =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM event
                        WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL
                        """) ?? 0
            return delegate + completions
        }
    }

    /// The session's delegate queue; nil when the session is gone, has no delegate, or its URL is disabled.
    ///
    /// - Throws: when the stored secret cannot be opened (another `URLSESSIOND_SECRET_KEY`).
    public func delegateQueue(sessionId: String) async throws -> DelegateQueue? {
        // Every change of the delegate goes through this store's cache: a cached session without one
        // needs no query.
        if let cached = sessionCache.withLock({ $0[sessionId] }), cached.delegate == nil { return nil }
        // `Row` is not Sendable: the columns are read inside the access. The record stays as stored (its
        // headers sealed): only its delegate and kind are read.
        let found: (SessionRecord, cursor: Int64, retryAt: Date?, disabledAt: Date?, heldAt: Date?)? = try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ?", arguments: [sessionId]) else {
                return nil
            }
            return (
                try SessionRecord(row: row), row["delegateCursor"], row["delegateRetryAt"], row["delegateDisabledAt"],
                row["delegateHeldAt"]
            )
        }
        guard let (record, cursor, retryAt, disabledAt, heldAt) = found, let delegate = record.delegate, disabledAt == nil,
            heldAt == nil
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
        let (found, session): ([Found], SessionRecord?) = try await pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT event.*, task.completion AS taskCompletion, task.completionSecret AS taskCompletionSecret
                    FROM event LEFT JOIN task ON task.id = event.taskId
                    WHERE event.sessionId = ? AND event.type = 'task.completion' AND event.deliveredAt IS NULL
                    AND event.deliveryFailedAt IS NULL AND event.sequence > ?
                    ORDER BY event.sequence LIMIT ?
                    """, arguments: [sessionId, after, limit])
            let found: [Found] = try rows.map { row in
                (try EventRecord(row: row), row["taskCompletion"] as String?, row["taskCompletionSecret"] as Data?)
            }
            let session = rows.isEmpty ? nil : try SessionRecord.filter(Column("id") == sessionId).fetchOne(db)
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
        try await pool.write { db in
            let failed = try db.cachedStatement(
                sql: """
                    UPDATE event SET deliveryAttempts = deliveryAttempts + 1, nextAttemptAt = ? WHERE id = ?
                    """)
            for failure in outcomes.failures { try failed.execute(arguments: [failure.nextAttemptAt.storageText, failure.eventId]) }
            let delivered = try db.cachedStatement(
                sql: """
                    UPDATE event SET deliveredAt = ?, deliveryAttempts = deliveryAttempts + 1, nextAttemptAt = NULL WHERE id = ?
                    """)
            for (id, at) in outcomes.delivered { try delivered.execute(arguments: [at.storageText, id]) }
            let abandoned = try db.cachedStatement(
                sql: """
                    UPDATE event SET deliveryFailedAt = ?, deliveryAttempts = deliveryAttempts + 1, nextAttemptAt = NULL WHERE id = ?
                    """)
            for (id, at) in outcomes.abandoned { try abandoned.execute(arguments: [at.storageText, id]) }
            let cursor = try db.cachedStatement(sql: "UPDATE session SET delegateCursor = MAX(delegateCursor, ?) WHERE id = ?")
            for (session, sequence) in outcomes.cursors { try cursor.execute(arguments: [sequence, session]) }
            let retry = try db.cachedStatement(sql: "UPDATE session SET delegateRetryAt = ? WHERE id = ?")
            for (session, mark) in outcomes.delegateRetry {
                switch mark {
                case .now: try retry.execute(arguments: [nil as Date?, session])
                case .at(let date): try retry.execute(arguments: [date, session])
                }
            }
            let disable = try db.cachedStatement(
                sql: """
                    UPDATE session SET delegateDisabledAt = ? WHERE id = ? AND delegateDisabledAt IS NULL
                    """)
            for (session, at) in outcomes.disabled { try disable.execute(arguments: [at, session]) }
            let hold = try db.cachedStatement(
                sql: """
                    UPDATE session SET delegateHeldAt = ?, delegateRetryAt = NULL WHERE id = ? AND delegateHeldAt IS NULL
                    """)
            for (session, at) in outcomes.held { try hold.execute(arguments: [at.storageText, session]) }
        }
    }

    /// When the session's delegate URL was disabled by a 410 Gone (nil: it is not).
    public func delegateDisabledAt(sessionId: String) async throws -> Date? {
        try await pool.read { db in
            try Date.fetchOne(db, sql: "SELECT delegateDisabledAt FROM session WHERE id = ?", arguments: [sessionId])
        }
    }

    /// Appends one event to a session's log (next `sequence`) in its own transaction and wakes the
    /// event readers. For producers outside the task verbs: decisions, `task.completion`.
    ///
    /// - Throws: `TaskStoreError.sessionNotFound`.
    @discardableResult
    public func appendEvent(
        sessionId: String, taskId: String?, type: TaskEventType, dataJSON: String
    ) async throws -> EventRecord {
        let (event, session): (EventRecord, SessionRecord) = try await pool.write { db in
            guard var session = try SessionRecord.filter(Column("id") == sessionId).fetchOne(db) else {
                throw TaskStoreError.sessionNotFound
            }
            try Self.appendEvent(db, session: &session, taskId: taskId, encoded: EncodedEvent(type: type, data: dataJSON))
            guard
                let event =
                    try EventRecord
                    .filter(Column("sessionId") == sessionId && Column("sequence") == session.lastSequence).fetchOne(db)
            else { throw TaskStoreError.sessionNotFound }  // cannot happen: inserted just above
            return (event, session)
        }
        refreshCachedSession(try requestSecrets.opened(session))
        eventFeed.publish(sessionId)
        return event
    }
}
