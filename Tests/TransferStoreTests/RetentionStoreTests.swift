import Foundation
import JSONCodec
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// Retention deletes what a task and a session leave, child rows before their parents, on either backend
/// (`URLSESSIOND_TEST_STORE`): PostgreSQL has no cascade from a task to its kept body, nor from a session
/// to its tasks and events (`v24-unchecked-hot-references`), so nothing may rely on one.
@Suite("Retention in the store")
struct RetentionStoreTests {
    private func completedTask(_ store: TransferStore, in session: SessionRecord, body: [UInt8]) async throws -> TaskRecord {
        let task = try await store.tasks.createTask(tenant: "t1", sessionId: session.id, request: try dataTaskRequest())
        var completion = TaskCompletion(id: task.id, error: nil, body: body, fileExpiresAt: .distantFuture)
        completion.completedAt = Date(timeIntervalSinceNow: -60)
        _ = try await store.tasks.completeTask(completion)
        return task
    }

    private func count(_ store: TransferStore, _ table: String, _ column: String, _ id: String) async throws -> Int64 {
        try await store.database.read { db in
            try db.value("SELECT count(*) FROM \(table) WHERE \(column) = ?", id, as: Int64.self) ?? -1
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPrunedTaskTakesItsEventsAndBodyAndAnEmptiedSessionGoes() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let first = try await store.makeSession()
        let old = try await completedTask(store, in: first, body: Array("kept".utf8))
        #expect(try await store.tasks.keptBody(taskId: old.id) == Data("kept".utf8))
        #expect(try await count(store, "event", "taskId", old.id) >= 2)

        // Small limits: the pass goes in pieces, events before their task.
        var passes = 0
        while passes < 20, !(try await store.maintenance.pruneFinishedTasks(completedBefore: Date(), limit: 2).isLast) { passes += 1 }
        #expect(try await store.tasks.task(id: old.id) == nil)
        #expect(try await store.tasks.keptBody(taskId: old.id) == nil)
        #expect(try await count(store, "taskBody", "taskId", old.id) == 0)
        #expect(try await count(store, "event", "taskId", old.id) == 0)

        // An invalidated session: its task, the task's body, the session's own events, then its row.
        let second = try await store.makeSession()
        let last = try await completedTask(store, in: second, body: Array("also".utf8))
        _ = try await store.sessions.beginInvalidation(id: second.id, tenant: "t1")
        passes = 0
        while passes < 40,
            !(try await store.maintenance.pruneInvalidatedSessions(invalidatedBefore: Date(timeIntervalSinceNow: 1), limit: 2).isLast)
        {
            passes += 1
        }
        #expect(try await store.sessions.session(id: second.id, tenant: "t1") == nil)
        #expect(try await count(store, "task", "sessionId", second.id) == 0)
        #expect(try await count(store, "event", "sessionId", second.id) == 0)
        #expect(try await count(store, "taskBody", "taskId", last.id) == 0)
        // The other session stays.
        #expect(try await store.sessions.session(id: first.id, tenant: "t1") != nil)
    }
}
