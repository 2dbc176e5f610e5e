extension StoreMigrations {
    /// The webhook outbox. The outbox is the `event` table itself. A session's delegate queue is a cursor
    /// (the highest `sequence` handled: delivered, skipped by the `events` filter, or given up), so events
    /// that are not sent never block the queue, and sessions without a delegate cost nothing.
    /// `task.completion` events go to their task's URL instead and are tracked on their own rows
    /// (`deliveredAt`, `deliveryFailedAt`).
    static let webhookDelivery = StoreMigration(
        "v3-webhook-delivery",
        [
            // Every event of the session with `sequence <= delegateCursor` is done with.
            .shared("ALTER TABLE session ADD COLUMN delegateCursor \(.integer) NOT NULL DEFAULT 0"),
            // The head of the delegate queue failed: not before this time (nil: now).
            .shared("ALTER TABLE session ADD COLUMN delegateRetryAt \(.date)"),
            // The delegate URL answered 410 Gone: nothing more is sent to it.
            .shared("ALTER TABLE session ADD COLUMN delegateDisabledAt \(.date)"),
            // Delivery was given up (410 on a completion URL, an unanswered decision); still readable.
            .shared("ALTER TABLE event ADD COLUMN deliveryFailedAt \(.date)"),
            // Sessions whose delegate has events to look at. The WHERE terms are repeated verbatim by the
            // dispatcher's query, which is what lets SQLite use a partial index.
            .shared(
                """
                CREATE INDEX session_delegate_backlog ON session(delegateRetryAt)
                WHERE delegate IS NOT NULL AND delegateDisabledAt IS NULL AND lastSequence > delegateCursor
                """),
            // Completion-handler events not yet delivered: small, whatever the size of the log.
            .shared(
                """
                CREATE INDEX event_completion_pending ON event(sessionId, sequence)
                WHERE type = 'task.completion' AND deliveredAt IS NULL AND deliveryFailedAt IS NULL
                """),
        ])

    /// A background session without launch events found its delegate unreachable: nothing is sent until
    /// the client re-attaches (nil: deliver).
    static let sessionDelegateHeld = StoreMigration(
        "v6-session-delegate-held", [.shared("ALTER TABLE session ADD COLUMN delegateHeldAt \(.date)")])

    /// The delegate's health (`DelegateDeliveryRecord`): what the dispatcher learned besides the cursor,
    /// written with its outcomes (`recordDeliveries`).
    static let sessionDelegateHealth = StoreMigration(
        "v17-session-delegate-health",
        [
            // The last 2xx from the delegate (nil: none yet).
            .shared("ALTER TABLE session ADD COLUMN delegateDeliveredAt \(.date)"),
            // Failed attempts to the delegate since its last 2xx.
            .shared("ALTER TABLE session ADD COLUMN delegateFailures \(.integer) NOT NULL DEFAULT 0"),
            // The last failed attempt and its short reason (`HTTP 500`, `timed out`; never the URL).
            .shared("ALTER TABLE session ADD COLUMN delegateFailedAt \(.date)"),
            .shared("ALTER TABLE session ADD COLUMN delegateFailureReason TEXT"),
        ])
}
