import Foundation
import TransferEngine
import TransferModels
import TransferStore

// stream tasks (`URLSessionStreamTask`): the engine's reports of a connection's channel and of its sides'
// ends (`streamTask.readClosed`, `streamTask.writeClosed`); the API reads and writes through `TaskConnections`.
extension TaskRunner {
    /// The engine's report (loop thread): the connection is being opened; reads and writes go through `channel`.
    func transfer(_ transfer: TransferID, didOpenStream channel: StreamChannel) {
        table.withLock { state in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            channels.streams.register(channel, of: transfer.taskId)
        }
    }

    /// The engine's report (loop thread): the peer's end was read, or `closeWrite` is done.
    func transfer(_ transfer: TransferID, streamDidEnd side: StreamSide) {
        table.withLock { state in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            let event = task.event { side == .read ? .streamReadClosed($0) : .streamWriteClosed($0) }
            writer.queue { $0.events.append(event) }
        }
    }

    /// What a stream task's job is made from: `http://host:port` (connect-only: nothing of HTTP is sent) with
    /// the session's `timeoutIntervalForRequest` (the connect's and the TLS handshake's bound) and its
    /// network-access flags; nil for the other kinds.
    static func streamRequest(of task: TaskRecord, _ configuration: SessionConfiguration) -> URLRequestSnapshot? {
        guard let stream = task.stream else { return nil }
        return URLRequestSnapshot(
            url: stream.connectURL, timeoutInterval: configuration.timeoutIntervalForRequest,
            allowsCellularAccess: configuration.allowsCellularAccess,
            allowsExpensiveNetworkAccess: configuration.allowsExpensiveNetworkAccess,
            allowsConstrainedNetworkAccess: configuration.allowsConstrainedNetworkAccess)
    }
}
