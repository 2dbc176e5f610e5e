import Foundation
import TransferEngine
import TransferModels
import TransferStore

// webSocket tasks (`URLSessionWebSocketTask`): the engine's reports of an open connection and its
// messages, and what the API does with a task's channel (send, receive, ping, cancel with a close code).
extension TaskRunner {
    /// The engine's report (loop thread): the upgrade was accepted.
    func transfer(_ transfer: TransferID, didOpenWebSocket channel: WebSocketChannel, protocol chosen: String?) {
        table.withLock { state in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            channels.webSockets.register(channel, of: transfer.taskId)
            writer.queue { $0.events.append(task.event { .webSocketDidOpen($0, protocol: chosen) }) }
        }
    }

    /// The engine's report (loop thread): a message arrived. A delegate with `deliverData` hears of it
    /// (`webSocketTask.didReceiveMessage`, beyond URLSession), with the message when it fits its
    /// `deliverDataMaxBytes`.
    func transfer(_ transfer: TransferID, didReceiveWebSocketMessage message: WebSocketMessageObject) {
        table.withLock { state in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt,
                let limit = task.dataToDeliver
            else { return }
            let carried = message.length <= limit ? message : nil
            let event = task.event {
                .webSocketDidReceiveMessage($0, sequence: message.sequence, length: message.length, message: carried)
            }
            writer.queue { $0.events.append(event) }
        }
    }

    /// The channel of a tenant's webSocket task: nil before its connection opened (suspended, connecting)
    /// and once forgotten after it ended.
    /// - Throws: `TaskStoreError.taskNotFound` for another tenant's task, or one that is not a webSocket task.
    func webSocketChannel(of taskId: String, tenant: String) async throws -> (TaskRecord, WebSocketChannel?) {
        let task = try await requireTask(taskId, tenant: tenant)
        guard task.kind == .webSocket else { throw TaskStoreError.taskNotFound }
        return (task, channels.webSockets.channel(of: taskId))
    }

    /// The channel, waiting up to `wait` (looked for every 50 ms, while `proceeding()`) when the task is
    /// running and its connection is still being made: URLSession queues a send, a ping or a receive made
    /// between `resume()` and the open, rather than failing it.
    func webSocketChannel(
        of taskId: String, tenant: String, waiting wait: Duration, while proceeding: () -> Bool = { true }
    ) async throws -> (TaskRecord, WebSocketChannel?) {
        var (task, channel) = try await webSocketChannel(of: taskId, tenant: tenant)
        let deadline = ContinuousClock.now + wait
        while channel == nil, task.state == .running, proceeding(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            (task, channel) = try await webSocketChannel(of: taskId, tenant: tenant)
        }
        return (task, channel)
    }

    /// `cancel(with:reason:)`: the close handshake with `closeCode` and `reason`; the peer's close frame
    /// completes the task without an error (a task not connected yet completes cancelled, as `cancel()`).
    func cancelWebSocket(taskId: String, tenant: String, closeCode: Int, reason: String) async throws -> TaskRecord {
        let task = try await requireTask(taskId, tenant: tenant)
        guard task.kind == .webSocket, let attempt = table.withLock({ $0.entries[taskId]?.lifecycle.transferringAttempt }) else {
            return try await control(task, .cancel(producingResumeData: false))
        }
        // Before the lifecycle's stop, through the same inbox: the loop then ignores the stop.
        engine.closeWebSocket(TransferID(taskId: taskId, attempt: attempt), code: closeCode, reason: reason)
        do {
            return try await control(task, .cancel(producingResumeData: false))
        } catch let error as TaskStoreError where error == .invalidStateTransition {
            // The peer answered the close before the lifecycle heard of the cancel: the task completed, as asked.
            return try await waitForCompletion(of: taskId, tenant: tenant, timeout: .seconds(5))
        }
    }
}
