public import Foundation
public import TransferModels
public import TransferStore

/// The reads of tasks the API answers from (`GET /v1/tasks/{id}`, the lists, kept bodies), and whether
/// resume data opens: thin over the store, which does the work, so that the control plane never reaches it.
public struct TaskQueries: Sendable {
    let store: TransferStore

    public init(store: TransferStore) { self.store = store }

    /// The tenant's task; nil when it has none of this id.
    public func task(id: String, tenant: String) async throws -> TaskRecord? {
        try await store.tasks.task(id: id, tenant: tenant)
    }

    /// The task as held in memory, without waiting for the store; nil on a miss.
    public func cachedTask(id: String, tenant: String) -> TaskRecord? {
        store.tasks.cachedTask(id: id, tenant: tenant)
    }

    /// Moves whenever a task changes: what a page of tasks encoded under it stays valid for.
    public var taskChangeCount: UInt64 { store.tasks.taskChangeCount }

    /// The body a completed task keeps in the store (a data task's, a small download's), if any.
    public func keptBody(ofTask id: String) async throws -> Data? {
        try await store.tasks.keptBody(taskId: id)
    }

    /// Whether `token` is resume data this service gave `tenant` (a download may be created from it).
    public func opensResumeData(_ token: String, tenant: String) -> Bool {
        store.resumeData(from: token, tenant: tenant) != nil
    }
}
