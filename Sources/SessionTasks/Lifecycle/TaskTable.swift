import Foundation
import TransferEngine
import TransferModels
import TransferStore

/// Everything the task layer holds in memory about its tasks, under one lock: each task's lifecycle,
/// the attempt it has in the engine, the job being handed over, and the partial files of attempts that
/// `suspend()` stopped; plus whether the service is stopping.
///
/// Lock order: this table, then the report writer's queue (an engine report is checked here, then
/// queued there); engine commands are sent while this lock is held, so the engine receives them in the
/// order the lifecycles decided them.
final class TaskTable: Sendable {
    struct Entry: Sendable {
        var lifecycle: TaskLifecycle
        /// Whose task it is: a node of a cluster takes a new task of a tenant holding few of its slots.
        var tenant = ""
        /// The attempt in the engine: what its reports need to know without reading the store.
        var attempt: ActiveTask?
        /// A prepared attempt waiting for its `.prepared` input: the engine's job and what its reports need.
        /// Out of line: it is there only between two steps of a start, and would triple the entry's size.
        @OutOfLine var prepared: (job: TransferJob, task: ActiveTask)? = nil
        /// When the task's first attempt started (its metrics' interval spans the retries).
        var firstStarted: Date?
        /// The task completed here and the report writer has not written it yet: until it has, the store
        /// still shows the task running, so this entry (not the row) answers the next control call.
        var completionPending = false
        /// Partial files of attempts stopped by `suspend()`, removed when their end is reported.
        var stoppedPartialFiles: [Int: String] = [:]

        var isDisposable: Bool { lifecycle.isSettled && attempt == nil && prepared == nil && !completionPending }
    }

    struct State: Sendable {
        var entries: [String: Entry] = [:]
        /// Set at shutdown: transfers the engine aborts now are not completions. Their tasks stay running
        /// in the store, with their partial files, for the next start to pick up.
        var isStopping = false
        /// Set while this node of a cluster has not renewed its lease for most of its term: the others may
        /// soon take its tasks over, so its transfers stop as at shutdown and none starts.
        var isFenced = false
        /// The attempts the fence stopped that the engine has not reported ended yet.
        var fencedAttempts: Set<TransferID> = []
    }

    private let state = LockedBox(State())
    /// The lifecycles' timers, fired by `TaskService.run`'s loop.
    let timers = TaskTimers()
    /// The control calls of each task, one at a time.
    let controls = TaskControlQueue()

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock(body)
    }

    var isStopping: Bool { state.withLock { $0.isStopping } }

    func stop() { state.withLock { $0.isStopping = true } }

    var isFenced: Bool { state.withLock { $0.isFenced } }

    /// Fences the node; returns the attempts in the engine, for the caller to stop (empty when fenced
    /// already).
    func fence() -> [TransferID] {
        state.withLock { state in
            guard !state.isFenced else { return [] }
            state.isFenced = true
            let attempts = state.entries.compactMap { id, entry in entry.attempt.map { TransferID(taskId: id, attempt: $0.number) } }
            state.fencedAttempts = Set(attempts)
            return attempts
        }
    }

    /// Lifts the fence once every attempt it stopped has ended (a new attempt must never share a number
    /// with an old one still in the engine). Every task is forgotten but those whose completion the writer
    /// has yet to write: the store's rows are what the node picks its tasks up from again.
    func liftFence() -> Bool {
        state.withLock { state in
            guard state.isFenced, state.fencedAttempts.isEmpty else { return false }
            state.isFenced = false
            state.entries = state.entries.filter { $0.value.completionPending }
            return true
        }
    }

    /// The report writer wrote these tasks' completions (or gave up on them): the store has caught up.
    func completionsWritten(_ taskIds: [String]) {
        state.withLock { state in
            for id in taskIds {
                _ = state.update(id, from: nil) { $0.completionPending = false }
            }
        }
    }

    /// The attempt `id` names, if it is still the task's attempt in the engine.
    func attempt(_ id: TransferID) -> ActiveTask? {
        state.withLock { $0.entries[id.taskId]?.attempt.flatMap { $0.number == id.attempt ? $0 : nil } }
    }
}

extension TaskTable.State {
    /// The engine reported the end of `id`; returns whether it was cut short by the service stopping or
    /// the node being fenced (not the task's end: its row stays running).
    mutating func attemptEnded(_ id: TransferID) -> Bool {
        if isFenced { fencedAttempts.remove(id) }
        return isStopping || isFenced
    }

    /// Runs `body` on the task's entry (made from `record` when the task has none in memory), and
    /// forgets the entry once nothing in memory matters for it.
    mutating func update<T>(
        _ taskId: String, from record: TaskRecord?, _ body: (inout TaskTable.Entry) -> T
    ) -> T? {
        if entries[taskId] == nil {
            guard let record else { return nil }
            entries[taskId] = TaskTable.Entry(
                lifecycle: TaskLifecycle(state: record.state, suspendCount: record.suspendCount), tenant: record.tenant)
        }
        // In place: an entry copied out and written back costs its size twice and a retain of every field.
        let result = body(&entries[taskId]!)
        if entries[taskId]?.isDisposable == true { entries[taskId] = nil }
        return result
    }
}

/// Runs the control calls of one task one at a time (`resume`, `suspend`, `cancel` and what timers
/// and the engine feed in), so the store's writes for a task happen in the order its lifecycle decided
/// them. Different tasks never wait for each other, and a call that finds its task free goes on without
/// suspending (the common case: an actor here cost every task creation two hops).
final class TaskControlQueue: Sendable {
    /// Tasks with a call running, each with the calls waiting for their turn, in order.
    private let busy = LockedBox<[String: [CheckedContinuation<Void, Never>]]>([:])

    func run<T>(_ taskId: String, _ body: () async throws -> T) async throws -> T {
        await acquire(taskId)
        defer { release(taskId) }
        return try await body()
    }

    private func acquire(_ taskId: String) async {
        let free = busy.withLock { busy in
            guard busy[taskId] == nil else { return false }
            busy[taskId] = []
            return true
        }
        guard !free else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let freedMeanwhile = busy.withLock { busy in
                guard busy[taskId] != nil else {
                    busy[taskId] = []
                    return true
                }
                busy[taskId, default: []].append(continuation)
                return false
            }
            if freedMeanwhile { continuation.resume() }
        }
    }

    private func release(_ taskId: String) {
        let next = busy.withLock { busy -> CheckedContinuation<Void, Never>? in
            guard var waiting = busy[taskId], !waiting.isEmpty else {
                busy[taskId] = nil
                return nil
            }
            let next = waiting.removeFirst()
            busy[taskId] = waiting
            return next
        }
        next?.resume()  // the turn passes straight to the next call: the task stays busy
    }
}
