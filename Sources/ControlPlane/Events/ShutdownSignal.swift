import TransferModels

/// Graceful shutdown as the handlers that wait see it (event long-polls and streams): once triggered,
/// every registered doorbell rings with `.shutdown` and they answer at once instead of holding the stop.
final class ShutdownSignal: Sendable {
    private struct State {
        var isTriggered = false
        var doorbells: [ObjectIdentifier: Doorbell] = [:]
    }
    private let state = LockedBox(State())

    var isTriggered: Bool { state.withLock { $0.isTriggered } }

    /// Rings every registered doorbell; later registrations ring at once.
    func trigger() {
        let doorbells = state.withLock { state in
            state.isTriggered = true
            return Array(state.doorbells.values)
        }
        for doorbell in doorbells { doorbell.ring(.shutdown) }
    }

    func register(_ doorbell: Doorbell) {
        let triggered = state.withLock { state in
            state.doorbells[ObjectIdentifier(doorbell)] = doorbell
            return state.isTriggered
        }
        if triggered { doorbell.ring(.shutdown) }
    }

    func unregister(_ doorbell: Doorbell) {
        state.withLock { _ = $0.doorbells.removeValue(forKey: ObjectIdentifier(doorbell)) }
    }
}
