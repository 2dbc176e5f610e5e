import Foundation
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
    /// The tasks this node has in hand: running, waiting for a slot, or between attempts.
    var activeTaskCount: Int {
        table.withLock { state in state.entries.values.count { !$0.lifecycle.isSettled } }
    }

    /// The tenant's task, when it can take `action` now (wherever it runs). Refused: a `resume()` that
    /// would start a transfer while the tenant's stored bytes are at their limit (`QuotaExceeded`), a
    /// `suspend()` of a running connection; `TaskStoreError.taskNotFound` for another tenant's task.
    func admittedTask(for action: ForwardedControl.Action, taskId: String, tenant: String) async throws -> TaskRecord {
        let record = try await requireTask(taskId, tenant: tenant)
        switch action {
        case .resume:
            if record.state == .suspended && record.suspendCount <= 1 { try await store.usage.checkStorageRoom(tenant: record.tenant) }
        case .suspend:
            // A WebSocket's or a stream's connection cannot be paused and picked up again: suspending it would drop it.
            if record.kind == .webSocket || record.kind == .stream, record.state == .running { throw TaskStoreError.invalidStateTransition }
        case .cancel, .cancelProducingResumeData, .applyRateLimit:
            break
        }
        return record
    }

    /// Carries out an admitted control call on this node.
    func perform(_ action: ForwardedControl.Action, on task: TaskRecord) async throws -> TaskRecord {
        switch action {
        case .resume: return try await control(task, .resume(beginsLater: task.beginsLater))
        case .suspend: return try await control(task, .suspend)
        case .cancel: return try await control(task, .cancel(producingResumeData: false))
        case .cancelProducingResumeData: return try await control(task, .cancel(producingResumeData: true))
        case .applyRateLimit:
            // The limit is stored already; only the node running an attempt has a transfer to hand it to.
            guard applyRateLimit(task) != nil else { throw TaskOwnedElsewhere(node: task.node ?? "") }
            return task
        }
    }

    /// The tenant's task, or `TaskStoreError.taskNotFound`.
    func requireTask(_ id: String, tenant: String) async throws -> TaskRecord {
        guard let task = try await store.tasks.task(id: id, tenant: tenant) else { throw TaskStoreError.taskNotFound }
        return task
    }

    /// Waits until the task completes, at most `timeout` (the API's `?wait=`).
    func waitForCompletion(of taskId: String, tenant: String, timeout: Duration) async throws -> TaskRecord {
        try await waiters.completions.wait(for: taskId, timeout: timeout) { [store] in
            try await store.tasks.task(id: taskId, tenant: tenant)?.state == .completed
        }
        return try await requireTask(taskId, tenant: tenant)
    }
}
