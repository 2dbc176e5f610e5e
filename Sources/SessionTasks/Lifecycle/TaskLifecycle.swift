import TransferModels

/// One task's control state in memory, and the only place that decides what happens to it.
///
/// It holds URLSession's `state` and suspend count (as the store has them) together with what runs for
/// the task right now: nothing, a timer, an attempt being prepared, or an attempt in the engine. Every
/// input — `resume()`, `suspend()`, `cancel()`, a timer firing, a prepared job, the end of an attempt —
/// goes through `handle(_:)`, which changes the value and returns the actions for its owner to carry out
/// in order. Because the timer and the attempt are one `Activity`, and every timer and attempt carries a
/// serial number that a later input must match, a task never has two attempts: a timer that fires after
/// the task was suspended and resumed finds another activity and does nothing.
struct TaskLifecycle: Equatable, Sendable {
    /// What runs for a running (or canceling) task.
    enum Activity: Equatable, Sendable {
        /// Nothing: the task is suspended, completed, or not started yet.
        case none
        /// A timer: the task waits for `earliestBeginDate`, or to try a failed transfer again.
        case waiting(Wait, timer: Int)
        /// Attempt `n`'s job is being prepared (its request body read, a delayed request decided).
        case preparing(attempt: Int)
        /// Attempt `n` is in the engine.
        case transferring(attempt: Int)
    }

    enum Wait: Equatable, Sendable {
        /// `earliestBeginDate`; `continuing`: a download picks up its partial file when it begins.
        case beginDate(continuing: Bool)
        /// A background transfer failed with a network error and is tried again (continuing).
        case retry
        /// No network path the task's flags allow is available (`waitsForConnectivity`): it begins again
        /// (continuing) when one may be, or when its resource timeout is due.
        case connectivity
        /// `resume()` came while the attempt `suspend()` stopped was still ending: the next one begins
        /// (continuing its partial file) once the engine has reported that end, so two attempts never
        /// write one file.
        case stoppedAttempt(beginsLater: Bool)
    }

    enum Input: Equatable, Sendable {
        /// `resume()`. `beginsLater`: the task's `earliestBeginDate` is still ahead.
        case resume(beginsLater: Bool)
        case suspend
        case cancel(producingResumeData: Bool)
        /// Starts a task the store shows running with nothing running for it: created with
        /// `"resume": true`, or found running after a restart (`continuing` its partial file).
        case start(beginsLater: Bool, continuing: Bool)
        case timerFired(timer: Int)
        /// Attempt `n`'s job is ready for the engine.
        case prepared(attempt: Int)
        /// Attempt `n` could not be prepared (no body, a bad file): the task completes with that error.
        case preparationFailed(attempt: Int)
        /// Attempt `n` found no usable network path and the task waits for one (`waitsForConnectivity`).
        case waitForConnectivity(attempt: Int)
        /// The engine reported the end of attempt `n`.
        case attemptEnded(attempt: Int, verdict: EndVerdict)
    }

    /// What the owner knows about an attempt that ended.
    enum EndVerdict: Equatable, Sendable {
        /// It ended as the task ends: success, a server's answer, or an error that is not retried.
        case final
        /// A network error a background session rides out, with this much of `timeoutIntervalForResource`
        /// left.
        case retryable(timeLeft: Duration)
        /// The service is stopping: the task stays running in the store for the next start.
        case serviceStopping
    }

