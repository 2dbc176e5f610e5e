public import Foundation
public import TransferModels

/// What a batch of POSTs to one session's delegate taught about its health, written with the rest of the
/// batch's outcomes (`recordDeliveries`) in the same statement per session: the success time, the failed
/// attempts since, and the last failure.
public struct DelegateHealthChange: Sendable, Hashable {
    /// The batch's last 2xx; nil: none in this batch (the stored one stays).
    public private(set) var deliveredAt: Date?
    /// Failed attempts after `deliveredAt`, or in the whole batch when it has no success (then added to
    /// the stored count rather than replacing it).
    public private(set) var failures = 0
    /// The batch's last failed attempt; nil: none (the stored one stays).
    public private(set) var lastFailure: DelegateDelivery.Failure?

    public init() {}

    /// A 2xx at `at`: the failures before it no longer count.
    public mutating func delivered(at: Date) {
        deliveredAt = at
        failures = 0
    }

    /// A failed attempt at `at`.
    public mutating func failed(at: Date, reason: String) {
        failures += 1
        lastFailure = DelegateDelivery.Failure(at: at, reason: reason)
    }

    /// This change followed by `later` (a batch that could not be written, taken back under the next).
    public func followed(by later: DelegateHealthChange) -> DelegateHealthChange {
        guard later.deliveredAt == nil else { return later }
        var merged = self
        merged.failures += later.failures
        merged.lastFailure = later.lastFailure ?? lastFailure
        return merged
    }
}
