import TransferModels

/// Graceful shutdown as the handlers that wait see it (event long-polls and streams): once triggered,
/// every registered doorbell rings with `.shutdown` and they answer at once instead of holding the stop.
final class ShutdownSignal: Sendable {
    private struct State {
        var isTriggered = false
        var doorbells: [ObjectIdentifier: Doorbell] = [:]
        var actions: [@Sendable () -> Void] = []
    }
    private let state = LockedBox(State())

    var isTriggered: Bool { state.withLock { $0.isTriggered } }

    /// Rings every registered doorbell and runs the actions; later registrations ring (run) at once.
    func trigger() {
        let (doorbells, actions) = state.withLock { state in
            state.isTriggered = true
            defer { state.actions = [] }
            return (Array(state.doorbells.values), state.actions)
        }
        for doorbell in doorbells { doorbell.ring(.shutdown) }
        for action in actions { action() }
    }

    /// Runs `action` when graceful shutdown begins (for what has no task to wake: the relays' thread).
    /// It must not block.
    func onTrigger(_ action: @escaping @Sendable () -> Void) {
        let triggered = state.withLock { state in
            if !state.isTriggered { state.actions.append(action) }
            return state.isTriggered
        }
        if triggered { action() }
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
