import Foundation
import Logging
import Synchronization
import TransferModels
import TransferStore

/// Writes what the engine reports to the store: progress counters, response heads, delegate events,
/// partial-file checkpoints and completions. The engine's loop thread only queues them (cheap, under a
/// lock); `run()` writes everything queued in one transaction each time a completion arrives or a
/// quarter-second tick passes, so the loop never waits for SQLite.
final class ReportWriter: Sendable {
    private let store: TransferStore
    private let logger: Logger
    private let waiters: CompletionWaiters
    /// This node, on a cluster: its completions are written only for tasks still its own.
    private let node: String?
    /// Told the ids of the completions written (or given up on), after each batch.
    private let onCompletionsWritten: @Sendable ([String]) -> Void
    /// Rung as each completion is queued: its task holds no transfer slot any more.
    private let completionQueued: Doorbell?
    /// Every completion queued since start (`ClaimAhead` reads the rate).
    private let completionCount = Atomic<Int>(0)
    private let pending = LockedBox(PendingReports())
    private let doorbell = Doorbell()
    private let isClosed = Atomic<Bool>(false)
    /// Batches taken from `pending` and batches written, for `flush()`.
    private let batches = LockedBox(BatchCount())

    private struct BatchCount {
        var taken = 0
        var written = 0
        var waiters: [(batch: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    init(
        store: TransferStore, waiters: CompletionWaiters, node: String?, logger: Logger, completionQueued: Doorbell? = nil,
        onCompletionsWritten: @escaping @Sendable ([String]) -> Void
    ) {
        self.onCompletionsWritten = onCompletionsWritten
        self.completionQueued = completionQueued
        self.store = store
        self.waiters = waiters
        self.node = node
        self.logger = logger
    }

    /// Changes what is queued (the engine's loop thread: short work, no I/O).
    func queue<T>(_ body: (inout PendingReports) -> T) -> T {
        pending.withLock(body)
    }

    /// Queues delegate events and has them written soon.
    func append(_ events: [PendingEvent]) {
        guard !events.isEmpty else { return }
        pending.withLock { $0.events += events }
        doorbell.ring(.events)
    }

    /// Queues a completion (with the task's last counters and head) and has it written now.
    func complete(_ completion: TaskCompletion) {
        var completion = completion
        completion.node = node
        pending.withLock { $0.complete(completion) }
        completionCount.wrappingAdd(1, ordering: .relaxed)
        doorbell.ring(.events)
        completionQueued?.ring(.events)
    }

    /// Every completion queued since start.
    var queuedCompletions: Int { completionCount.load(ordering: .relaxed) }

    /// Writes whatever is queued each time the doorbell rings, until `close()`; then once more for what
    /// is left.
    func run() async {
        while !isClosed.load(ordering: .acquiring) {
            _ = await doorbell.wait()
            await writePending()
        }
        await writePending()
    }

    func close() {
        isClosed.store(true, ordering: .releasing)
        doorbell.ring(.closed)
    }

    /// Returns once everything queued before the call is in the store (or its write failed and was
    /// logged): a reader that must see the latest checkpoint, such as a resumed download, calls it first.
    func flush() async {
        // Under `pending`'s lock, no batch is being taken: the next one holds everything queued so far.
        let target = pending.withLock { _ in batches.withLock { $0.taken + 1 } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = batches.withLock { count -> Bool in
                if count.written >= target || isClosed.load(ordering: .acquiring) { return true }
                count.waiters.append((target, continuation))
                return false
            }
            if done { continuation.resume() } else { doorbell.ring(.events) }
        }
    }

    /// Rings every `interval` so progress and response heads reach the store while transfers run.
    func tick(every interval: Duration = .milliseconds(250)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            doorbell.ring(.tick)
        }
    }

    private func writePending() async {
        let (batch, number) = pending.withLock { pending -> (PendingReports, Int) in
            defer { pending = PendingReports() }
            return (
                pending,
                batches.withLock {
                    $0.taken += 1
                    return $0.taken
                }
            )
        }
        defer { batchWritten(number) }
        guard !batch.isEmpty else { return }
        do {
            var events: [TaskEventAppend] = []
            events.reserveCapacity(batch.events.count)
            for event in batch.events {
                do {
                    events.append(try event.encoded())
                } catch {
                    logger.error("Encoding a delegate event failed", metadata: ["task.id": "\(event.taskId)", "error": "\(error)"])
                }
            }
            let (completed, failures) = try await store.tasks.recordEngineReports(
                progress: batch.progress, responses: batch.responses, events: events, partialFiles: batch.partialFiles,
                completions: batch.completions)
            for (id, failure) in failures {
                logger.error("Recording a completion failed", metadata: ["task.id": "\(id)", "error": "\(String(reflecting: failure))"])
            }
            for id in completed { waiters.completed(id) }
            removeLocalCopies(of: batch.completions, recorded: completed)
            onCompletionsWritten(completed + failures.map(\.0))
        } catch  where MaintenanceStore.isDiskFull(error) && !isClosed.load(ordering: .acquiring) {
            // Nothing of the batch was written (SQLite rolled it back): it waits for space, completions
            // included, rather than leave tasks running in the store that ended in memory.
            logger.error(
                "The disk is full: transfer reports wait to be recorded",
                metadata: ["completions": "\(batch.completions.count)", "events": "\(batch.events.count)"])
            pending.withLock { $0.putBack(batch) }
            try? await Task.sleep(for: Self.diskFullRetryDelay)
            doorbell.ring(.events)
        } catch {
            logger.error("Recording transfer reports failed", metadata: ["error": "\(String(reflecting: error))"])
            onCompletionsWritten(batch.completions.map(\.id))
        }
    }

    /// Files put into the object store leave the disk once their completion names the object. One whose
    /// completion was not recorded (the task had already ended) stays: no row names it, so the start-up
    /// janitor removes it.
    private func removeLocalCopies(of completions: [TaskCompletion], recorded: Set<String>) {
        let moved = completions.filter { $0.localCopy != nil }
        guard !moved.isEmpty else { return }
        for completion in moved {
            guard let path = completion.localCopy else { continue }
            if recorded.contains(completion.id) {
                unlink(path)
            } else {
                logger.warning(
                    "A task's file put into the object store was not recorded as complete; its object is left behind",
                    metadata: ["task.id": "\(completion.id)", "object.key": "\(completion.fileObject ?? "")"])
            }
        }
    }

    /// How long a batch refused for a full disk waits before it is tried again.
    static let diskFullRetryDelay = Duration.seconds(1)

    private func batchWritten(_ number: Int) {
        let woken = batches.withLock { count -> [CheckedContinuation<Void, Never>] in
            count.written = number
            let (due, later) = (count.waiters.filter { $0.batch <= number }, count.waiters.filter { $0.batch > number })
            count.waiters = later
            return due.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }
}
