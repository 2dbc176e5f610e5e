import TransferModels

/// The lifecycles' timers — `earliestBeginDate`, a retry's backoff, a waiting task's resource timeout — run
/// by one loop in the service's task group rather than a detached sleeping `Task` each: a stop cancels
/// them all at once, and none outlives the service.
final class TaskTimers: Sendable {
    private struct Timer {
        var deadline: ContinuousClock.Instant
        var timer: Int
        var taskId: String
    }

    private struct State {
        var pending: [Timer] = []
        /// The earliest deadline the loop sleeps until (nil: none), and how to wake it for an earlier one.
        var sleepsUntil: ContinuousClock.Instant?
        var wake: OneShotSignal?
    }

    private let state = LockedBox(State())

    /// `timer` of `taskId` is due after `delay`.
    func schedule(_ timer: Int, of taskId: String, after delay: Duration) {
        let deadline = ContinuousClock.now + delay
        let wake = state.withLock { state -> OneShotSignal? in
            state.pending.append(Timer(deadline: deadline, timer: timer, taskId: taskId))
            // Only a deadline before the one the loop sleeps until needs it now.
            guard state.sleepsUntil.map({ deadline < $0 }) ?? true else { return nil }
            return state.wake
        }
        wake?.fire()
    }

    /// Hands each timer to `fire` at its deadline (each in a child task, so a slow one holds up no other),
    /// until cancelled; timers not due by then are dropped with the service.
    func run(fire: @escaping @Sendable (_ timer: Int, _ taskId: String) async -> Void) async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let signal = OneShotSignal()
                let (due, next) = state.withLock { state -> ([Timer], ContinuousClock.Instant?) in
                    let now = ContinuousClock.now
                    let due = state.pending.filter { $0.deadline <= now }
                    if !due.isEmpty { state.pending.removeAll { $0.deadline <= now } }
                    let next = state.pending.lazy.map(\.deadline).min()
                    (state.sleepsUntil, state.wake) = (next, signal)
                    return (due, next)
                }
                for timer in due { group.addTask { await fire(timer.timer, timer.taskId) } }
                await signal.wait(until: next ?? .now + .seconds(3600))
            }
        }
    }
}
