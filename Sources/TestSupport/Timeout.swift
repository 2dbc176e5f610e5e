/// A bounded wait ran out: ``withTimeout(seconds:_:)`` or ``eventually(timeout:interval:_:)``.
public struct TimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The limit that elapsed, in seconds.
    public let seconds: Double
    /// What was waited for.
    public let operation: String

    /// Creates an error for `operation` exceeding `seconds`.
    public init(seconds: Double, operation: String) {
        self.seconds = seconds
        self.operation = operation
    }

    public var description: String {
        "TimeoutError: \(self.operation) did not finish within \(self.seconds) s"
    }
}

/// Runs `body`, and if it has not finished after `seconds`, cancels it and throws ``TimeoutError``.
///
/// `body` races a sleeping task in a task group; the loser is cancelled. Structured concurrency means the
/// call returns only once `body` has actually stopped, so `body` must honour cancellation (``HTTPClient``
/// does, within about a second).
public func withTimeout<T: Sendable>(
    seconds: Double, _ body: @Sendable @escaping () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int64(max(0, seconds) * 1000)))
            throw TimeoutError(seconds: seconds, operation: "withTimeout body")
        }
        defer { group.cancelAll() }
        // The group has two children, so the first result exists; `next()` is nil only when empty.
        guard let first = try await group.next() else {
            throw TimeoutError(seconds: seconds, operation: "withTimeout body")
        }
        return first
    }
}

/// Polls `condition` every `interval` seconds until it returns true; throws ``TimeoutError`` if it has not
/// after `timeout` seconds. The condition is checked at least once, and once more at the deadline.
///
/// An error thrown by `condition` ends the wait at once and propagates: a failing probe is a failure, not
/// a "not yet". Cancellation of the calling task also ends it (`CancellationError`).
public func eventually(
    timeout: Double,
    interval: Double = 0.02,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int64(max(0, timeout) * 1000))
    let pause = Duration.milliseconds(Int64(max(0.001, interval) * 1000))
    while true {  // bounded: each turn sleeps `pause` (>= 1 ms) and the deadline ends the loop
        if try await condition() { return }
        let now = clock.now
        guard now < deadline else {
            throw TimeoutError(seconds: timeout, operation: "eventually condition")
        }
        try await Task.sleep(until: min(now + pause, deadline), clock: clock)
    }
}
