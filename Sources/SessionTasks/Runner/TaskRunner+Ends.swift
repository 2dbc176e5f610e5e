import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

// Attempts that ended, settled in the order the engine reported them.
extension TaskRunner {
    /// Settles the attempts the engine reported ended, in order: a stopped attempt's file goes, a
    /// background task's network failure is tried again later, anything else completes the task (its
    /// body kept, its digest checked). A completion whose body must be hashed is prepared concurrently
    /// with others (up to `concurrentPreparations`), so one large digest does not hold small tasks back.
    func settleEndedAttempts() async {
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for await (transfer, outcome) in ended.stream {
                if CacheRevalidations.isRevalidation(transfer) {
                    group.addTask { await self.cache.finishRevalidation(transfer, outcome) }  // no task's: the cache's
                    continue
                }
                let effects = transition(transfer.taskId, from: nil) { state in
                    .attemptEnded(attempt: transfer.attempt, verdict: Self.endVerdict(of: transfer, outcome, in: &state))
                }
                files.removeFetchedBlob(of: transfer)  // the engine is done with it
                for path in effects.discardedFiles { unlink(path) }
                for action in effects.actions {
                    switch action {
                    case .scheduleRetry(let timer, let delay):
                        let seconds = Self.seconds(delay) * Double.random(in: 0.8...1.2)
                        logger.info(
                            "A background transfer failed; trying again",
                            metadata: [
                                "task.id": "\(transfer.taskId)", "error": "\(outcome.error?.code ?? 0)", "delay": "\(seconds)",
                            ])
                        schedule(timer, of: transfer.taskId, after: seconds)
                    case .complete(_, let resumeData):
                        guard let ended = effects.ended else { continue }
                        if cache.concernsCache(outcome, of: ended) {
                            // Unbounded: a delegate deciding `willCacheResponse` must not hold up other tasks' ends.
                            group.addTask { await self.cache.complete(outcome, of: ended, producingResumeData: resumeData) }
                            continue
                        }
                        guard ended.record.expectedDigest != nil || keepsFile(outcome) else {
                            // Nothing to wait for: the completion is made without suspending, in order.
                            writer.complete(await completer.completion(of: outcome, from: ended, producingResumeData: resumeData))
                            continue
                        }
                        guard ended.record.expectedDigest != nil else {
                            // Unbounded: its fsync waits on threads of its own, not on the concurrency pool.
                            group.addTask {
                                self.writer.complete(
                                    await self.completer.completion(of: outcome, from: ended, producingResumeData: resumeData))
                            }
                            continue
                        }
                        if inFlight >= Self.concurrentPreparations {
                            await group.next()
                            inFlight -= 1
                        }
                        inFlight += 1
                        group.addTask {
                            self.writer.complete(await self.completer.completion(of: outcome, from: ended, producingResumeData: resumeData))
                        }
                    default:
                        break
                    }
                }
            }
        }
    }

    static let concurrentPreparations = 4

    /// Whether a successful transfer's body becomes a file (`keepBody`), which is fsynced before its
    /// completion is recorded.
    func keepsFile(_ outcome: TransferOutcome) -> Bool {
        guard outcome.error == nil else { return false }
        switch outcome.body {
        case .none: return false
        case .file: return true
        case .bytes(let bytes): return bytes.count > configuration.keptBodyLimit
        }
    }

    /// Network failures a background session rides out, as nsurlsessiond does: the transfer is tried
    /// again, not failed. Server answers are responses, never retried.
    static let retriedErrors: Set<Int> = [
        URLErrorCode.timedOut.rawValue, URLErrorCode.cannotFindHost.rawValue, URLErrorCode.cannotConnectToHost.rawValue,
        URLErrorCode.networkConnectionLost.rawValue, URLErrorCode.notConnectedToInternet.rawValue,
        URLErrorCode.dnsLookupFailed.rawValue, URLErrorCode.secureConnectionFailed.rawValue,
    ]

    /// How an attempt's end counts: aborted because the service stops or the node is fenced (the task
    /// resumes at the next start, or when the fence lifts), a network error ridden out with time left in `timeoutIntervalForResource` — any of a
    /// background task's, or the loss of its network path for a `waitsForConnectivity` task that has not
    /// received a response yet — or the end.
    static func endVerdict(of transfer: TransferID, _ outcome: TransferOutcome, in state: inout TaskTable.State)
        -> TaskLifecycle.EndVerdict
    {
        let interrupted = state.attemptEnded(transfer)
        guard let failure = outcome.error else { return .final }
        if interrupted { return .serviceStopping }
        guard let active = state.entries[transfer.taskId]?.attempt, active.number == transfer.attempt,
            Self.retriedErrors.contains(failure.code), failure.reason != "egressPolicy"
        else { return .final }
        let ridesOutage =
            active.configuration.kind == .background
            || active.configuration.waitsForConnectivity && failure.reason == "networkPathLost" && outcome.response == nil
        guard ridesOutage else { return .final }
        let task = active.record
        let deadline = (task.startedAt ?? task.createdAt).addingTimeInterval(active.configuration.timeoutIntervalForResource)
        return .retryable(timeLeft: .milliseconds(Int64(max(0, deadline.timeIntervalSinceNow) * 1000)))
    }
}
