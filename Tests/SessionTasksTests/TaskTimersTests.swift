import Testing
import TransferModels

@testable import SessionTasks

/// The lifecycles' timers: each fires once, not before its deadline, whatever the order they were set in;
/// one set earlier than the loop's next deadline wakes it; cancelling the loop ends it, and what
/// was not due is dropped.
@Suite("TaskTimers")
struct TaskTimersTests {
    @Test(.timeLimit(.minutes(1)))
    func timersFireOnceInDeadlineOrderAndAnEarlierOneWakesTheLoop() async throws {
        let timers = TaskTimers()
        let fired = LockedBox<[String]>([])
        let firedAt = LockedBox<[String: ContinuousClock.Instant]>([:])
        let set = ContinuousClock.now
        timers.schedule(1, of: "late", after: .milliseconds(600))
        timers.schedule(2, of: "soon", after: .milliseconds(300))
        timers.schedule(3, of: "now", after: .zero)
        timers.schedule(4, of: "never", after: .seconds(3600))
        let loop = Task {
            await timers.run { timer, taskId in
                fired.withLock { $0.append("\(taskId)#\(timer)") }
                firedAt.withLock { $0[taskId] = .now }
            }
        }
        try await eventually(within: .seconds(10)) { fired.withLock { $0.count } == 3 }
        // Each once, none before its deadline (timers due at the same look fire concurrently, in any order).
        #expect(Set(fired.withLock { $0 }) == ["now#3", "soon#2", "late#1"])
        let at = firedAt.withLock { $0 }
        #expect(at["soon"].map { $0 - set >= .milliseconds(300) } == true && at["late"].map { $0 - set >= .milliseconds(600) } == true)

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
