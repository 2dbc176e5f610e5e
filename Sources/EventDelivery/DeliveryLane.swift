import Foundation
import TransferModels
import TransferStore

/// What wakes the dispatcher's coordinator.
enum DispatcherSignal: Sendable {
    /// A commit appended events to this session (a hint: the store is read after it).
    case hint(String)
    /// The session's delegate changed, or a redeliver was asked: its queue starts again from its cursor,
    /// to the delegate as it is now (`DeliveryCoordinator+Readdress`).
    case delegateChanged(String)
    case response(WebhookResponse)
    /// Retry timers, flushes and scans are checked.
    case tick
    /// A write of outcomes ended; what it could not write comes back.
    case flushed(DeliveryOutcomes?)
    case stop
}

/// Signals for the coordinator, coalesced: producers append and wake it; it drains everything at once,
/// so a burst of responses and hints costs one turn of its loop, not one each.
final class DispatcherInbox: Sendable {
    private let signals = LockedBox<[DispatcherSignal]>([])
    private let wakeups: AsyncStream<Void>.Continuation
    let stream: AsyncStream<Void>

    init() {
        (stream, wakeups) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func post(_ signal: DispatcherSignal) {
        signals.withLock { $0.append(signal) }
        wakeups.yield()
    }

    func drain() -> [DispatcherSignal] {
        signals.withLock { signals in
            defer { signals.removeAll(keepingCapacity: true) }
            return signals
        }
    }
}

/// One of a session's two queues: its delegate's events, or its tasks' `task.completion` events (each to
/// its task's URL). Each has at most one POST in flight, so its events arrive in `sequence` order.
struct LaneKey: Hashable {
    enum Kind: Hashable {
        case delegate
        case completion
    }

    var sessionId: String
    var kind: Kind
}

/// An event to send, with where and how.
struct PendingDelivery {
    var event: EventRecord
    var url: String
    var signer: WebhookSigner?
    /// Failed attempts so far (the store's count survives restarts).
    var attempts: Int
    /// Delegate queues: the cursor once this event is done, including the skipped events that follow it.
    var cursorAfter: Int64
    /// A decision the delegate implements: one attempt, its answer handed to `DecisionWaiters`.
    var isDecision: Bool
    var timeout: Double
    /// The body, made on the first attempt and sent unchanged on retries (same id, same bytes).
    var body: [UInt8]?
}

/// A queue's state in memory. The durable state is in the store (cursor, attempts, retry times); this is
/// what was read ahead of it, and what is in flight.
struct DeliveryLane {
    var key: LaneKey
    /// Whose session it is: POST slots are shared between tenants.
    var tenant: String
    var pending: ArraySlice<PendingDelivery> = []
    /// The highest `sequence` read into `pending` (or skipped).
    var readCursor: Int64
    /// More events may be in the store past `readCursor`.
    var mayHaveMore = true
    var inFlightToken: Int?
    /// The head failed: not before this instant.
    var retryAt: ContinuousClock.Instant?
    /// The store may hold a retry time for this delegate queue, to clear once its head succeeds.
    var retryPersisted = false
    var lastActive = ContinuousClock.now
    /// Delegate queues: the destination, its signer, and which events it gets.
    var delegate: DelegateConfiguration?
    var signer: WebhookSigner?
    /// A background session without launch events: a failed delivery holds the queue until the re-attach.
    var waitsForReattach = false

    var isIdle: Bool { inFlightToken == nil && pending.isEmpty && !mayHaveMore && retryAt == nil }

    /// Whether the delegate gets `type`: the decisions it implements, and what its `events` filter admits;
    /// `task.completion` never (it goes to the task's URL). Which events exist is the producer's choice, so
    /// the webhook stream and the polled log carry the same events (gap-free with `["*"]`); a decision type
    /// the delegate does not implement is an ordinary notification (retried, nobody waits for it).
    func delegateReceives(_ type: TaskEventType) -> Bool {
        guard let delegate, type != .taskCompletion else { return false }
        if delegateDecides(type) { return true }
        return delegate.events.contains("*") || delegate.events.contains(type.rawValue)
    }

    /// Whether `type` is a decision this delegate implements: the transfer waits for its answer.
    func delegateDecides(_ type: TaskEventType) -> Bool {
        delegate?.decisions.contains(type) == true
    }
}
