/// Wakes one waiting task for any of several reasons: events were committed (or reports wait to be), a tick, a deadline, the
/// stream closed, shutdown. Rings that come while nobody waits are kept (merged) for the next `wait()`,
/// so a ring between the waiter's last check and its wait is never lost.
public final class Doorbell: Sendable {
    public struct Reasons: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let events = Reasons(rawValue: 1 << 0)
        public static let tick = Reasons(rawValue: 1 << 1)
        public static let deadline = Reasons(rawValue: 1 << 2)
        public static let closed = Reasons(rawValue: 1 << 3)
        public static let shutdown = Reasons(rawValue: 1 << 4)
    }

    public init() {}

    private let state = LockedBox<(rung: Reasons, waiter: CheckedContinuation<Reasons, Never>?)>(([], nil))

    public func ring(_ reason: Reasons) {
        let woken = state.withLock { state -> (CheckedContinuation<Reasons, Never>, Reasons)? in
            state.rung.formUnion(reason)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            defer { state.rung = [] }
            return (waiter, state.rung)
        }
        if let (waiter, reasons) = woken { waiter.resume(returning: reasons) }
    }

    /// Returns every reason rung since the previous `wait()`, waiting for the first if there is none.
    /// One waiter at a time.
    public func wait() async -> Reasons {
        await withCheckedContinuation { (continuation: CheckedContinuation<Reasons, Never>) in
            let rung = state.withLock { state -> Reasons? in
                guard state.rung.isEmpty else {
                    defer { state.rung = [] }
                    return state.rung
                }
                state.waiter = continuation
                return nil
            }
            if let rung { continuation.resume(returning: rung) }
        }
    }
}
