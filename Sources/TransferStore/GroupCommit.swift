import Foundation
import TransferModels

/// Group commit: writes that arrive while a batch is being written wait, and go together in the next
/// batch — one transaction for all of them. Under load the batches grow by themselves; alone, a write
/// goes at once.
final class GroupCommit<Item: Sendable, Output: Sendable>: Sendable {
    typealias Write = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    /// One submitter's items, answered together once their batch is written.
    private struct Waiting {
        var items: [Item]
        var continuation: CheckedContinuation<[Result<Output, any Error>], Never>
    }

    private let state = LockedBox<(queue: [Waiting], draining: Bool)>(([], false))

    /// Queues `item` and returns its own result. `write` gets a batch and answers one result per item, in
    /// order; when it throws, every item of the batch fails with that error.
    func submit(_ item: Item, write: @escaping Write) async throws -> Output {
        try await submit([item], write: write)[0].get()
    }

    /// Queues `items` under one lock, so they all go in the same batch (one transaction, in this order),
    /// and returns their results in order.
    func submit(_ items: [Item], write: @escaping Write) async -> [Result<Output, any Error>] {
        guard !items.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let waiting = Waiting(items: items, continuation: continuation)
            // The first write while none is under way goes at once, as its own first batch.
            let startsDraining = state.withLock { state -> Bool in
                guard !state.draining else {
                    state.queue.append(waiting)
                    return false
                }
                state.draining = true
                return true
            }
            if startsDraining { Task { await self.drain(first: waiting, write) } }
        }
    }

    /// Writes `first`, then whatever queued meanwhile, batch after batch, until nothing waits.
    private func drain(first: Waiting, _ write: Write) async {
        var batch = [first]
        while !batch.isEmpty {
            await commit(batch, write)
            batch = state.withLock { state -> [Waiting] in
                let batch = state.queue
                state.queue.removeAll()
                if batch.isEmpty { state.draining = false }
                return batch
            }
        }
    }

    /// One transaction for the batch; each submitter gets its items' results, in order.
    private func commit(_ batch: [Waiting], _ write: Write) async {
        let items = batch.flatMap(\.items)
        var results: ArraySlice<Result<Output, any Error>>
        do {
            results = try await write(items)[...]
            precondition(results.count == items.count, "a group commit's write answers one result per item")
        } catch {
            results = ArraySlice(repeating: .failure(error), count: items.count)
        }
        for waiting in batch {
            waiting.continuation.resume(returning: Array(results.prefix(waiting.items.count)))
            results = results.dropFirst(waiting.items.count)
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
    /// The node that runs a task created resumed (several nodes on PostgreSQL); nil leaves it to be claimed.
    var node: String?
}
