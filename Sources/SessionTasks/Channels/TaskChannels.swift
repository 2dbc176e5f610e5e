import TransferEngine
import TransferModels

/// The channels of connection tasks (webSocket tasks' `WebSocketChannel`s, stream tasks' `StreamChannel`s), by
/// task id: those open, and the last `retainedLimit` ended ones, whose received bytes or messages stay readable
/// after the task completed (until evicted, or the service restarts: they are held in memory only).
final class TaskChannels<Channel: Sendable>: Sendable {
    static var retainedLimit: Int { 256 }

    private struct State {
        var channels: [String: Channel] = [:]
        /// Ended tasks' ids, oldest first.
        var ended: [String] = []
    }

    private let state = LockedBox(State())

    func register(_ channel: Channel, of taskId: String) {
        state.withLock { $0.channels[taskId] = channel }
    }

    func channel(of taskId: String) -> Channel? {
        state.withLock { $0.channels[taskId] }
    }

    /// The task's connection ended: its channel is kept among the last ended ones.
    func ended(_ taskId: String) {
        state.withLock { state in
            guard state.channels[taskId] != nil, !state.ended.contains(taskId) else { return }
            state.ended.append(taskId)
            if state.ended.count > Self.retainedLimit { state.channels[state.ended.removeFirst()] = nil }
        }
    }
}

/// The channels of a node's connection tasks, webSocket and stream, as one value.
struct ConnectionChannels: Sendable {
    let webSockets = TaskChannels<WebSocketChannel>()
    let streams = TaskChannels<StreamChannel>()
}
