import Foundation
import JSONCodec
import TestSupport
import Testing
import TransferModels
import TransferStore

/// What a batch of tasks costs the database, counted: a group commit of creations, or of running tasks'
/// reports and completions, runs the same number of statements for ten tasks as for a hundred (on
/// either backend: `URLSESSIOND_TEST_STORE=postgres` runs this suite on PostgreSQL). A change that goes
/// back to a statement per task fails here.
@Suite("Statements per batch")
struct StatementBudgetTests {
    /// Creates `count` resumed data tasks in one batch, then writes one batch of reports for all of them
    /// (a response head, counters, a `didReceiveData` event each) and one of their completions (a kept
    /// body each); returns the statements each of the three took.
    private func statements(forTasks count: Int) async throws -> (counts: [UInt64], backend: String) {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array("{}".utf8)).validated()
        guard case .created(let session) = try await store.sessions.createSession(tenant: "t1", request: request, secret: nil) else {
            throw CancellationError()
        }
        let requests = try (0..<count).map { index in
            try StrictJSONDecoder().decode(
                TaskCreateRequest.self,
                from: Array(#"{"kind": "data", "resume": true, "request": {"url": "https://o.example/\#(index)"}}"#.utf8)
            ).validated(session: SessionConfiguration(kind: .default))
        }

        var counts: [UInt64] = []
        var before = store.statementsExecuted
        let tasks = try await store.tasks.createTasks(tenant: "t1", sessionId: session.id, requests: requests).map { try $0.get() }
        counts.append(store.statementsExecuted - before)

        before = store.statementsExecuted
        var progress: [String: TaskByteCounts] = [:]
        var responses: [String: ResponseReport] = [:]
        var events: [TaskEventAppend] = []
        for task in tasks {
            progress[task.id] = TaskByteCounts(sent: 0, expectedToSend: 0, received: 512, expectedToReceive: 1024)
            responses[task.id] = ResponseReport(
                response: HTTPResponseSnapshot(url: task.originalRequest?.url ?? "", statusCode: 200, allHeaderFields: [:]))
            events.append(TaskEventAppend(sessionId: session.id, taskId: task.id, type: .dataTaskDidReceiveData, data: "{}"))
        }
        _ = try await store.tasks.recordEngineReports(progress: progress, responses: responses, events: events, completions: [])
        counts.append(store.statementsExecuted - before)

        before = store.statementsExecuted
        let completions = tasks.map { task in
            TaskCompletion(
                id: task.id, error: nil, body: Array(repeating: 7, count: 1024),
                counts: TaskByteCounts(
                    sent: 0, expectedToSend: 0, received: 1024, expectedToReceive: 1024))
        }
        let (completed, failures) = try await store.tasks.recordEngineReports(progress: [:], responses: [:], completions: completions)
        counts.append(store.statementsExecuted - before)

        #expect(completed == Set(tasks.map(\.id)) && failures.isEmpty)
        // Everything arrived, in order, gap-free: didCreateTask, didReceiveData, didCompleteWithError each.
        let log = try await store.events.events(sessionId: session.id, after: 0, limit: 4 * count)
        #expect(log.map(\.sequence) == Array(1...Int64(3 * count)))
        #expect(log.filter { $0.type == .taskDidCompleteWithError }.count == count)
        #expect(try await store.tasks.keptBody(taskId: tasks[count - 1].id)?.count == 1024)
        return (counts, store.backendName)
    }

    @Test func aBatchCostsTheSameStatementsForTenTasksAsForAHundred() async throws {
        let (ten, backend) = try await statements(forTasks: 10)
        let (hundred, _) = try await statements(forTasks: 100)
        // Each batch is a handful of statements, transaction control included: at 100 tasks a batch, a
        // task's whole life (created, reported, completed) costs under half a statement.
        #expect(hundred.allSatisfy { $0 <= (backend == "postgresql" ? 12 : 20) }, "100 tasks: \(hundred) statements")
        if backend == "postgresql" {
            // One round trip per statement: the count must not grow with the batch at all.
            #expect(ten == hundred, "creation, reports, completions: \(ten) statements for 10 tasks, \(hundred) for 100")
        } else {
            // In process, SQLite's sets go in chunks of 64, 16, 4 or 1 rows (`StoreRowSet`).
            #expect(zip(ten, hundred).allSatisfy { $1 - $0 <= 3 * 3 }, "\(ten) statements for 10 tasks, \(hundred) for 100")
        }
    }

