import Foundation
import GRDB
import TransferModels

extension TransferStore {
    /// Appends an event inside the caller's transaction with the session's next `sequence`.
    ///
    /// The sequence is taken from the session row in the same transaction, so sequences never have gaps
    /// or duplicates, whatever crashes around them.
    static func appendEvent(
        _ db: Database, session: inout SessionRecord, taskId: String?, event: DelegateEvent
    ) throws {
        try appendEvent(db, session: &session, taskId: taskId, encoded: try event.encoded())
    }

    static func appendEvent(_ db: Database, session: inout SessionRecord, taskId: String?, encoded: EncodedEvent) throws {
        session.lastSequence = try reserveSequences(db, sessionId: session.id, count: 1).0
        try insertEvent(
            db, sessionId: session.id, sequence: session.lastSequence, taskId: taskId, type: encoded.type, data: encoded.data)
    }

    /// Events of a session with `sequence > after`, oldest first.
    public func events(sessionId: String, after: Int64, limit: Int) async throws -> [EventRecord] {
        try await pool.read { db in
            try EventRecord
                .filter(Column("sessionId") == sessionId && Column("sequence") > after)
                .order(Column("sequence"))
                .limit(limit)
                .fetchAll(db)
        }
    }

    /// A page of a session's events with `sequence > after`, in order, plus whether more are stored and
    /// whether the log is closed for good (the session is invalidated and its last event is on the page).
    ///
    /// One read transaction: the events and the session's state come from the same snapshot, so an
    /// `invalidated` session whose `lastSequence` is reached has really sent its last event (invalidation
    /// appends `session.didBecomeInvalidWithError` in the transaction that changes the state).
    public func eventPage(sessionId: String, after: Int64, limit: Int) async throws -> EventPage {
        try await pool.read { db in
            // One row more than asked tells whether another page follows without a second query.
            var events =
                try EventRecord
                .filter(Column("sessionId") == sessionId && Column("sequence") > after)
                .order(Column("sequence"))
                .limit(limit + 1)
                .fetchAll(db)
            let hasMore = events.count > limit
            if hasMore { events.removeLast() }
            let session = try Row.fetchOne(
                db, sql: "SELECT state, lastSequence FROM session WHERE id = ?", arguments: [sessionId])
            let state = session.flatMap { SessionState(rawValue: $0["state"]) }
            let lastSequence: Int64 = session?["lastSequence"] ?? 0
            let reached = events.last?.sequence ?? after
            return EventPage(events: events, hasMore: hasMore, isFinal: state == .invalidated && reached >= lastSequence)
        }
    }

    /// A page of one task's events with `sequence > after` (the session's sequence: it has gaps here), in
    /// order. `isFinal` is always false: a task's page is read once, never followed as a stream.
    /// The caller has checked the task is the tenant's.
    public func taskEventPage(taskId: String, after: Int64, limit: Int) async throws -> EventPage {
        try await pool.read { db in
            // Served by the `event_task(taskId, sequence)` index.
            var events =
                try EventRecord
                .filter(Column("taskId") == taskId && Column("sequence") > after)
                .order(Column("sequence"))
                .limit(limit + 1)
                .fetchAll(db)
            let hasMore = events.count > limit
            if hasMore { events.removeLast() }
            return EventPage(events: events, hasMore: hasMore, isFinal: false)
        }
    }
}
