public import TransferModels
public import TransferStore

/// The events the API reads (`/v1/sessions/{id}/events` as pages and as server-sent events,
/// `/v1/tasks/{id}/events`): pages of the session's or the task's log, and the hints that more were written.
public struct EventQueries: Sendable {
    let store: TransferStore

    public init(store: TransferStore) { self.store = store }

    /// The session's events after `after`, at most `limit`.
    public func page(sessionId: String, after: Int64, limit: Int) async throws -> EventPage {
        try await store.events.eventPage(sessionId: sessionId, after: after, limit: limit)
    }

    /// The task's events after `after`, at most `limit`.
    public func page(taskId: String, after: Int64, limit: Int) async throws -> EventPage {
        try await store.events.taskEventPage(taskId: taskId, after: after, limit: limit)
    }

    /// Moves whenever events are written: what a page of a task's events encoded under it stays valid for.
    public var changeCount: UInt64 { store.tasks.eventChangeCount }

    /// Wakes for each commit that wrote events of `session` (nil: of any session); the hints carry no events.
    public func subscribe(session: String?) -> AsyncStream<String> {
        store.events.eventFeed.subscribe(session: session)
    }
}