    /// Writes one batch of delivery outcomes for `count` events of one session (each delivered, except
    /// the first, which failed twice first, and a `task.completion` event given up) and returns the
    /// statements it took, after checking what each event's row says.
    private func deliveryStatements(forEvents count: Int) async throws -> (statements: UInt64, backend: String) {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let request = try StrictJSONDecoder().decode(
            SessionCreateRequest.self, from: Array(#"{"delegate": {"url": "https://hooks.example/a"}}"#.utf8)
        ).validated()
        guard case .created(let session) = try await store.sessions.createSession(tenant: "t1", request: request, secret: nil) else {
            throw CancellationError()
        }
        var events: [EventRecord] = []
        for _ in 0..<count {
            events.append(
                try await store.events.appendEvent(sessionId: session.id, taskId: nil, type: .taskDidSendBodyData, dataJSON: "{}"))
        }
        let givenUp = try await store.events.appendEvent(sessionId: session.id, taskId: nil, type: .taskCompletion, dataJSON: "{}")
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        var outcomes = DeliveryOutcomes()
        outcomes.failures = [.init(eventId: events[0].id, nextAttemptAt: t0 + 5), .init(eventId: events[0].id, nextAttemptAt: t0 + 10)]
        for (index, event) in events.enumerated() { outcomes.delivered[event.id] = t0 + Double(index) }
        outcomes.abandoned[givenUp.id] = t0 + 100
        outcomes.cursors[session.id] = events[count - 1].sequence
        outcomes.delegateRetry[session.id] = .now
        outcomes.delegateHealth[session.id, default: DelegateHealthChange()].delivered(at: t0 + 99)

        let before = store.statementsExecuted
        try await store.deliveries.recordDeliveries(outcomes)
        let statements = store.statementsExecuted - before

        let log = try await store.events.events(sessionId: session.id, after: 0, limit: count + 1)
        #expect(log.prefix(count).map(\.deliveredAt) == events.indices.map { t0 + Double($0) })
        #expect(log.prefix(count).map(\.deliveryAttempts) == [3] + Array(repeating: 1, count: count - 1), "every attempt counts")
        #expect(log.allSatisfy { $0.nextAttemptAt == nil }, "no retry is pending once delivered or given up")
        #expect(log.last?.deliveryAttempts == 1 && log.last?.deliveredAt == nil)
        #expect(try await store.deliveries.pendingCompletions(sessionId: session.id, after: 0, limit: 10).isEmpty, "given up")
        let delivery = try #require(try await store.deliveries.delegateDelivery(sessionId: session.id)).wire
        #expect(delivery.deliveredThrough == events[count - 1].sequence && delivery.lastDeliveredAt == t0 + 99)
        return (statements, store.backendName)
    }

    @Test func aBatchOfDeliveryOutcomesCostsTheSameStatementsForTenEventsAsForAHundred() async throws {
        let (ten, backend) = try await deliveryStatements(forEvents: 10)
        let (hundred, _) = try await deliveryStatements(forEvents: 100)
        // The events' marks in one statement, the sessions' in another, with the transaction's own (on
        // SQLite the events' set goes in chunks: 64 + 16 + 16 + 4 rows).
        #expect(hundred <= (backend == "postgresql" ? 4 : 8), "\(hundred) statements for the outcomes of 100 events")
        if backend == "postgresql" {
            #expect(ten == hundred, "\(ten) statements for 10 events, \(hundred) for 100")
        } else {
            #expect(hundred - ten <= 3, "\(ten) statements for 10 events, \(hundred) for 100")
        }
    }

    /// Writes `count` entries of one URL cache storage with their bodies in one batch, then deletes all
    /// but the first and stores the second again in another; returns the statements each batch took, after
    /// reading back what the storage holds.
    private func cacheStatements(forEntries count: Int) async throws -> (statements: [UInt64], backend: String) {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let storage = "tenant t1"
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func entry(_ index: Int, status: Int = 200) -> CacheEntryRecord {
            CacheEntryRecord(
                storage: storage, sessionId: nil, url: "https://o.example/\(index)", responseURL: "https://o.example/\(index)",
                statusCode: status, headers: "content-type: text/plain", varyValues: "", requestTime: now, responseTime: now,
                storedAt: now, userInfo: nil, bodyFile: nil, bodySize: 3, lastAccessAt: now)
        }
        var statements: [UInt64] = []
        var stored = CacheEntryChanges(storage: storage)
        stored.upserts = (0..<count).map { entry($0, status: 203) } + (0..<count).map { entry($0) }  // the last of a URL wins
        for index in 0..<count { stored.bodies[entry(index).url] = [1, 2, UInt8(index % 256)] }
        var before = store.statementsExecuted
        try await store.urlCaches.writeCacheChanges([stored])
        statements.append(store.statementsExecuted - before)

        var changed = CacheEntryChanges(storage: storage)
        changed.deletions = (1..<count).map { entry($0).url }
        changed.upserts = [entry(1)]
        changed.bodies[entry(1).url] = [9]
        before = store.statementsExecuted
        try await store.urlCaches.writeCacheChanges([changed])
        statements.append(store.statementsExecuted - before)

        let entries = try await store.urlCaches.cacheEntries(inStorage: storage)
        #expect(entries.map(\.url).sorted() == [entry(0).url, entry(1).url] && entries.allSatisfy { $0.statusCode == 200 })
        #expect(try await store.urlCaches.cacheBody(inStorage: storage, url: entry(0).url) == [1, 2, 0])
        #expect(try await store.urlCaches.cacheBody(inStorage: storage, url: entry(1).url) == [9], "deleted, then stored again")
        #expect(try await store.urlCaches.cacheBody(inStorage: storage, url: entry(2).url) == nil, "a deleted entry's body goes")
        return (statements, store.backendName)
    }

    @Test func aBatchOfCacheChangesCostsTheSameStatementsForTenEntriesAsForAHundred() async throws {
        let (ten, backend) = try await cacheStatements(forEntries: 10)
        let (hundred, _) = try await cacheStatements(forEntries: 100)
        if backend == "postgresql" {
            #expect(hundred.allSatisfy { $0 <= 5 }, "100 entries: \(hundred) statements")
            #expect(ten == hundred, "\(ten) statements for 10 entries, \(hundred) for 100")
        } else {
            // SQLite's sets go in chunks of 64, 16, 4 or 1 rows.
            #expect(hundred.allSatisfy { $0 <= 15 }, "100 entries: \(hundred) statements")
        }
    }

    /// Replaces the cookies of two storages (`count` each, all fields set) and empties a third that held
    /// some; returns the statements it took, after reading every storage back.
    private func cookieStatements(forCookies count: Int) async throws -> (statements: UInt64, backend: String) {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func cookie(_ storage: String, _ index: Int) -> CookieRecord {
            CookieRecord(
                storage: storage, sessionId: nil, name: "c\(index)", domain: "h.example", path: "/p\(index % 3)", value: "v\(index)",
                isHostOnly: index % 2 == 0, expiresAt: now + 3_600, isSecure: true, isHTTPOnly: index % 3 == 0,
                sameSite: index % 2 == 0 ? "Lax" : nil, createdAt: now + Double(index) / 1_000, lastAccessAt: now)
        }
        try await store.cookies.replaceCookies(["tenant a": [cookie("tenant a", 99)], "tenant c": [cookie("tenant c", 1)]])
        let before = store.statementsExecuted
        try await store.cookies.replaceCookies([
            "tenant a": (0..<count).map { cookie("tenant a", $0) }, "tenant b": (0..<count).map { cookie("tenant b", $0) },
            "tenant c": [],
        ])
        let statements = store.statementsExecuted - before
        // Every field as written (times to the millisecond, as the rows keep them).
        func fields(_ cookie: CookieRecord) -> String {
            let ms = (cookie.createdAt.timeIntervalSince1970 * 1_000).rounded()
            return "\(cookie.name) \(cookie.path) \(cookie.value) \(cookie.isHostOnly) \(cookie.isHTTPOnly) \(cookie.sameSite ?? "-") \(ms)"
        }
        for storage in ["tenant a", "tenant b"] {
            let read = try await store.cookies.cookies(inStorage: storage, now: now).map(fields).sorted()
            let written = (0..<count).map { fields(cookie(storage, $0)) }.sorted()
            #expect(read == written, "\(storage): \(read.count) cookies read, \(written.count) written; first \(read.first ?? "none")")
        }
        #expect(try await store.cookies.cookies(inStorage: "tenant c", now: now).isEmpty)
        return (statements, store.backendName)
    }

    @Test func aBatchOfCookieStoragesCostsTheSameStatementsForTenCookiesAsForAHundred() async throws {
        let (ten, backend) = try await cookieStatements(forCookies: 10)
        let (hundred, _) = try await cookieStatements(forCookies: 100)
        if backend == "postgresql" {
            #expect(hundred <= 4 && ten == hundred, "\(ten) statements for 10 cookies a storage, \(hundred) for 100")
        } else {
            #expect(hundred <= 3 + 7, "\(ten) statements for 10 cookies a storage, \(hundred) for 100")  // 200 rows: 3×64 + 2×4
        }
    }
}