    enum Action: Equatable, Sendable {
        /// Write the state change to the store (`resumeTask`, `suspendTask`, `updateTaskState`).
        case persistResume, persistSuspend, persistCanceling
        /// Build attempt `n`'s job; `askDelayed`: first ask `task.willBeginDelayedRequest`.
        case prepare(attempt: Int, continuing: Bool, askDelayed: Bool)
        /// Hand attempt `n`'s prepared job to the engine.
        case submit(attempt: Int)
        /// Drop attempt `n`'s prepared job: the task no longer wants it.
        case abandon(attempt: Int)
        /// Stop attempt `n` in the engine.
        case stop(attempt: Int)
        /// Wake the task with `timerFired(timer)` at its `earliestBeginDate`.
        case scheduleBegin(timer: Int)
        /// Wake the task with `timerFired(timer)` after about `delay` (jitter is the owner's).
        case scheduleRetry(timer: Int, delay: Duration)
        /// Wake the task with `timerFired(timer)` when a network path changes or its resource timeout is
        /// due; `announce`: send `task.taskIsWaitingForConnectivity` (once per task, as URLSession does).
        case awaitConnectivity(timer: Int, announce: Bool)
        /// Complete the task with `NSURLErrorCancelled`: nothing was running.
        case completeCancelled
        /// Complete the task with the error that made attempt `n`'s preparation fail.
        case completeUnprepared(attempt: Int)
        /// Attempt `n`'s outcome is the task's completion; `resumeData`: a download keeps its file.
        case complete(attempt: Int, resumeData: Bool)
        /// Attempt `n` was stopped by `suspend()`; its partial file goes.
        case discard(attempt: Int)
        /// The input is not allowed in this state (`TaskStoreError.invalidStateTransition`).
        case reject
    }

    private(set) var state: TaskState
    private(set) var suspendCount: Int
    private(set) var activity: Activity = .none
    /// Numbers attempts and timers alike, so a late input of an old one is recognised.
    private(set) var serial = 0
    /// Network failures tried again so far (the backoff grows with them).
    private(set) var retries = 0
    /// Attempts stopped by `suspend()` whose end the engine has not reported yet.
    private(set) var stoppedAttempts: Set<Int> = []
    private(set) var wantsResumeData = false
    /// `task.taskIsWaitingForConnectivity` was sent.
    private(set) var announcedWaiting = false

    init(state: TaskState, suspendCount: Int) {
        self.state = state
        self.suspendCount = suspendCount
    }

    /// Nothing in memory matters any more: the store alone describes the task.
    var isSettled: Bool {
        activity == .none && stoppedAttempts.isEmpty && (state == .completed || state == .suspended)
    }

    /// The attempt in the engine, if any.
    var transferringAttempt: Int? {
        if case .transferring(let attempt) = activity { attempt } else { nil }
    }

    mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .resume(let beginsLater): resume(beginsLater: beginsLater)
        case .suspend: suspend()
        case .cancel(let producingResumeData): cancel(producingResumeData: producingResumeData)
        case .start(let beginsLater, let continuing):
            state == .running && activity == .none ? begin(later: beginsLater, continuing: continuing) : []
        case .timerFired(let timer): timerFired(timer)
        case .prepared(let attempt): prepared(attempt)
        case .preparationFailed(let attempt): preparationFailed(attempt)
        case .waitForConnectivity(let attempt): waitForConnectivity(attempt)
        case .attemptEnded(let attempt, let verdict): attemptEnded(attempt, verdict: verdict)
        }
    }

    // MARK: The API's controls

    /// Takes one `suspend()` away; the last one starts the task again — a download from where it stopped
    /// (its partial file, by Range), anything else from the beginning. Harmless on a running task.
    private mutating func resume(beginsLater: Bool) -> [Action] {
        switch state {
        case .completed, .canceling: return [.reject]
        case .running: return []
        case .suspended:
            suspendCount = max(0, suspendCount - 1)
            guard suspendCount == 0 else { return [.persistResume] }
            state = .running
            guard stoppedAttempts.isEmpty else {
                serial += 1
                activity = .waiting(.stoppedAttempt(beginsLater: beginsLater), timer: serial)
                return [.persistResume]
            }
            return [.persistResume] + begin(later: beginsLater, continuing: true)
        }
    }

    /// Stops whatever runs (an attempt, a timer, a preparation) and counts the suspension.
    private mutating func suspend() -> [Action] {
        switch state {
        case .completed, .canceling: return [.reject]
        case .suspended:
            suspendCount += 1
            return [.persistSuspend]
        case .running:
            suspendCount += 1
            state = .suspended
            var actions: [Action] = []
            if case .transferring(let attempt) = activity {
                stoppedAttempts.insert(attempt)
                actions.append(.stop(attempt: attempt))  // first: from here its reports are ignored
            }
            activity = .none
            return actions + [.persistSuspend]
        }
    }

    /// An attempt in the engine is stopped and its end completes the task; anything else completes it now.
    private mutating func cancel(producingResumeData: Bool) -> [Action] {
        switch state {
        case .completed: return [.reject]
        case .canceling: return []
        case .suspended, .running:
            if case .transferring(let attempt) = activity {
                state = .canceling
                wantsResumeData = producingResumeData
                return [.persistCanceling, .stop(attempt: attempt)]
            }
            state = .completed
            activity = .none
            return [.completeCancelled]
        }
    }

    // MARK: Timers, preparation and the engine

    private mutating func begin(later: Bool, continuing: Bool) -> [Action] {
        serial += 1
        if later {
            activity = .waiting(.beginDate(continuing: continuing), timer: serial)
            return [.scheduleBegin(timer: serial)]
        }
        activity = .preparing(attempt: serial)
        return [.prepare(attempt: serial, continuing: continuing, askDelayed: false)]
    }

    private mutating func timerFired(_ timer: Int) -> [Action] {
        guard state == .running, case .waiting(let wait, timer) = activity else { return [] }
        if case .stoppedAttempt = wait { return [] }  // no timer: the stopped attempt's end begins the next
        serial += 1
        activity = .preparing(attempt: serial)
        switch wait {
        case .beginDate(let continuing): return [.prepare(attempt: serial, continuing: continuing, askDelayed: true)]
        case .retry, .connectivity: return [.prepare(attempt: serial, continuing: true, askDelayed: false)]
        case .stoppedAttempt: return []
        }
    }

    private mutating func waitForConnectivity(_ attempt: Int) -> [Action] {
        guard state == .running, activity == .preparing(attempt: attempt) else { return [] }
        serial += 1
        activity = .waiting(.connectivity, timer: serial)
        defer { announcedWaiting = true }
        return [.awaitConnectivity(timer: serial, announce: !announcedWaiting)]
    }

    private mutating func prepared(_ attempt: Int) -> [Action] {
        guard state == .running, activity == .preparing(attempt: attempt) else { return [.abandon(attempt: attempt)] }
        activity = .transferring(attempt: attempt)
        return [.submit(attempt: attempt)]
    }

    private mutating func preparationFailed(_ attempt: Int) -> [Action] {
        guard state == .running, activity == .preparing(attempt: attempt) else { return [] }
        state = .completed
        activity = .none
        return [.completeUnprepared(attempt: attempt)]
    }

    private mutating func attemptEnded(_ attempt: Int, verdict: EndVerdict) -> [Action] {
        if stoppedAttempts.remove(attempt) != nil {
            guard stoppedAttempts.isEmpty, state == .running, case .waiting(.stoppedAttempt(let later), _) = activity else {
                return [.discard(attempt: attempt)]
            }
            return [.discard(attempt: attempt)] + begin(later: later, continuing: true)
        }
        guard activity == .transferring(attempt: attempt) else { return [] }
        activity = .none
        switch verdict {
        case .serviceStopping:
            return []  // the next start settles it: a running task goes on, a canceling one completes
        case .retryable(let timeLeft) where state == .running:
            let delay = Self.retryDelay(afterRetries: retries + 1)
            if delay < timeLeft {
                retries += 1
                serial += 1
                activity = .waiting(.retry, timer: serial)
                return [.scheduleRetry(timer: serial, delay: delay)]
            }
        default:
            break
        }
        state = .completed
        return [.complete(attempt: attempt, resumeData: wantsResumeData)]
    }

    /// A capped exponential backoff: 0.5 s, 1 s, 2 s, … up to 30 s, as nsurlsessiond spaces its retries.
    static func retryDelay(afterRetries retries: Int) -> Duration {
        .milliseconds(Int64(min(30, 0.25 * Double(1 << min(retries, 10))) * 1000))
    }
}
