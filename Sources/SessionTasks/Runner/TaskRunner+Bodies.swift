import Foundation
import TransferEngine
import TransferModels
import TransferStore

// The bodies of running data and upload tasks, for readers that follow them while they arrive
// (`GET /v1/tasks/{id}/data`, through `TaskConnections`) — the engine's own storage, never a copy.
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
}
