import Foundation
import Logging
import TransferModels
import TransferStore

/// Each task's start and end at `info`, with the ids an operator searches by: what a log shows of the
/// transfers without `debug`. URLs are not logged (their queries may carry credentials); the host is.
extension TaskRunner {
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

    private static func host(of url: String?) -> String {
        guard let url, let host = URLComponents(string: url)?.host else { return "-" }
        return host
    }
}
