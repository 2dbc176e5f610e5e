import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
    /// What a transition asks for beyond the engine commands sent under the table's lock.
    struct Effects: Sendable {
        var actions: [TaskLifecycle.Action] = []
        /// The stopped attempt's last counters (they become the suspended task's).
        var stoppedCounts: TaskByteCounts?
        /// Partial files of stopped attempts that ended.
        var discardedFiles: [String] = []
        /// The attempt whose end completes the task.
        var ended: ActiveTask?
        /// The attempt handed to the engine (logged once the table's lock is released).
        var started: ActiveTask?
    }

    /// Feeds `input` to the task's lifecycle, made from `record` when the task has none in memory.
    /// Under the table's lock, the engine commands (`submit`, `stop`) are sent at once, so a command
    /// decided later can never overtake them; the rest is returned.
    func transition(_ taskId: String, from record: TaskRecord?, _ input: TaskLifecycle.Input) -> Effects {
        transition(taskId, from: record) { _ in input }
    }

    /// `transition`, with the input worked out from the table under the same lock (an attempt's end: its
    /// verdict depends on the attempt and on whether the service stops).
    func transition(
        _ taskId: String, from record: TaskRecord?, input: (inout TaskTable.State) -> TaskLifecycle.Input
    ) -> Effects {
        let effects = lockedTransition(taskId, from: record, input)
        if let started = effects.started { logStarted(started) }
        return effects
    }

    private func lockedTransition(
        _ taskId: String, from record: TaskRecord?, _ makeInput: (inout TaskTable.State) -> TaskLifecycle.Input
    ) -> Effects {
        table.withLock { state in
            let isFenced = state.isFenced
            let input = makeInput(&state)
            return state.update(taskId, from: record) { entry in
                var effects = Effects()
                let actions = entry.lifecycle.handle(input)
                for action in actions {
                    switch action {
                    case .submit(let number):
                        guard let prepared = entry.prepared, prepared.job.id.attempt == number else { continue }
                        entry.prepared = nil
                        // Fenced: nothing starts; the task is picked up from its row when the fence lifts.
                        guard !isFenced else { continue }
                        entry.attempt = prepared.task
                        if prepared.task.record.kind == .download, let path = prepared.job.downloadPath {
                            writer.queue { $0.partialFiles[taskId] = path }  // the checkpoint a restart continues from
                        }
                        engine.start(prepared.job)
                        effects.started = prepared.task
                    case .abandon(let number):
                        if entry.prepared?.job.id.attempt == number {
                            entry.prepared = nil
                            // Never started: the blob copy it may have fetched goes (the engine reads none).
                            if files.objectStore != nil {
                                effects.discardedFiles.append(files.fetchedBlobPath(of: taskId, attempt: number))
                            }
                        }
                    case .stop(let number):
                        engine.cancel(TransferID(taskId: taskId, attempt: number))
                        // Suspended: from here its reports are ignored, and its last counters are the task's.
                        // (Canceled, it stays: its end completes the task.)
                        if entry.lifecycle.stoppedAttempts.contains(number), let stopped = entry.attempt, stopped.number == number {
                            entry.attempt = nil
                            // A download keeps its bytes: `resume()` continues them by Range, as after a restart.
                            if let path = stopped.partialPath, stopped.record.kind != .download {
                                entry.stoppedPartialFiles[number] = path
                            }
                            effects.stoppedCounts = writer.queue { $0.progress.removeValue(forKey: taskId) }
                        }
                    case .discard(let number):
                        if let path = entry.stoppedPartialFiles.removeValue(forKey: number) { effects.discardedFiles.append(path) }
                    case .complete(let number, _):
                        if entry.attempt?.number == number { effects.ended = entry.attempt }
                        entry.attempt = nil
                        entry.completionPending = true  // until the writer has written it
                        effects.actions.append(action)
                    default:
                        effects.actions.append(action)
                    }
                }
                return effects
            } ?? Effects()
        }
    }

    /// A control call: feeds `input` and carries out what the lifecycle decided — the store's writes in
    /// order (one control call per task at a time), then the preparation of a new attempt, which feeds
    /// `.prepared` (or `.preparationFailed`) back in. Returns the task as the last write left it.
    ///
    /// - Parameters:
    ///   - isCurrent: `record` was just written (a creation, a recovery); otherwise, a task with nothing in
    ///     memory is read again once its turn comes, so its lifecycle starts from the store's latest state.
    ///   - session: the task's session, when the caller has just read it (a creation): an attempt prepared
    ///     by this call is made from it rather than from another read.
    @discardableResult
    func control(
        _ record: TaskRecord, _ input: TaskLifecycle.Input, isCurrent: Bool = false, session: SessionRecord? = nil
    ) async throws -> TaskRecord {
        var record = record
        var next: TaskLifecycle.Input? = input
        var isFirst = true
        var preparationError: TransferError?
        while let input = next {
            next = nil
            let (effects, written) = try await table.controls.run(record.id) { [record, isFirst, preparationError] in
                var origin: TaskRecord?
                if isFirst {
                    let known = isCurrent || self.table.withLock { $0.entries[record.id] != nil }
                    origin = known ? record : try await self.store.tasks.task(id: record.id) ?? record
                }
                let effects = self.transition(record.id, from: origin, input)
                // Refused by the lifecycle: nothing changed.
                if effects.actions.contains(.reject) { throw TaskStoreError.invalidStateTransition }
                do {
                    return (effects, try await self.write(effects, of: origin ?? record, preparationError: preparationError))
                } catch {
                    self.forgetUnlessRunning(record.id, after: error)
                    throw error
                }
            }
            isFirst = false
            record = written ?? record
            for path in effects.discardedFiles { unlink(path) }
            for action in effects.actions {
                switch action {
                case .scheduleBegin(let timer):
                    schedule(timer, of: record.id, after: max(0, record.earliestBeginDate?.timeIntervalSinceNow ?? 0))
                case .scheduleRetry(let timer, let delay):
                    schedule(timer, of: record.id, after: Self.seconds(delay) * Double.random(in: 0.8...1.2))
                case .awaitConnectivity(let timer, let announce):
                    await awaitConnectivity(record, timer: timer, announce: announce)
                case .prepare(let number, let continuing, let askDelayed):
                    do {
                        next = try await prepareAttempt(
                            number, of: record, session: session, continuing: continuing, askDelayed: askDelayed)
                    } catch let failure as TransferError {
                        preparationError = failure
                        next = .preparationFailed(attempt: number)
                    }
                default:
                    break
                }
            }
        }
        return record
    }

    /// A store write the lifecycle decided failed (the disk, or the store's row moved on meanwhile):
    /// unless an attempt is in the engine, the task's memory goes, and its next call starts again from
    /// the store's state.
    private func forgetUnlessRunning(_ taskId: String, after error: any Error) {
        table.withLock { state in
            guard let entry = state.entries[taskId], entry.attempt == nil, entry.lifecycle.stoppedAttempts.isEmpty else { return }
            state.entries[taskId] = nil
        }
        logger.error("Writing a task's state failed", metadata: ["task.id": "\(taskId)", "error": "\(String(reflecting: error))"])
    }

    /// The store's side of a transition, in the order decided; nil when nothing was written.
    private func write(_ effects: Effects, of record: TaskRecord, preparationError: TransferError?) async throws -> TaskRecord? {
        var written: TaskRecord?
        let url = record.currentRequest?.url ?? record.originalRequest?.url
        for action in effects.actions {
            switch action {
            case .persistResume: written = try await store.tasks.resumeTask(id: record.id).0
            case .persistSuspend: written = try await store.tasks.suspendTask(id: record.id, counts: effects.stoppedCounts).0
            case .persistCanceling: written = try await persistCanceling(record.id)
            case .completeCancelled: written = try await complete(record.id, error: .cancelled(failingURL: url))
            case .completeUnprepared:
                written = try await complete(record.id, error: preparationError ?? TransferError(.unknown, failingURL: url))
            default: break
            }
        }
        return written
    }

    /// Writes `canceling`. The attempt was stopped before this write (engine commands go out under the
    /// table's lock), so its end may have been settled and its completion written first: then the row
    /// is already `completed`, which is where the cancel leads, and is the answer.
    private func persistCanceling(_ taskId: String) async throws -> TaskRecord {
        do {
            return try await store.tasks.updateTaskState(id: taskId, to: .canceling)
        } catch let error as TaskStoreError where error == .invalidStateTransition {
            guard let task = try await store.tasks.task(id: taskId), task.state == .completed else { throw error }
            return task
        }
    }

    /// Feeds `timerFired(timer)` after `seconds` (`TaskTimers`, run by `run()`), unless the service is
    /// stopping or fenced by then.
    func schedule(_ timer: Int, of taskId: String, after seconds: Double) {
        table.timers.schedule(timer, of: taskId, after: .milliseconds(Int64(seconds * 1000)))
    }

    /// A timer's deadline came.
    func timerFired(_ timer: Int, of taskId: String) async {
        guard !table.isStopping, !table.isFenced else { return }
        do {
            guard let task = try await store.tasks.task(id: taskId) else { return }
            try await control(task, .timerFired(timer: timer))
        } catch {
            logger.error("Starting a waiting task failed", metadata: ["task.id": "\(taskId)", "error": "\(String(reflecting: error))"])
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
