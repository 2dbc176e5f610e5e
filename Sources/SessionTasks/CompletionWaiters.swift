import Foundation
import TransferEngine
import TransferModels

/// Long-polls (`?wait=`) waiting for tasks to complete, each ended once: by the completion, by its
/// timeout, or by shutdown.
final class CompletionWaiters: Sendable {
    private struct State {
        var waiting: [String: [ObjectIdentifier: OneShotSignal]] = [:]
        var isClosed = false
    }
    private let state = LockedBox(State())

    /// Returns when `taskId` completes or `timeout` passes. `isComplete` is asked after registering, so a
    /// completion between the caller's last read and the registration is not missed.
    func wait(for taskId: String, timeout: Duration, isComplete: @escaping @Sendable () async throws -> Bool) async throws {
        let signal = OneShotSignal()
        let registered = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            state.waiting[taskId, default: [:]][ObjectIdentifier(signal)] = signal
            return true
        }
        defer { remove(taskId, signal) }
        guard registered, try await !isComplete() else { return }
        await signal.wait(until: .now + timeout)
    }

    /// The task completed: every waiter returns.
    func completed(_ taskId: String) {
        let signals = state.withLock { $0.waiting.removeValue(forKey: taskId) ?? [:] }
        for signal in signals.values { signal.fire() }
    }

    func releaseAll() {
        let signals = state.withLock { state in
            state.isClosed = true
            defer { state.waiting.removeAll() }
            return state.waiting.values.flatMap(\.values)
        }
        for signal in signals { signal.fire() }
    }

    private func remove(_ taskId: String, _ signal: OneShotSignal) {
        state.withLock { state in
            state.waiting[taskId]?[ObjectIdentifier(signal)] = nil
            if state.waiting[taskId]?.isEmpty == true { state.waiting[taskId] = nil }
        }
    }
}

/// Fires once; `wait()` returns at once if it already fired.
final class OneShotSignal: Sendable {
    private let state = LockedBox<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    func wait() async {
        await withCheckedContinuation { continuation in
            let fired = state.withLock { state -> Bool in
                if state.fired { return true }
                state.continuation = continuation
                return false
            }
            if fired { continuation.resume() }
        }
    }

    /// Returns when it fires or at `deadline`, whichever comes first (or once the caller is cancelled); it
    /// has fired by then either way.
    func wait(until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Task.sleep(until: deadline) }
            await group.next()
            group.cancelAll()
            fire()  // ends the waiting child when the deadline (or cancellation) came first
        }
    }

    func fire() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.fired else { return nil }
            state.fired = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

/// Who waits on a node's tasks: `?wait=` long-polls for completions, and readers of `/data` for a
/// running task's body to begin (woken also when a completion is written; the long-polls must not be
/// woken by a body, as they answer when woken).
struct TaskWaiters: Sendable {
    let completions: CompletionWaiters
    let bodies = CompletionWaiters()

    /// Ends every wait now (graceful shutdown must not sit out long-polls).
    func releaseAll() {
        completions.releaseAll()
        bodies.releaseAll()
    }
}
