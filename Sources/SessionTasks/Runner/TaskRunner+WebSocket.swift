import Foundation
import TransferEngine
import TransferModels
import TransferStore

// webSocket tasks (`URLSessionWebSocketTask`): the engine's reports of an open connection and its
// messages. What the API does with a task's channel is `TaskConnections`'.
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
}
