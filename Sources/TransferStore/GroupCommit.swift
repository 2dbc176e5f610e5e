import Foundation
import TransferModels

/// Group commit: writes that arrive while a batch is being written wait, and go together in the next
/// batch — one transaction for all of them. Under load the batches grow by themselves; alone, a write
/// goes at once.
final class GroupCommit<Item: Sendable, Output: Sendable>: Sendable {
    typealias Write = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    private struct Waiting {
        var item: Item
        var continuation: CheckedContinuation<Output, any Error>
    }

    private let state = LockedBox<(queue: [Waiting], draining: Bool)>(([], false))

    /// Queues `item` and returns its own result. `write` gets a batch and answers one result per item, in
    /// order; when it throws, every item of the batch fails with that error.
    func submit(_ item: Item, write: @escaping Write) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let startsDraining = state.withLock { state -> Bool in
                state.queue.append(Waiting(item: item, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startsDraining { Task { await self.drain(write) } }
        }
    }

    private func drain(_ write: Write) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = state.queue
                state.queue.removeAll()
                if batch.isEmpty { state.draining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let results = try await write(batch.map(\.item))
                for (waiting, result) in zip(batch, results) { waiting.continuation.resume(with: result) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}

/// One `createTask` waiting for its batch.
struct TaskCreation: Sendable {
    var tenant: String
    var sessionId: String
    var request: ValidatedTaskRequest
    /// `request.request` as stored: its credentials sealed (`RequestSecrets`), before the transaction.
    var sealedRequest: URLRequestSnapshot?
    var sealedSecret: Data?
    /// The store's limits, checked inside the creation's savepoint.
    var quotaLimits = QuotaLimits.unlimited
}
