// What the session verbs of the store answer, read by the application layer and the control plane.

/// The outcome of `createSession`: a new session, or the live background session with that identifier.
public enum SessionCreation: Sendable {
    case created(SessionRecord)
    case reattached(SessionRecord)
    /// Re-attached, and the delegate given replaced the stored one (a client back at another address):
    /// signed from now on with the secret given to `createSession`.
    case reattachedWithNewDelegate(SessionRecord)
}

/// The outcome of `updateSession`.
public struct SessionUpdateOutcome: Sendable {
    public var record: SessionRecord
    /// The secret the store made for a delegate given without one to a session that had none: the
    /// client sees it once, in this answer.
    public var generatedSecret: String?

    public init(record: SessionRecord, generatedSecret: String?) {
        (self.record, self.generatedSecret) = (record, generatedSecret)
    }
}

/// The outcome of `redeliverDelegateEvents`.
public enum RedeliveryOutcome: Sendable {
    /// The queue starts again from its cursor; the session as it is now.
    case restarted(SessionRecord)
    /// The session has no delegate to send to.
    case noDelegate
    /// No such session for this tenant.
    case notFound
}

/// A session with its delegate's delivery state, read from the same row.
public struct SessionWithDelivery: Sendable {
    public var record: SessionRecord
    /// Nil when the session has no delegate.
    public var delivery: DelegateDeliveryRecord?

    public init(record: SessionRecord, delivery: DelegateDeliveryRecord?) {
        (self.record, self.delivery) = (record, delivery)
    }
}
