import Testing
import TransferModels

@testable import SessionTasks

/// The lifecycles' timers: each fires once at its deadline, in deadline order whatever the order they were
/// set in; one set earlier than the loop's next deadline wakes it; cancelling the loop ends it, and what
/// was not due is dropped.
@Suite("TaskTimers")
struct TaskTimersTests {
    @Test(.timeLimit(.minutes(1)))
    func timersFireOnceInDeadlineOrderAndAnEarlierOneWakesTheLoop() async throws {
        let timers = TaskTimers()
        let fired = LockedBox<[String]>([])
        timers.schedule(1, of: "late", after: .milliseconds(300))
        timers.schedule(2, of: "soon", after: .milliseconds(100))
        timers.schedule(3, of: "now", after: .zero)
        timers.schedule(4, of: "never", after: .seconds(3600))
        let loop = Task { await timers.run { timer, taskId in fired.withLock { $0.append("\(taskId)#\(timer)") } } }
        try await eventually(within: .seconds(10)) { fired.withLock { $0.count } == 3 }
        #expect(fired.withLock { $0 } == ["now#3", "soon#2", "late#1"])

        // The loop now sleeps until the hour-long one: an earlier deadline must wake it.
        let started = ContinuousClock.now
        timers.schedule(5, of: "woken", after: .milliseconds(50))
        try await eventually(within: .seconds(10)) { fired.withLock { $0.count } == 4 }
        #expect(ContinuousClock.now - started < .seconds(5), "the new deadline waited for the old one")
        loop.cancel()
        await loop.value  // ends, the hour-long timer dropped
        #expect(fired.withLock { $0.last } == "woken#5")
    }

    private func eventually(within limit: Duration, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within \(limit)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
