import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
    /// After a restart, tasks the store still shows as running are settled (`recover`). (With several
    /// nodes, each picks up only its own: `ClusterNode.pickUpOwnTasks`.)
    func recoverUnfinishedTasks() async {
        do {
            for task in try await store.tasks.unfinishedTasks() { await recover(task) }
        } catch {
            logger.error("Recovering tasks after a restart failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// A task whose transfer stopped with the process that ran it: background sessions' transfers start
    /// again, the others complete with `networkConnectionLost` as URLSession reports a lost connection;
    /// canceling ones complete as cancelled. Suspended tasks stay suspended.
    func recover(_ task: TaskRecord) async {
        guard task.state != .suspended else { return }
        do {
            let url = task.currentRequest?.url ?? task.originalRequest?.url
            if task.state == .canceling {
                _ = try await complete(task.id, error: .cancelled(failingURL: url))
                return
            }
            guard let session = try await store.sessions.session(id: task.sessionId, tenant: task.tenant) else { return }
            if session.kind == .background {
                try await restart(task, session: session)
            } else {
                // As URLSession reports a lost connection, with resume data when the download can continue.
                var error = TransferError(.networkConnectionLost, failingURL: url, userInfo: ["reason": "serviceRestarted"])
                var kept: String?
                if let path = task.partialPath,
                    let token = completer.resumeData(
                        of: task, partialPath: path, response: task.response,
                        request: task.currentRequest ?? task.originalRequest ?? store.resumedRequest(of: task))
                {
                    error.userInfo[TaskService.resumeDataKey] = token
                    kept = path
                }
                _ = try await complete(task.id, error: error, partialPath: kept)
            }
        } catch {
            logger.error("Recovering a task failed", metadata: ["task.id": "\(task.id)", "error": "\(String(reflecting: error))"])
        }
    }

    /// A background task goes on where it was: its download continues from its partial file.
    private func restart(_ task: TaskRecord, session: SessionRecord) async throws {
        try await control(task, .start(beginsLater: task.beginsLater, continuing: true), isCurrent: true)
    }

    /// Where a download left off: its partial file's size, and the validator the origin must still have
    /// for those bytes (a strong ETag, else Last-Modified); for one fetched in parts, its journal (each
    /// part continues by `Range`). Nil when it must start again.
    static func resumePoint(of task: TaskRecord) -> (path: String, offset: Int64, validator: String, segments: SegmentedResume?)? {
        guard task.kind == .download, let path = task.partialPath else { return nil }
        let segmented = TaskFiles.segmentedResume(ofPartial: path)
        if segmented.isSegmented { return segmented.resume.map { (path, 0, $0.validator, $0) } }
        guard let response = task.response else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
        guard let validator = response.rangeValidator else { return nil }
        return (path, Int64(info.st_size), validator, nil)
    }
}
