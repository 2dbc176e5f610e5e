import Foundation
import JSONCodec
import Logging
import TestSupport
import Testing
import TransferModels
import TransferStore

/// `createTasks`: a batch submission's creations, in one transaction and in order, each refused or
/// created alone.
@Suite("Batch task creation in the store")
struct TaskBatchStoreTests {
    private func task(_ json: String) throws -> ValidatedTaskRequest {
        try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: SessionConfiguration(kind: .default))
    }

    private func dataTask(_ index: Int) throws -> ValidatedTaskRequest {
        try dataTaskRequest("https://o.example/\(index)")
    }

    @Test func aBatchGetsConsecutiveIdentifiersAndEventsInOrder() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let session = try await store.makeSession()
        let results = try await store.tasks.createTasks(tenant: "t1", sessionId: session.id, requests: try (0..<50).map(dataTask))
        let created = try results.map { try $0.get() }
        #expect(created.map(\.taskIdentifier) == Array(1...50))
        #expect(created.map(\.originalRequest?.url) == (0..<50).map { "https://o.example/\($0)" })
        let events = try await store.events.events(sessionId: session.id, after: 0, limit: 100)
        #expect(events.map(\.sequence) == Array(1...50))
        #expect(events.map(\.taskId) == created.map(\.id))
        #expect(try await store.tasks.createTasks(tenant: "t1", sessionId: session.id, requests: []).isEmpty)
    }

    /// A member refused by a quota or a foreign blob leaves nothing of itself (no identifier, no event);
    /// the members around it are created.
    @Test func refusedMembersUndoOnlyThemselves() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        var limits = QuotaLimits.unlimited
        limits.tasks = 3
        let store = try await fixture.open(quotaLimits: limits)
        defer { try? store.close() }
        let session = try await store.makeSession()
        let foreignBlob =
            #"{"kind": "upload", "request": {"url": "https://o.example/u"}, "uploadSource": {"blob": "blb_0123456789ABCDEFGHIJKL"}}"#
        let requests = [try dataTask(0), try task(foreignBlob), try dataTask(2), try dataTask(3), try dataTask(4)]
        let results = try await store.tasks.createTasks(tenant: "t1", sessionId: session.id, requests: requests)
        #expect(results.count == 5)
        #expect((try? results[0].get())?.taskIdentifier == 1)
        #expect(Self.error(results[1]) as? TaskStoreError == .blobNotFound)
        #expect((try? results[2].get())?.taskIdentifier == 2)
        #expect((try? results[3].get())?.taskIdentifier == 3)
        #expect(Self.error(results[4]) as? QuotaExceeded == QuotaExceeded(quota: .tasks, limit: 3, usage: 3))
        #expect(try await store.tasks.tasks(sessionId: session.id, after: nil, limit: 10).count == 3)
        #expect(try await store.events.events(sessionId: session.id, after: 0, limit: 10).map(\.sequence) == [1, 2, 3])
    }

    @Test func anInvalidatingSessionRefusesEveryMember() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let session = try await store.makeSession()
        _ = try await store.sessions.beginInvalidation(id: session.id, tenant: "t1")
        let results = try await store.tasks.createTasks(tenant: "t1", sessionId: session.id, requests: try (0..<3).map(dataTask))
        #expect(results.map { Self.error($0) as? TaskStoreError } == Array(repeating: .sessionNotValid, count: 3))
        #expect(try await store.tasks.tasks(sessionId: session.id, after: nil, limit: 10).isEmpty)
    }

    private static func error(_ result: Result<TaskRecord, any Error>) -> (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
