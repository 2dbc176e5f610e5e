import Foundation
public import TransferModels

extension TransferStore {
    /// Appends an event inside the caller's transaction with the session's next `sequence`.
    ///
    /// The sequence is taken from the session row in the same transaction, so sequences never have gaps
    /// or duplicates, whatever crashes around them.
    static func appendEvent(
        _ db: any StoreConnection, session: inout SessionRecord, taskId: String?, event: DelegateEvent
    ) throws {
        try appendEvent(db, session: &session, taskId: taskId, encoded: try event.encoded())
    }

    static func appendEvent(
        _ db: any StoreConnection, session: inout SessionRecord, taskId: String?, encoded: EncodedEvent
    ) throws {
        let (events, _) = try sequenced(db, [(session.id, taskId, nil, encoded.type, encoded.data)])
        try insertEvents(db, events)
        session.lastSequence = events[0].sequence
    }

    /// Events of a session with `sequence > after`, oldest first.
    public func events(sessionId: String, after: Int64, limit: Int) async throws -> [EventRecord] {
        try await database.read { db in
            try db.rows("SELECT * FROM event WHERE sessionId = ? AND sequence > ? ORDER BY sequence LIMIT ?", sessionId, after, limit)
                .map { try $0.decode(EventRecord.self) }
        }
    }

    /// A page of a session's events with `sequence > after`, in order, plus whether more are stored and
    /// whether the log is closed for good (the session is invalidated and its last event is on the page).
    ///
    /// One read transaction: the events and the session's state come from the same snapshot, so an
    /// `invalidated` session whose `lastSequence` is reached has really sent its last event (invalidation
    /// appends `session.didBecomeInvalidWithError` in the transaction that changes the state).
    public func eventPage(sessionId: String, after: Int64, limit: Int) async throws -> EventPage {
        try await database.read { db in
            // One row more than asked tells whether another page follows without a second query.
            var events = try db.rows(
                "SELECT * FROM event WHERE sessionId = ? AND sequence > ? ORDER BY sequence LIMIT ?", sessionId, after, limit + 1
            ).map { try $0.decode(EventRecord.self) }
            let hasMore = events.count > limit
            if hasMore { events.removeLast() }
            let session = try db.row("SELECT state, lastSequence FROM session WHERE id = ?", sessionId)
            let state = try session.flatMap { SessionState(rawValue: try $0.decode(forColumn: "state")) }
            let lastSequence: Int64 = try session?.decode(forColumn: "lastSequence") ?? 0
            let reached = events.last?.sequence ?? after
            return EventPage(
                events: events, hasMore: hasMore, isFinal: state == .invalidated && reached >= lastSequence, lastSequence: lastSequence)
        }
    }

    /// A page of one task's events with `sequence > after` (the session's sequence: it has gaps here), in
    /// order. `isFinal` is always false: a task's page is read once, never followed as a stream.
    /// The caller has checked the task is the tenant's.
    public func taskEventPage(taskId: String, after: Int64, limit: Int) async throws -> EventPage {
        try await database.read { db in
            // Served by the `event_task(taskId, sequence)` index.
            var events = try db.rows(
                "SELECT * FROM event WHERE taskId = ? AND sequence > ? ORDER BY sequence LIMIT ?", taskId, after, limit + 1
            ).map { try $0.decode(EventRecord.self) }
            let hasMore = events.count > limit
            if hasMore { events.removeLast() }
            return EventPage(events: events, hasMore: hasMore, isFinal: false)
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
        let (event, session): (EventRecord, SessionRecord) = try await database.write { db in
            guard var session = try db.row("SELECT * FROM session WHERE id = ?" + db.forUpdate, sessionId)?.decode(SessionRecord.self)
            else {
                throw TaskStoreError.sessionNotFound
            }
            try Self.appendEvent(db, session: &session, taskId: taskId, encoded: EncodedEvent(type: type, data: dataJSON))
            guard
                let event = try db.row("SELECT * FROM event WHERE sessionId = ? AND sequence = ?", sessionId, session.lastSequence)?
                    .decode(EventRecord.self)
            else { throw TaskStoreError.sessionNotFound }  // cannot happen: inserted just above
            return (event, session)
        }
        refreshCachedSession(try requestSecrets.opened(session))
        eventFeed.publish(sessionId)
        return event
    }
}
