import TestSupport
import Testing
import TransferModels

@testable import SessionTasks

/// Every state of a task's lifecycle × every input, with the actions each must return; then the
/// sequences that used to go wrong, and a random walk that checks a task never runs two attempts.
@Suite("TaskLifecycle")
struct TaskLifecycleTests {
    typealias Input = TaskLifecycle.Input
    typealias Action = TaskLifecycle.Action

    /// The states, each reached from a new task through the inputs that lead there.
    static let states: [(name: String, lifecycle: TaskLifecycle)] = {
        func driven(_ start: TaskLifecycle, _ inputs: [Input]) -> TaskLifecycle {
            var lifecycle = start
            for input in inputs { _ = lifecycle.handle(input) }
            return lifecycle
        }
        let new = TaskLifecycle(state: .running, suspendCount: 0)
        let transferring = driven(new, [.start(beginsLater: false, continuing: false), .prepared(attempt: 1)])
        return [
            ("suspended", TaskLifecycle(state: .suspended, suspendCount: 1)),
            ("suspended twice", TaskLifecycle(state: .suspended, suspendCount: 2)),
            ("running, not started", new),
            ("waiting for its begin date", driven(new, [.start(beginsLater: true, continuing: false)])),
            ("preparing", driven(new, [.start(beginsLater: false, continuing: false)])),
            ("transferring", transferring),
            ("waiting to retry", driven(transferring, [.attemptEnded(attempt: 1, verdict: .retryable(timeLeft: .seconds(60)))])),
            (
                "waiting for connectivity",
                driven(new, [.start(beginsLater: false, continuing: false), .waitForConnectivity(attempt: 1)])
            ),
            ("canceling", driven(transferring, [.cancel(producingResumeData: false)])),
            ("completed", driven(transferring, [.attemptEnded(attempt: 1, verdict: .final)])),
        ]
    }()

    /// The inputs, for a lifecycle whose latest attempt or timer is `current` (99: one it never had).
    static func inputs(current: Int) -> [(name: String, input: Input)] {
        [
            ("resume", .resume(beginsLater: false)),
            ("resume, begins later", .resume(beginsLater: true)),
            ("suspend", .suspend),
            ("cancel", .cancel(producingResumeData: false)),
            ("cancel producing resume data", .cancel(producingResumeData: true)),
            ("start", .start(beginsLater: false, continuing: true)),
            ("its timer fires", .timerFired(timer: current)),
            ("a stale timer fires", .timerFired(timer: 99)),
            ("its job is prepared", .prepared(attempt: current)),
            ("a stale job is prepared", .prepared(attempt: 99)),
            ("its preparation failed", .preparationFailed(attempt: current)),
            ("its attempt ended", .attemptEnded(attempt: current, verdict: .final)),
            ("its attempt failed, retryable", .attemptEnded(attempt: current, verdict: .retryable(timeLeft: .seconds(60)))),
            ("its attempt stopped with the service", .attemptEnded(attempt: current, verdict: .serviceStopping)),
            ("a stale attempt ended", .attemptEnded(attempt: 99, verdict: .final)),
            ("its preparation found no usable path", .waitForConnectivity(attempt: current)),
        ]
    }

