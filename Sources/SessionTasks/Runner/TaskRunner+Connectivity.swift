import Foundation
import Logging
import NetworkPaths
import TransferEngine
import TransferModels
import TransferStore

// Network paths as URLSession meets them: a task leaves by the most preferred available path its flags
// allow; with none, it waits (`waitsForConnectivity`, always for background sessions) or fails at once
// with -1009; a path that goes down ends its transfers (-1005), and the tasks that ride outages continue
// on another path.
//
// `networksChanged` is the monitor's handler (set by the composition root, `URLSessionService`).

/// No available network path allows the request; `reason` is `NSURLErrorNetworkUnavailableReasonKey`'s.
struct NoUsablePath: Error {
    var reason: String?
}

/// Tasks waiting for a usable path (with the timer that starts them again), and each path's
/// availability as last seen (to tell which went down).
struct ConnectivityWaits: Sendable {
    let waiting = LockedBox<[String: Int]>([:])
    let availability = LockedBox<[String: Bool]>([:])
}

extension TaskRunner {
    static let networkUnavailableReasonKey = "NSURLErrorNetworkUnavailableReasonKey"

    /// What an attempt without a usable path becomes: a wait, or -1009 (with the reason a path was refused).
    func attemptWithoutPath(
        _ number: Int, of task: TaskRecord, session: SessionRecord, _ noPath: NoUsablePath
    ) throws(TransferError) -> TaskLifecycle.Input {
        let url = task.currentRequest?.url ?? task.originalRequest?.url
        guard session.configuration.waitsForConnectivity else {
            throw TransferError(
                .notConnectedToInternet, failingURL: url, userInfo: noPath.reason.map { [Self.networkUnavailableReasonKey: $0] } ?? [:])
        }
        guard resourceTimeLeft(of: task, session: session) > 0 else {
            throw TransferError(.timedOut, failingURL: url, userInfo: ["reason": "timeoutIntervalForResource"])
        }
        return .waitForConnectivity(attempt: number)
    }

    /// Seconds left of the task's `timeoutIntervalForResource`, counted from its first start.
    func resourceTimeLeft(of task: TaskRecord, session: SessionRecord) -> Double {
        (task.startedAt ?? task.createdAt).addingTimeInterval(session.configuration.timeoutIntervalForResource).timeIntervalSinceNow
    }

    /// A task begins waiting: announced once, woken by the next change of the paths or at its resource
    /// deadline (whichever comes first moves its lifecycle on; the other finds a stale timer).
    func awaitConnectivity(_ record: TaskRecord, timer: Int, announce: Bool) async {
        if announce {
            let summary = TaskSummary(
                id: record.id, taskIdentifier: record.taskIdentifier, kind: record.kind, state: .running,
                taskDescription: record.taskDescription)
            writer.append([PendingEvent(sessionId: record.sessionId, taskId: record.id, event: .taskIsWaitingForConnectivity(summary))])
            logger.info("A task waits for connectivity", metadata: ["task.id": "\(record.id)"])
        }
        connectivity.waiting.withLock { $0[record.id] = timer }
        // A path that came up between the choice and now woke nobody: look once more.
        if let request = record.currentRequest ?? record.originalRequest, (try? jobs.networkPath(for: request)) != nil {
            connectivity.waiting.withLock { _ = $0.removeValue(forKey: record.id) }
            return schedule(timer, of: record.id, after: 0)
        }
        if let session = try? await store.sessions.session(id: record.sessionId, tenant: record.tenant) {
            schedule(timer, of: record.id, after: max(0, resourceTimeLeft(of: record, session: session)))
        }
    }

    /// The paths changed: transfers on a path that went down end (-1005) and, when some path is
    /// available, every waiting task looks for a path again.
    func networksChanged(_ states: [NetworkPathState]) {
        let lost = connectivity.availability.withLock { known -> [String] in
            defer { known = Dictionary(uniqueKeysWithValues: states.map { ($0.path.name, $0.isAvailable) }) }
            return states.filter { !$0.isAvailable && known[$0.path.name] != false }.map(\.path.name)
        }
        for name in lost { engine.pathLost(name) }
        guard states.contains(where: \.isAvailable) else { return }
        let waiting = connectivity.waiting.withLock { waiters in
            defer { waiters.removeAll() }
            return waiters
        }
        for (taskId, timer) in waiting { schedule(timer, of: taskId, after: 0) }
    }
}
