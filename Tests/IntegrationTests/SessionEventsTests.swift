import Foundation
import TestSupport
import Testing

/// `GET /v1/sessions/{id}/events` (JSON pages, `?wait=`) and `GET /v1/tasks/{id}/events`, through the real
/// binary with data tasks against the fixture origin. The server-sent event form is in `+Stream`.
@Suite("Session and task events")
struct SessionEventsTests {
    /// Runs `count` data tasks to completion in `session`; returns their ids in creation order.
    static func runDataTasks(_ api: API, session: String, origin: FixtureOrigin, count: Int) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/\(100 + index)")]])
            #expect(task.state == "completed" && isNull(task["error"]), "\(task)")
            ids.append(task.taskID)
        }
        return ids
    }

    @Test(.timeLimit(.minutes(1)))
    func eventsOfDataTasksAreInOrderWithoutGaps() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let tasks = try await Self.runDataTasks(api, session: session, origin: origin, count: 3)
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            #expect(events.compactMap(\.sequence) == Array(1...max(1, events.count)))
            for event in events { expectEventShape(event, session: session) }
            for task in tasks {
                let own = events.filter { $0.eventTaskID == task }
                #expect(own.first?.eventType == "task.didCreateTask", "\(own.map(\.eventType))")
                #expect(own.last?.eventType == "task.didCompleteWithError", "\(own.map(\.eventType))")
                #expect(isNull(own.last?.eventData?["error"]))
            }
            // Tasks run one after another here, so their events do not interleave.
            let order = events.compactMap(\.eventTaskID).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            #expect(order == tasks)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func pagesFollowTheSequenceCursor() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            _ = try await Self.runDataTasks(api, session: "shared", origin: origin, count: 2)  // the `shared` alias
            let path = "/v1/sessions/shared/events"
            let all = try await api.eventsPage(path, query: "limit=1000")
            #expect(all.nextCursor == nil)
            let total = all.items.count
            try #require(total >= 6, "\(all.items.map(\.eventType))")

            var seen: [Int] = []
            var cursor: String?
            for _ in 0..<total {
                let page = try await api.eventsPage(path, query: "limit=2" + (cursor.map { "&after=\($0)" } ?? ""))
                #expect(page.items.count <= 2)
                seen += page.items.compactMap(\.sequence)
                if let next = page.nextCursor {
                    #expect(next == page.items.last.flatMap(\.sequence).map(String.init))
                }
                cursor = page.nextCursor
                if cursor == nil { break }
            }
            #expect(seen == all.items.compactMap(\.sequence))

            let after3 = try await api.eventsPage(path, query: "after=3&limit=2")
            #expect(after3.items.compactMap(\.sequence) == [4, 5])
            #expect(after3.nextCursor == "5")
            let last = try await api.eventsPage(path, query: "after=\(total - 1)")
            #expect(last.items.compactMap(\.sequence) == [total] && last.nextCursor == nil)
            let past = try await api.eventsPage(path, query: "after=\(total + 10)")
            #expect(past.items.isEmpty && past.nextCursor == nil)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSessionsPageTellsItsNewestSequenceSoAClientCanFollowOnlyWhatComesNext() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let empty = try await api.get("/v1/sessions/\(session)/events?limit=1").json()
            #expect(int(empty["lastSequence"]) == 0, "\(empty)")
            let tasks = try await Self.runDataTasks(api, session: session, origin: origin, count: 2)
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            let first = try await api.get("/v1/sessions/\(session)/events?limit=1").json()
            #expect(int(first["lastSequence"]) == events.count, "\(first)")
            #expect((first["items"] as? [Any])?.count == 1)
            // A task's page has no such member: its sequences are the session's, with gaps.
            let own = try await api.get("/v1/tasks/\(tasks[0])/events").json()
            #expect(own["lastSequence"] == nil && own["items"] != nil, "\(own)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func waitAnswersWhenAnEventArrives() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // Nothing yet: a short wait answers an empty page when its time is up.
            let (empty, waited) = try await timed { try await api.eventsPage("/v1/sessions/\(session)/events", query: "wait=0.5") }
            #expect(empty.items.isEmpty && empty.nextCursor == nil)
            #expect(waited >= 0.4, "answered after \(waited) s")

            let start = ContinuousClock.now
            async let polled = api.eventsPage("/v1/sessions/\(session)/events", query: "after=0&wait=30", timeout: 60)
            try await Task.sleep(for: .milliseconds(500))
            let task = try await api.createTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1")]])
            let page = try await polled
            let elapsed = Double((ContinuousClock.now - start) / .milliseconds(1)) / 1000
            #expect(page.items.first?.eventType == "task.didCreateTask")
            #expect(page.items.first?.eventTaskID == task.taskID)
            #expect(elapsed >= 0.4 && elapsed < 10, "the long-poll answered after \(elapsed) s")

            // Events already there: no waiting at all.
            let (ready, fast) = try await timed { try await api.eventsPage("/v1/sessions/\(session)/events", query: "wait=30") }
            #expect(!ready.items.isEmpty && fast < 5)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func taskEventsAreThatTasksOnly() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let tasks = try await Self.runDataTasks(api, session: session, origin: origin, count: 2)
            let sessionEvents = try await api.allEvents("/v1/sessions/\(session)/events")
            for task in tasks {
                let events = try await api.allEvents("/v1/tasks/\(task)/events")
                #expect(events.allSatisfy { $0.eventTaskID == task })
                #expect(events.first?.eventType == "task.didCreateTask")
                #expect(events.last?.eventType == "task.didCompleteWithError")
                let expected = sessionEvents.filter { $0.eventTaskID == task }
                #expect(try events.map { try canonical($0) } == expected.map { try canonical($0) })
                // One at a time, through the cursor: the same events.
                let paged = try await api.allEvents("/v1/tasks/\(task)/events", limit: 1)
                #expect(paged.compactMap(\.sequence) == events.compactMap(\.sequence))
                let rest = try await api.eventsPage("/v1/tasks/\(task)/events", query: "after=\(events[0].sequence ?? 0)")
                #expect(rest.items.compactMap(\.sequence) == events.dropFirst().compactMap(\.sequence))
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherTenantsSessionOrTaskIsNotFound() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.createTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1")]])
            let other = api.as(Tokens.tenantB)
            expectProblem(try await other.get("/v1/sessions/\(session)/events"), status: 404, slug: "not-found")
            expectProblem(
                try await other.get("/v1/sessions/\(session)/events", headers: [("Accept", "text/event-stream")]),
                status: 404, slug: "not-found")
            expectProblem(try await other.get("/v1/tasks/\(task.taskID)/events"), status: 404, slug: "not-found")
            expectProblem(try await api.get("/v1/sessions/ses_0123456789ABCDEFGHIJKL/events"), status: 404, slug: "not-found")
            expectProblem(try await api.get("/v1/tasks/tsk_0123456789ABCDEFGHIJKL/events"), status: 404, slug: "not-found")
            // Tenant B's own shared session has none of tenant A's events.
            let theirs = try await other.eventsPage("/v1/sessions/shared/events")
            #expect(theirs.items.isEmpty)
            expectProblem(try await api.as(nil).get("/v1/sessions/\(session)/events"), status: 401, slug: "unauthorized")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func badParametersAreRefusedNamingThem() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let path = "/v1/sessions/\(session)/events"
            let cases: [(String, String)] = [
                ("after=-1", "after"), ("after=abc", "after"), ("after=1.5", "after"), ("after=", "after"),
                ("after=%2B5", "after"), ("after=99999999999999999999", "after"),
                ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"),
                ("wait=-1", "wait"), ("wait=301", "wait"), ("wait=soon", "wait"),
            ]
            for (query, field) in cases {
                expectProblem(try await api.get("\(path)?\(query)"), status: 422, slug: "invalid-value", field: field)
            }
            expectProblem(
                try await api.get(path, headers: [("Last-Event-ID", "twelve")]), status: 422, slug: "invalid-value",
                field: "Last-Event-ID")
            expectProblem(
                try await api.get(path + "?limit=0", headers: [("Accept", "text/event-stream")]), status: 422,
                slug: "invalid-value", field: "limit")
            let task = try await api.createTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:9/"]])
            for (query, field) in [("after=-1", "after"), ("limit=0", "limit")] {
                expectProblem(
                    try await api.get("/v1/tasks/\(task.taskID)/events?\(query)"), status: 422, slug: "invalid-value",
                    field: field)
            }
        }
    }
}
