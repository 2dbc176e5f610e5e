import Foundation
import TransferEngine
import TransferModels
import TransferStore

/// What the engine reported that the store has not written yet. The engine's loop thread adds to it
/// (cheap, under a lock); the report writer takes it all at once and writes it in one transaction.
struct PendingReports {
    var progress: [String: TaskByteCounts] = [:]
    var responses: [String: ResponseReport] = [:]
    /// Delegate events of running tasks, in the order they happened.
    var events: [PendingEvent] = []
    /// Partial files of downloads that started, to checkpoint.
    var partialFiles: [String: String] = [:]
    var completions: [TaskCompletion] = []

    var isEmpty: Bool {
        progress.isEmpty && responses.isEmpty && events.isEmpty && partialFiles.isEmpty && completions.isEmpty
    }

    /// A later head replaces an earlier one; the request a redirect made current stays until the next.
    mutating func record(_ report: ResponseReport, for id: String) {
        var report = report
        if report.currentRequest == nil { report.currentRequest = responses[id]?.currentRequest }
        responses[id] = report
    }

    /// The completion carries the final values: the task's pending counters and head go with it.
    mutating func complete(_ completion: TaskCompletion) {
        var completion = completion
        progress[completion.id] = nil
        partialFiles[completion.id] = nil
        if let pending = responses.removeValue(forKey: completion.id) {
            completion.response = completion.response ?? pending.response
            completion.currentRequest = completion.currentRequest ?? pending.currentRequest
        }
        completions.append(completion)
    }

    /// A batch that could not be written (a full disk) goes back in front of what was queued since, to
    /// be written with it next time: later counters, heads and completions still win.
    mutating func putBack(_ unwritten: PendingReports) {
        var merged = unwritten
        merged.progress.merge(progress) { $1 }
        for (id, report) in responses { merged.record(report, for: id) }
        merged.events += events
        merged.partialFiles.merge(partialFiles) { $1 }
        for completion in completions { merged.complete(completion) }
        self = merged
    }
}