    /// The expected actions, one row per state, one column per input (in `inputs` order).
    static let expected: [String: [[Action]]] = {
        let cancelled: [Action] = [.completeCancelled]
        let idle: [[Action]] = [
            [], [], [.persistSuspend], cancelled, cancelled, [], [], [], [.abandon(attempt: 0)], [.abandon(attempt: 99)],
            [], [], [], [], [], [],
        ]
        let resumedRow: ([Action], [Action]) -> [[Action]] = { now, later in
            [
                now, later, [.persistSuspend], cancelled, cancelled, [], [], [], [.abandon(attempt: 0)], [.abandon(attempt: 99)],
                [], [], [], [], [], [],
            ]
        }
        let rejected: [Action] = [.reject]
        return [
            "suspended": resumedRow(
                [.persistResume, .prepare(attempt: 1, continuing: true, askDelayed: false)],
                [.persistResume, .scheduleBegin(timer: 1)]),
            "suspended twice": resumedRow([.persistResume], [.persistResume]),
            "running, not started": {
                var row = idle
                row[5] = [.prepare(attempt: 1, continuing: true, askDelayed: false)]
                return row
            }(),
            "waiting for its begin date": [
                [], [], [.persistSuspend], cancelled, cancelled, [],
                [.prepare(attempt: 2, continuing: false, askDelayed: true)], [],
                [.abandon(attempt: 1)], [.abandon(attempt: 99)], [], [], [], [], [], [],
            ],
            "preparing": [
                [], [], [.persistSuspend], cancelled, cancelled, [], [], [],
                [.submit(attempt: 1)], [.abandon(attempt: 99)], [.completeUnprepared(attempt: 1)], [], [], [], [],
                [.awaitConnectivity(timer: 2, announce: true)],
            ],
            "transferring": [
                [], [], [.stop(attempt: 1), .persistSuspend], [.persistCanceling, .stop(attempt: 1)],
                [.persistCanceling, .stop(attempt: 1)], [], [], [], [.abandon(attempt: 1)], [.abandon(attempt: 99)], [],
                [.complete(attempt: 1, resumeData: false)], [.scheduleRetry(timer: 2, delay: .milliseconds(500))], [], [], [],
            ],
            "waiting to retry": [
                [], [], [.persistSuspend], cancelled, cancelled, [],
                [.prepare(attempt: 3, continuing: true, askDelayed: false)], [],
                [.abandon(attempt: 2)], [.abandon(attempt: 99)], [], [], [], [], [], [],
            ],
            "waiting for connectivity": [
                [], [], [.persistSuspend], cancelled, cancelled, [],
                [.prepare(attempt: 3, continuing: true, askDelayed: false)], [],
                [.abandon(attempt: 2)], [.abandon(attempt: 99)], [], [], [], [], [], [],
            ],
            "canceling": [
                rejected, rejected, rejected, [], [], [], [], [], [.abandon(attempt: 1)], [.abandon(attempt: 99)], [],
                [.complete(attempt: 1, resumeData: false)], [.complete(attempt: 1, resumeData: false)], [], [], [],
            ],
            "completed": [
                rejected, rejected, rejected, rejected, rejected, [], [], [], [.abandon(attempt: 1)],
                [.abandon(attempt: 99)], [], [], [], [], [], [],
            ],
        ]
    }()

    @Test(arguments: states.map(\.name))
    func everyInputInEveryState(state name: String) throws {
        let start = try #require(Self.states.first { $0.name == name }).lifecycle
        let row = try #require(Self.expected[name])
        let inputs = Self.inputs(current: start.serial)
        #expect(row.count == inputs.count)
        for (column, (inputName, input)) in inputs.enumerated() {
            var lifecycle = start
            let actions = lifecycle.handle(input)
            #expect(actions == row[column], "\(name) + \(inputName)")
        }
    }

    /// `task.taskIsWaitingForConnectivity` is sent once per task: a task that finds no path again after
    /// being woken waits silently, and the old wait's timer starts nothing.
    @Test func waitingForConnectivityIsAnnouncedOnce() {
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        _ = lifecycle.handle(.start(beginsLater: false, continuing: false))
        #expect(lifecycle.handle(.waitForConnectivity(attempt: 1)) == [.awaitConnectivity(timer: 2, announce: true)])
        #expect(lifecycle.handle(.timerFired(timer: 2)) == [.prepare(attempt: 3, continuing: true, askDelayed: false)])
        #expect(lifecycle.handle(.waitForConnectivity(attempt: 3)) == [.awaitConnectivity(timer: 4, announce: false)])
        #expect(lifecycle.handle(.timerFired(timer: 2)).isEmpty, "the first wait's deadline")
        #expect(lifecycle.handle(.cancel(producingResumeData: false)) == [.completeCancelled])
    }

