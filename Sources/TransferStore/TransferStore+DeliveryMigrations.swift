import GRDB

extension TransferStore {
    /// The webhook outbox's migrations, registered by `migrator` after the task migrations; append here,
    /// never edit.
    ///
    /// The outbox is the `event` table itself. A session's delegate queue is a cursor (the highest
    /// `sequence` handled: delivered, skipped by the `events` filter, or given up), so events that are not
    /// sent never block the queue, and sessions without a delegate cost nothing. `task.completion` events go
    /// to their task's URL instead and are tracked on their own rows (`deliveredAt`, `deliveryFailedAt`).
    static func registerDeliveryMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-webhook-delivery") { db in
            try db.alter(table: "session") { t in
                // Every event of the session with `sequence <= delegateCursor` is done with.
                t.add(column: "delegateCursor", .integer).notNull().defaults(to: 0)
                // The head of the delegate queue failed: not before this time (nil: now).
                t.add(column: "delegateRetryAt", .datetime)
                // The delegate URL answered 410 Gone: nothing more is sent to it.
                t.add(column: "delegateDisabledAt", .datetime)
            }
            try db.alter(table: "event") { t in
                // Delivery was given up (410 on a completion URL, an unanswered decision); still readable.
                t.add(column: "deliveryFailedAt", .datetime)
            }
            // Sessions whose delegate has events to look at. The WHERE terms are repeated verbatim by the
            // dispatcher's query, which is what lets SQLite use a partial index.
            try db.execute(
                sql: """
                    CREATE INDEX session_delegate_backlog ON session(delegateRetryAt)
                    WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor
                    """)
            // Completion-handler events not yet delivered: small, whatever the size of the log.
            try db.execute(
                sql: """
                    CREATE INDEX event_completion_pending ON event(sessionId, sequence)
                    WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL
                    """)
        }
        migrator.registerMigration("v6-session-delegate-held") { db in
            try db.alter(table: "session") { t in
                // A background session without launch events found its delegate unreachable: nothing is
                // sent until the client re-attaches (nil: deliver).
                t.add(column: "delegateHeldAt", .datetime)
            }
        }
    }

    /// The delegate's health (`DelegateDeliveryRecord`), registered by `migrator` after every other
    /// migration (it came last): what the dispatcher learned besides the cursor, written with its
    /// outcomes (`recordDeliveries`). Append here, never edit.
    static func registerDeliveryHealthMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v17-session-delegate-health") { db in
            try db.alter(table: "session") { t in
                // The last 2xx from the delegate (nil: none yet).
                t.add(column: "delegateDeliveredAt", .datetime)
                // Failed attempts to the delegate since its last 2xx.
                t.add(column: "delegateFailures", .integer).notNull().defaults(to: 0)
                // The last failed attempt and its short reason (`HTTP 500`, `timed out`; never the URL).
                t.add(column: "delegateFailedAt", .datetime)
                t.add(column: "delegateFailureReason", .text)
            }
        }
    }
}
