import TransferModels

/// Wakes one waiting task for any of several reasons: events were committed, a tick, a deadline, the
/// stream closed, shutdown. Rings that come while nobody waits are kept (merged) for the next `wait()`,
/// so a ring between the waiter's last check and its wait is never lost.
final class Doorbell: Sendable {
    struct Reasons: OptionSet, Sendable {
        let rawValue: UInt8
        static let events = Reasons(rawValue: 1 << 0)
        static let tick = Reasons(rawValue: 1 << 1)
        static let deadline = Reasons(rawValue: 1 << 2)
        static let closed = Reasons(rawValue: 1 << 3)
        static let shutdown = Reasons(rawValue: 1 << 4)
    }

    private let state = LockedBox<(rung: Reasons, waiter: CheckedContinuation<Reasons, Never>?)>(([], nil))

    func ring(_ reason: Reasons) {
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
    func wait() async -> Reasons {
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
