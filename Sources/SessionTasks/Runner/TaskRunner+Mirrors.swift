import TransferEngine
import TransferModels

// The engine's reports about a download's mirrors, as events of the task's current attempt.
extension TaskRunner {
    /// `task.didDropMirror`.
    public func transfer(_ transfer: TransferID, didDropMirror url: String, reason: String) {
        record(transfer) { .didDropMirror($0, url: url, reason: reason) }
    }

    /// `task.didRejectPiece`.
    public func transfer(_ transfer: TransferID, didRejectPiece index: Int, mirror: String) {
        record(transfer) { .didRejectPiece($0, index: index, mirror: mirror) }
    }

    private func record(_ transfer: TransferID, _ make: (TaskSummary) -> DelegateEvent) {
        table.withLock { state in
            guard let task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            let event = task.event(make)
            writer.queue { $0.events.append(event) }
        }
    }
}

extension TaskRunner {
    /// A `metalink.url` document was read: its whole-file hash is what the file is checked against at
    /// the end, unless the task gave an `expectedDigest` of its own (which then wins).
    public func transfer(_ transfer: TransferID, didReadMetalink contents: MetalinkContents) {
        table.withLock { state in
            guard var task = state.entries[transfer.taskId]?.attempt, task.number == transfer.attempt else { return }
            if task.record.expectedDigest == nil { task.record.expectedDigest = contents.digest }
            state.entries[transfer.taskId]?.attempt = task
        }
    }
}
