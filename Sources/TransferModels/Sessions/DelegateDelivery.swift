public import Foundation

/// The health of a session's webhook delegate, as an operator reads it: how far its queue got, whether
/// it is waiting, and why (the `delivery` member of the session object; null without a delegate).
///
/// URLSession has nothing like it: an app's delegate is in-process and cannot be unreachable.
public struct DelegateDelivery: Codable, Sendable, Hashable {
    /// Where the delegate's queue stands.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Nothing waits.
        case idle
        /// Events wait and no failure is pending: they are on their way.
        case delivering
        /// The head of the queue failed; a retry is scheduled (`nextAttemptAt`).
        case retrying
        /// A background session without launch events found its delegate unreachable: nothing is sent
        /// until the client re-attaches (or `redeliver`).
        case held
        /// The delegate URL answered 410 Gone: nothing is sent to it until it is re-addressed (or `redeliver`).
        case disabled
    }

    /// A failed attempt: when, and a short reason that never names the URL, its query, headers or secret.
    public struct Failure: Codable, Sendable, Hashable {
        public var at: Date
        /// `HTTP 500`, or a transport reason such as `timed out`, `connection refused`, `egress policy`.
        public var reason: String

        public init(at: Date, reason: String) {
            self.at = at
            self.reason = reason
        }
    }

    public var state: State
    /// Events after `deliveredThrough` (those the `events` filter skips count until the cursor passes them).
    public var pendingEvents: Int64
    /// The delegate cursor: every event with a `sequence` up to it is done with (delivered, skipped or
    /// given up).
    public var deliveredThrough: Int64
    /// The last 2xx acknowledgement.
    public var lastDeliveredAt: Date?
    /// Failed attempts since the last success.
    public var consecutiveFailures: Int
    public var lastFailure: Failure?
    /// When the head is tried again (`retrying` only).
    public var nextAttemptAt: Date?
    public var heldAt: Date?
    public var disabledAt: Date?

    public init(
        state: State, pendingEvents: Int64, deliveredThrough: Int64, lastDeliveredAt: Date?, consecutiveFailures: Int,
        lastFailure: Failure?, nextAttemptAt: Date?, heldAt: Date?, disabledAt: Date?
    ) {
        self.state = state
        self.pendingEvents = pendingEvents
        self.deliveredThrough = deliveredThrough
        self.lastDeliveredAt = lastDeliveredAt
        self.consecutiveFailures = consecutiveFailures
        self.lastFailure = lastFailure
        self.nextAttemptAt = nextAttemptAt
        self.heldAt = heldAt
        self.disabledAt = disabledAt
    }

    enum CodingKeys: String, CodingKey {
        case state, pendingEvents, deliveredThrough, lastDeliveredAt, consecutiveFailures, lastFailure, nextAttemptAt, heldAt
        case disabledAt
    }

    /// Every member always, null where there is no value (synthesized `Codable` would leave them out).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(pendingEvents, forKey: .pendingEvents)
        try c.encode(deliveredThrough, forKey: .deliveredThrough)
        try c.encode(lastDeliveredAt, forKey: .lastDeliveredAt)
        try c.encode(consecutiveFailures, forKey: .consecutiveFailures)
        try c.encode(lastFailure, forKey: .lastFailure)
        try c.encode(nextAttemptAt, forKey: .nextAttemptAt)
        try c.encode(heldAt, forKey: .heldAt)
        try c.encode(disabledAt, forKey: .disabledAt)
    }
}
