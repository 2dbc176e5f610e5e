import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
    /// Network failures a background session rides out, as nsurlsessiond does: the transfer is tried
    /// again, not failed. Server answers are responses, never retried.
    static let retriedErrors: Set<Int> = [
        URLErrorCode.timedOut.rawValue, URLErrorCode.cannotFindHost.rawValue, URLErrorCode.cannotConnectToHost.rawValue,
        URLErrorCode.networkConnectionLost.rawValue, URLErrorCode.notConnectedToInternet.rawValue,
        URLErrorCode.dnsLookupFailed.rawValue, URLErrorCode.secureConnectionFailed.rawValue,
    ]

    /// Whether the failed attempt of a background task is tried again (after a capped, jittered backoff)
    /// instead of completing it: a network error, and time left in `timeoutIntervalForResource`. A
    /// download continues from what it has (`Range`), like after a restart.
    func retryLater(_ active: ActiveTask, after outcome: TransferOutcome) -> Bool {
        let task = active.record
        guard active.configuration.kind == .background, let failure = outcome.error, Self.retriedErrors.contains(failure.code),
            failure.reason != "egressPolicy", !stopping.withLock({ $0 })
        else { return false }
        let attempt = retryAttempts.withLock { attempts -> Int in
            attempts[task.id, default: 0] += 1
            return attempts[task.id]!
        }
        let delay = min(30, 0.25 * pow(2, Double(min(attempt, 10)))) * Double.random(in: 0.8...1.2)
        let deadline = (task.startedAt ?? task.createdAt).addingTimeInterval(active.configuration.timeoutIntervalForResource)
        guard Date().addingTimeInterval(delay) < deadline else {
            retryAttempts.withLock { _ = $0.removeValue(forKey: task.id) }
            return false
        }
        logger.info("A background transfer failed; trying again", metadata: [
            "task.id": "\(task.id)", "error": "\(failure.code)", "attempt": "\(attempt)", "delay": "\(delay)",
        ])
        scheduled.withLock { _ = $0.insert(task.id) }
        Task { await self.retry(task.id, after: delay) }
        return true
    }

    private func retry(_ id: String, after seconds: Double) async {
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
        // Cancelled meanwhile (`cancel` took it out), suspended, or the service is stopping: nothing to do.
        guard scheduled.withLock({ $0.remove(id) }) != nil, !stopping.withLock({ $0 }) else { return }
        do {
            guard let task = try await store.task(id: id), task.state == .running,
                let session = try await store.session(id: task.sessionId, tenant: task.tenant)
            else { return }
            try await launch(task, session: session, continuing: true)
        } catch {
            logger.error("Trying a transfer again failed", metadata: ["task.id": "\(id)", "error": "\(String(reflecting: error))"])
        }
    }
}
