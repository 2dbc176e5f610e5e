import Foundation
import Logging
import TransferModels
import TransferStore

/// Each task's start and end at `info`, with the ids an operator searches by: what a log shows of the
/// transfers without `debug`. URLs are not logged (their queries may carry credentials); the host is.
extension TaskService {
    func logStarted(_ active: ActiveTask) {
        let task = active.record
        logger.info(
            "Task started",
            metadata: [
                "tenant": "\(task.tenant)", "session.id": "\(task.sessionId)", "task.id": "\(task.id)",
                "task.kind": "\(task.kind.rawValue)",
                "attempt": "\(active.number)", "host": "\(Self.host(of: task.currentRequest?.url ?? task.originalRequest?.url))",
            ])
    }

    /// `started`: when the attempt that ended began (nil: the task never reached the engine).
    func logCompleted(_ task: TaskRecord, _ completion: TaskCompletion, started: Date?) {
        guard logger.logLevel <= .info else { return }  // the metadata costs ~1 % of a small task's CPU
        var metadata: Logger.Metadata = [
            "tenant": "\(task.tenant)", "session.id": "\(task.sessionId)", "task.id": "\(task.id)", "task.kind": "\(task.kind.rawValue)",
        ]
        metadata["outcome"] = "\(TransferError.outcome(of: completion.error))"
        if let error = completion.error {
            metadata["error.code"] = "\(error.code)"
            metadata["error.name"] = "\(error.name)"
        }
        if let status = completion.response?.statusCode { metadata["http.status"] = "\(status)" }
        if let counts = completion.counts {
            metadata["bytes.received"] = "\(counts.received)"
            metadata["bytes.sent"] = "\(counts.sent)"
        }
        if let started { metadata["seconds"] = "\(String(format: "%.3f", Date().timeIntervalSince(started)))" }
        logger.info("Task completed", metadata: metadata)
    }

    private static func host(of url: String?) -> String {
        guard let url, let host = URLComponents(string: url)?.host else { return "-" }
        return host
    }
}