    /// The double start: a background task waiting to retry is suspended and resumed; the resume starts
    /// an attempt, and the old retry timer must not start a second one.
    @Test func aRetryTimerAfterSuspendAndResumeStartsNothing() {
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        #expect(
            lifecycle.handle(.start(beginsLater: false, continuing: false)) == [
                .prepare(attempt: 1, continuing: false, askDelayed: false)
            ])
        #expect(lifecycle.handle(.prepared(attempt: 1)) == [.submit(attempt: 1)])
        let failed = lifecycle.handle(.attemptEnded(attempt: 1, verdict: .retryable(timeLeft: .seconds(60))))
        #expect(failed == [.scheduleRetry(timer: 2, delay: .milliseconds(500))])
        #expect(lifecycle.handle(.suspend) == [.persistSuspend])
        #expect(
            lifecycle.handle(.resume(beginsLater: false)) == [
                .persistResume, .prepare(attempt: 3, continuing: true, askDelayed: false),
            ])
        #expect(lifecycle.handle(.prepared(attempt: 3)) == [.submit(attempt: 3)])
        #expect(lifecycle.handle(.timerFired(timer: 2)) == [])
        #expect(lifecycle.activity == .transferring(attempt: 3))
    }

    /// A suspended attempt's late end is not the task's completion; the next attempt's is.
    /// A resume that comes before the stopped attempt has ended waits for that end, then continues the
    /// partial file: two attempts never write one file.
    @Test func aResumeWaitsForTheStoppedAttemptsEnd() {
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        _ = lifecycle.handle(.start(beginsLater: false, continuing: false))
        _ = lifecycle.handle(.prepared(attempt: 1))
        #expect(lifecycle.handle(.suspend) == [.stop(attempt: 1), .persistSuspend])
        #expect(lifecycle.handle(.resume(beginsLater: false)) == [.persistResume])
        #expect(lifecycle.handle(.timerFired(timer: 2)).isEmpty, "the wait has no timer")
        #expect(
            lifecycle.handle(.attemptEnded(attempt: 1, verdict: .final)) == [
                .discard(attempt: 1), .prepare(attempt: 3, continuing: true, askDelayed: false),
            ])
        #expect(lifecycle.handle(.prepared(attempt: 3)) == [.submit(attempt: 3)])
        #expect(lifecycle.handle(.attemptEnded(attempt: 3, verdict: .final)) == [.complete(attempt: 3, resumeData: false)])
        #expect(lifecycle.isSettled)
    }

    /// Suspended again while it waits, the task starts nothing when the stopped attempt ends.
    @Test func aStoppedAttemptsEndAfterASecondSuspendStartsNothing() {
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        _ = lifecycle.handle(.start(beginsLater: false, continuing: false))
        _ = lifecycle.handle(.prepared(attempt: 1))
        _ = lifecycle.handle(.suspend)
        _ = lifecycle.handle(.resume(beginsLater: false))
        #expect(lifecycle.handle(.suspend) == [.persistSuspend])
        #expect(lifecycle.handle(.attemptEnded(attempt: 1, verdict: .final)) == [.discard(attempt: 1)])
        #expect(lifecycle.isSettled)
    }

    @Test func cancelProducingResumeDataCompletesWithIt() {
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        _ = lifecycle.handle(.start(beginsLater: false, continuing: false))
        _ = lifecycle.handle(.prepared(attempt: 1))
        _ = lifecycle.handle(.cancel(producingResumeData: true))
        #expect(lifecycle.handle(.attemptEnded(attempt: 1, verdict: .final)) == [.complete(attempt: 1, resumeData: true)])
    }

    /// No time left for the next backoff: the failure completes the task.
    @Test func aRetryPastTheResourceTimeoutCompletes() {
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        _ = lifecycle.handle(.start(beginsLater: false, continuing: false))
        _ = lifecycle.handle(.prepared(attempt: 1))
        let actions = lifecycle.handle(.attemptEnded(attempt: 1, verdict: .retryable(timeLeft: .milliseconds(100))))
        #expect(actions == [.complete(attempt: 1, resumeData: false)])
        #expect(TaskLifecycle.retryDelay(afterRetries: 20) == .seconds(30))
    }

    /// Thousands of random inputs, as an engine and clients could send them: at no point does the task
    /// have more than one attempt in the engine that was not told to stop.
    @Test(arguments: 0..<40)
    func neverTwoAttemptsInTheEngine(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var lifecycle = TaskLifecycle(state: .running, suspendCount: 0)
        var live: Set<Int> = []  // submitted, not stopped, not ended
        var inEngine: Set<Int> = []  // submitted, not ended (stopped ones too)
        _ = lifecycle.handle(.start(beginsLater: random.next() % 2 == 0, continuing: false))
        for _ in 0..<500 {
            let recent = Int(random.next() % 3)
            let number = max(0, lifecycle.serial - recent)
            let input: Input
            switch random.next() % 9 {
            case 0: input = .resume(beginsLater: random.next() % 3 == 0)
            case 1: input = .suspend
            case 2: input = random.next() % 8 == 0 ? .cancel(producingResumeData: false) : .suspend
            case 3: input = .timerFired(timer: number)
            case 4, 5: input = .prepared(attempt: number)
            case 6: input = .preparationFailed(attempt: random.next() % 4 == 0 ? number : 99)
            default:
                guard let ended = inEngine.randomElement(using: &random) else { continue }
                inEngine.remove(ended)
                live.remove(ended)
                let verdicts: [TaskLifecycle.EndVerdict] = [
                    .final, .retryable(timeLeft: .seconds(3600)), .retryable(timeLeft: .seconds(3600)),
                ]
                input = .attemptEnded(attempt: ended, verdict: verdicts[Int(random.next() % 3)])
            }
            for action in lifecycle.handle(input) {
                switch action {
                case .submit(let attempt):
                    live.insert(attempt)
                    inEngine.insert(attempt)
                case .stop(let attempt): live.remove(attempt)
                default: break
                }
            }
            #expect(live.count <= 1, "seed \(seed): attempts \(live) run at once")
            if lifecycle.state == .completed { break }
        }
    }
}
