public import Foundation
public import TransferModels

/// The key bytes of a `whsec_` secret, opened from the store only to sign webhooks.
///
/// Its description is redacted, so logging it by mistake prints nothing secret; the bytes are visible
/// to this package only.
public struct WebhookSigningKey: Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    /// The key of a well-formed `whsec_` secret, or nil.
    package init?(secret: String) {
        guard let data = WebhookSecret.keyBytes(secret) else { return nil }
        self.bytes = Array(data)
    }

    public var description: String { "WebhookSigningKey(redacted)" }
}

/// A session with events to deliver, and whose it is (the dispatcher shares its slots between tenants).
public struct QueueOwner: Sendable, Hashable {
    public var sessionId: String
    public var tenant: String

    public init(sessionId: String, tenant: String) {
        (self.sessionId, self.tenant) = (sessionId, tenant)
    }
}

/// A session's delegate queue as the dispatcher needs it: where events go, which ones, and how far it got.
public struct DelegateQueue: Sendable {
    public var sessionId: String
    public var tenant: String
    public var delegate: DelegateConfiguration
    /// Every event with `sequence <= cursor` is done with (delivered, skipped or given up).
    public var cursor: Int64
    /// The head failed: not before this time.
    public var retryAt: Date?
    /// A background session with `sessionSendsLaunchEvents = false`: when its delegate cannot be reached,
    /// the client is taken to be gone and is not "launched" (retried); its events wait for the re-attach.
    public var waitsForReattach: Bool = false
    /// The session's signing key; nil when the session has no secret stored.
    public var key: WebhookSigningKey?
}

/// A `task.completion` event with where it goes: its task's `completion.url`, signed with the task's own
/// secret, else the session delegate's.
public struct CompletionDelivery: Sendable {
    public var event: EventRecord
    /// Nil when the task is gone or has no completion handler: there is nowhere to send it.
    public var url: String?
    public var key: WebhookSigningKey?
}

/// What the dispatcher learned since its last write, recorded in one transaction (`recordDeliveries`).
public struct DeliveryOutcomes: Sendable {
    /// A failed attempt of `eventId`, to retry at `nextAttemptAt`.
    public struct Failure: Sendable {
        public var eventId: String
        public var nextAttemptAt: Date
        public init(eventId: String, nextAttemptAt: Date) {
            self.eventId = eventId
            self.nextAttemptAt = nextAttemptAt
        }
    }

    /// When a delegate queue's head may be tried again; `.now` clears a retry time.
    public enum RetryMark: Sendable {
        case now
        case at(Date)
    }

    /// Acknowledged by a 2xx, with when.
    public var delivered: [String: Date] = [:]
    /// Failed attempts, in the order they happened.
    public var failures: [Failure] = []
    /// Given up (still readable), with when.
    public var abandoned: [String: Date] = [:]
    /// Per session, the highest `sequence` of its delegate queue now done with.
    public var cursors: [String: Int64] = [:]
    /// Per session, the final retry state of its delegate queue.
    public var delegateRetry: [String: RetryMark] = [:]
    /// Sessions whose delegate URL answered 410 Gone.
    public var disabled: [String: Date] = [:]
    /// Background sessions without launch events whose delegate could not be reached: their events wait
    /// for the client to re-attach instead of being retried (`sessionSendsLaunchEvents = false`).
    public var held: [String: Date] = [:]
    /// Per session, what its delegate's answers taught about its health (successes, failures, reasons).
    public var delegateHealth: [String: DelegateHealthChange] = [:]

    public init() {}

    /// The number of changes held.
    public var count: Int {
        delivered.count + failures.count + abandoned.count + cursors.count + delegateRetry.count + disabled.count
            + held.count + delegateHealth.count
    }

    public var isEmpty: Bool { count == 0 }
}
