import Foundation
public import TransferModels

/// A session's new `lastSequence` after a write, and the record when its state changed too (as
/// stored: `EventLog.publish` opens it for the cache).
struct SessionAdvance {
    var sessionId: String
    var lastSequence: Int64
    var changedRecord: SessionRecord?
}

/// The event log and outbox: each session's delegate events in `sequence` order (gap-free, never reused),
/// appended inside the transactions of the writes they report, read by pages and long-polls, and woken
/// through `eventFeed` after each commit. Its delivery columns are `DeliveryStore`'s. The session cache
/// learns each session's new last sequence here, after the commit that took it (`publish`).
public struct EventLog: Sendable {
    let database: any StoreDatabase
    let secrets: SecretBox
    /// `SessionStore`'s cache, which learns each session's last sequence after a commit.
    let sessionCache: LockedBox<[String: SessionRecord]>
    /// Which sessions have new events, after each commit that appended some.
    public let eventFeed = EventFeed()

    var requestSecrets: RequestSecrets { RequestSecrets(box: secrets) }
}

extension EventLog {
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
        let (events, _) = try BatchWrites.sequenced(db, [(session.id, taskId, nil, encoded.type, encoded.data)])
        try BatchWrites.insertEvents(db, events)
        session.lastSequence = events[0].sequence
    }

    /// Events of a session with `sequence > after`, oldest first.
    public func events(sessionId: String, after: Int64, limit: Int) async throws -> [EventRecord] {
        try await database.read { db in
            try db.rows("SELECT * FROM event WHERE sessionId = ? AND sequence > ? ORDER BY sequence LIMIT ?", sessionId, after, limit)
                .map(EventRecord.init(row:))
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
            let (events, hasMore) = try Self.events(db, whose: "sessionId", is: sessionId, after: after, limit: limit)
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
            let (events, hasMore) = try Self.events(db, whose: "taskId", is: taskId, after: after, limit: limit)
            return EventPage(events: events, hasMore: hasMore, isFinal: false)
        }
    }

    /// At most `limit` events whose `column` is `key`, with `sequence > after`, in order, and whether more
    /// follow: one row more than asked tells without a second query.
    private static func events(
        _ db: any StoreConnection, whose column: String, is key: String, after: Int64, limit: Int
    ) throws -> (events: [EventRecord], hasMore: Bool) {
        var events = try db.rows(
            "SELECT * FROM event WHERE \(column) = ? AND sequence > ? ORDER BY sequence LIMIT ?", key, after, limit + 1
        ).map(EventRecord.init(row:))
        let hasMore = events.count > limit
        if hasMore { events.removeLast() }
        return (events, hasMore)
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
                let event = try db.row("SELECT * FROM event WHERE sessionId = ? AND sequence = ?", sessionId, session.lastSequence)
                    .map(EventRecord.init(row:))
            else { throw TaskStoreError.sessionNotFound }  // cannot happen: inserted just above
            return (event, session)
        }
        refreshCachedSession(try requestSecrets.opened(session))
        eventFeed.publish(sessionId)
        return event
    }

    /// After a commit: the session cache learns the new sequence (or the new record), readers are woken.
    func publish(_ advance: SessionAdvance) {
        if let stored = advance.changedRecord {
            if let record = try? requestSecrets.opened(stored) {
                refreshCachedSession(record)
            } else {
                sessionCache.withLock { $0[stored.id] = nil }  // unreadable: the next read fails loudly
            }
        } else {
            sessionCache.withLock { cache in
                guard var cached = cache[advance.sessionId], cached.lastSequence < advance.lastSequence else { return }
                cached.lastSequence = advance.lastSequence
                cache[advance.sessionId] = cached
            }
        }
        eventFeed.publish(advance.sessionId)
    }

    /// Puts a session written by a task verb into the cache unless the cache already holds a later
    /// version. Writes finish in order but their callers resume in any order; `lastSequence` only grows
    /// and every task write that caches here advanced it, so "greater" means "later". A write that did
    /// not advance it (moving to `invalidating`) is later than ours when the sequences are equal.
    /// `record` is the clear form (`RequestSecrets.opened`).
    func refreshCachedSession(_ record: SessionRecord) {
        sessionCache.withLock { cache in
            var refreshed = record
            if let cached = cache[record.id] {
                guard cached.lastSequence < record.lastSequence else { return }
                // Delegate and description change only through `updateSession`, which caches them itself:
                // a row read before that commit must not bring the old ones back.
                (refreshed.delegate, refreshed.delegateSecret) = (cached.delegate, cached.delegateSecret)
                refreshed.sessionDescription = cached.sessionDescription
            }
            cache[record.id] = refreshed
        }
    }
}
