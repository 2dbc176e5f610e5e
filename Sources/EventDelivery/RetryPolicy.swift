public import Foundation
import HTTPCaching

/// When to try a webhook again after a failed attempt: the configured schedule (Standard Webhooks' by
/// default), jittered so that receivers coming back are not hit by every queue at once, or the
/// receiver's own `Retry-After`. Pure: the randomness is a parameter (AHC `calculateBackoff`).
public struct RetryPolicy: Sendable, Hashable {
    /// Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h.
    public static let standardSchedule: [Double] = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]

    /// Seconds to wait after the 1st, 2nd… failed attempt. Past its end the last interval repeats:
    /// events are never dropped, the queue keeps trying at that pace.
    public var schedule: [Double]
    /// Each wait is scaled by a random factor in `1 ± jitter`.
    public var jitter: Double
    /// The longest `Retry-After` honoured, in seconds.
    public var maximumRetryAfter: Double = 86400

    public init(schedule: [Double] = RetryPolicy.standardSchedule, jitter: Double = 0.2) {
        precondition(!schedule.isEmpty, "a retry schedule needs at least one interval")
        self.schedule = schedule
        self.jitter = jitter
    }

    /// Seconds to wait after the `attempt`-th failed attempt (1-based) of one event.
    ///
    /// - Parameters:
    ///   - retryAfter: the receiver's `Retry-After` in seconds, which replaces the schedule (not jittered:
    ///     the receiver said when). Zero or less (`Retry-After: 0`, a date already past) is no time at all:
    ///     the schedule's interval applies, so a receiver cannot make a queue hammer it (or anyone).
    ///   - unit: a random number in `0..<1` choosing the jitter.
    public func delay(afterAttempt attempt: Int, retryAfter: Double?, unit: Double) -> Double {
        if let retryAfter, retryAfter.isFinite, retryAfter > 0 { return min(retryAfter, maximumRetryAfter) }
        let base = schedule[min(max(attempt, 1), schedule.count) - 1]
        return max(0, base * (1 + jitter * (2 * unit - 1)))
    }

    /// `delay(afterAttempt:retryAfter:unit:)` with the system's randomness.
    public func delay(afterAttempt attempt: Int, retryAfter: Double?) -> Double {
        delay(afterAttempt: attempt, retryAfter: retryAfter, unit: Double.random(in: 0..<1))
    }

    /// Parses `URLSESSIOND_WEBHOOK_RETRY_SCHEDULE`: comma-separated seconds (fractions allowed), each
    /// finite, at least 0 and at most a week. Nil when malformed or empty.
    public static func parseSchedule(_ text: String) -> [Double]? {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var schedule: [Double] = []
        for entry in entries {
            guard let value = Double(entry), value.isFinite, (0...604_800).contains(value) else { return nil }
            schedule.append(value)
        }
        return schedule.isEmpty ? nil : schedule
    }

    /// A `Retry-After` value (RFC 9110 §10.2.3) in seconds from `now`: delay-seconds or an HTTP date.
    public static func retryAfterSeconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Double(text)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
