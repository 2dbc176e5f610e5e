public import Foundation

/// The delegate columns of a `session` row: its queue's cursor and waits, and its health, as the
/// dispatcher last wrote them (`recordDeliveries`).
///
/// Read from the row every time it is shown, never from the session cache: the dispatcher's writes do
/// not go through that cache (they are batched, many sessions per transaction), and `lastSequence` there
/// is only a lower bound.
public struct DelegateDeliveryRecord: Sendable, Hashable {
    /// The `sequence` of the session's newest event.
    public var lastSequence: Int64
    /// Every event with `sequence <= cursor` is done with.
    public var cursor: Int64
    public var retryAt: Date?
    public var heldAt: Date?
    public var disabledAt: Date?
    public var deliveredAt: Date?
    public var failures: Int
    public var failedAt: Date?
    public var failureReason: String?

    /// The defaults are a session's just created: nothing sent, nothing failed.
    public init(
        lastSequence: Int64 = 0, cursor: Int64 = 0, retryAt: Date? = nil, heldAt: Date? = nil, disabledAt: Date? = nil,
        deliveredAt: Date? = nil, failures: Int = 0, failedAt: Date? = nil, failureReason: String? = nil
    ) {
        self.lastSequence = lastSequence
        self.cursor = cursor
        self.retryAt = retryAt
        self.heldAt = heldAt
        self.disabledAt = disabledAt
        self.deliveredAt = deliveredAt
        self.failures = failures
        self.failedAt = failedAt
        self.failureReason = failureReason
    }

    /// The API's view. A 410 outranks a hold (nothing is sent either way, and only a re-address or a
    /// redeliver lifts it), a hold outranks an empty queue (the hold stays until then), and a retry time
    /// matters only while events wait.
    public var wire: DelegateDelivery {
        let pending = max(0, lastSequence - cursor)
        let state: DelegateDelivery.State
        if disabledAt != nil {
            state = .disabled
        } else if heldAt != nil {
            state = .held
        } else if pending == 0 {
            state = .idle
        } else if retryAt != nil {
            state = .retrying
        } else {
            state = .delivering
        }
        return DelegateDelivery(
            state: state, pendingEvents: pending, deliveredThrough: cursor, lastDeliveredAt: deliveredAt,
            consecutiveFailures: failures,
            lastFailure: failedAt.map { DelegateDelivery.Failure(at: $0, reason: failureReason ?? "") },
            nextAttemptAt: state == .retrying ? retryAt : nil, heldAt: heldAt, disabledAt: disabledAt)
    }
}
