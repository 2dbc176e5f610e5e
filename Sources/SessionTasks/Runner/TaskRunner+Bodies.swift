import Foundation
import TransferEngine
import TransferModels
import TransferStore

// The bodies of running data and upload tasks, for readers that follow them while they arrive
// (`GET /v1/tasks/{id}/data`) — the engine's own storage, never a copy.
extension TaskRunner {
    /// The engine's report (loop thread): the attempt's final response began and its body with it.
    func transfer(_ transfer: TransferID, didBeginBody body: GrowingBody) {
        let current = table.withLock { state -> Bool in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return false }
            state.entries[transfer.taskId]?.attempt?.body = body
            return true
        }
        if current { waiters.bodies.completed(transfer.taskId) }
    }

    /// The body the task's current attempt is receiving; nil before its final response (or when it has
    /// no attempt in the engine: suspended, waiting, completed).
    func receivingBody(of taskId: String) -> GrowingBody? {
        table.withLock { $0.entries[taskId]?.attempt?.body }
    }

    /// Returns when the task's body begins, when a completion of it is written, at shutdown, or after
    /// `timeout`, whichever comes first (the caller looks again at what changed).
    func waitForBody(of taskId: String, tenant: String, timeout: Duration) async throws {
        try await waiters.bodies.wait(for: taskId, timeout: timeout) { [store] in
            guard self.receivingBody(of: taskId) == nil else { return true }
            let state = try await store.tasks.task(id: taskId, tenant: tenant)?.state
            return state == nil || state == .completed || state == .suspended
        }
    }
}
