import Foundation
import SessionTasks
import TransferModels

/// `GET /v1/sessions/{id}/events` — a JSON page, a long-poll with `?wait=`, or server-sent events with
/// `Accept: text/event-stream` — and `GET /v1/tasks/{id}/events`: the delegate's events for clients
/// without a public URL, read from the store's event log.
struct EventRoutes {
    let events: EventQueries
    let queries: TaskQueries
    let sessions: SessionService
    /// Long-polls and streams answer at once when graceful shutdown begins.
    let shutdown: ShutdownSignal
    /// Each long-poll and stream holds one of its tenant's `streams` while it is open.
    let streams: StreamQuota
    /// Counts the watchers' wakeups (`urlsessiond_event_watcher_wakeups_total`).
    let metrics: TenantMetrics
    /// Tasks' event pages, current while the event log is unchanged.
    let taskPages = ChangeCountedJSONCache()

    var routes: [Route] {
        [
            Route("GET", "/v1/sessions/{id}/events", steps: [.authenticated]) { try await sessionEvents($0) },
            Route("GET", "/v1/tasks/{id}/events", steps: [.authenticated], fast: { try cachedTaskEvents($0) }) { try await taskEvents($0) },
        ]
    }

    private func sessionEvents(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let query = try EventQuery(request, streams: true)
        if query.wantsEventStream {
            return try await eventStream(session: session.id, after: query.streamStart, tenant: request.tenant)
        }
        let page: EventPage
        if let wait = query.wait, wait > .zero {
            page = try await streams.holding(tenant: request.tenant) {
                try await longPoll(session: session.id, after: query.after, limit: query.limit, for: wait)
            }
        } else {
            page = try await events.page(sessionId: session.id, after: query.after, limit: query.limit)
        }
        return Self.json(try EventJSON.page(page))
    }

    private func taskEvents(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameter("id")
        guard try await queries.task(id: id, tenant: request.tenant) != nil else { throw Problem.notFound("no task \(id)") }
        let query = try EventQuery(request, streams: false)
        let json = try await taskPages.json(Self.pageKey(id, query), count: events.changeCount) {
            (try EventJSON.page(try await events.page(taskId: id, after: query.after, limit: query.limit)), keptFor: nil)
        }
        return Self.json(json)
    }

    /// The task's page from memory on the HTTP thread, when the task is in memory and the event log had
    /// no commit since the page was made (nil: the asynchronous path).
    private func cachedTaskEvents(_ request: HTTPRequest) throws -> HTTPResponse? {
        let id = request.parameter("id")
        guard queries.cachedTask(id: id, tenant: request.tenant) != nil else { return nil }
        let query = try EventQuery(request, streams: false)
        return taskPages.cached(Self.pageKey(id, query), count: events.changeCount).map(Self.json)
    }

    /// The task is checked to be the tenant's before its page is looked up: its id names the page.
    private static func pageKey(_ taskId: String, _ query: EventQuery) -> String {
        "\(taskId) \(query.after) \(query.limit)"
    }

    /// `?wait=`: answers as soon as an event exists after `after`, or when the time is up, the session's
    /// log is closed for good (invalidated, nothing left), or the service shuts down. The store is read
    /// again whenever the feed says the session has new events, and every `rescanInterval` besides (the
    /// feed is a hint: one can be dropped when a reader falls far behind).
    private func longPoll(session: String, after: Int64, limit: Int, for wait: Duration) async throws -> EventPage {
        try await watching(session: session, tick: Self.rescanInterval, deadline: .now + wait) { doorbell in
            var reasons: Doorbell.Reasons = []
            while true {
                let page = try await events.page(sessionId: session, after: after, limit: limit)
                if !page.events.isEmpty || page.isFinal || !reasons.isDisjoint(with: [.deadline, .shutdown]) {
                    return page
                }
                reasons.formUnion(await doorbell.wait())
            }
        }
    }

    /// `Accept: text/event-stream`: the stream starts after `start`; `produceEvents` writes it.
    private func eventStream(session: String, after start: Int64, tenant: String) async throws -> HTTPResponse {
        let slot = try streams.acquire(tenant: tenant)  // given back when the stream ends, or never starts
        // A closed log with nothing left to send: 204 tells an EventSource to stop reconnecting.
        let first = try await events.page(sessionId: session, after: start, limit: 1)
        if first.events.isEmpty && first.isFinal {
            slot.release()
            return HTTPResponse(status: 204)
        }
        let stream = ResponseStream { stream in
            defer { slot.release() }
            await produceEvents(session: session, after: start, into: stream)
        }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                ("X-Accel-Buffering", "no"),  // nginx and its kin must not buffer the stream
            ],
            body: .stream(stream))
    }

    private static func json(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(bytes))
    }
}
