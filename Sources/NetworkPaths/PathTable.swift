/// Every path's state, most preferred first: the monitor's state machine, mutated under its lock.
///
/// Each input returns the availability changes it caused, so the monitor logs and notifies outside the lock.
struct PathTable {
    /// Why a path's availability changed (the `path.cause` log metadata).
    enum Cause: String {
        case link
        case admin
    }

    struct Change {
        let state: NetworkPathState
        let cause: Cause
    }

    private(set) var states: [NetworkPathState]

    /// Sorts by preference, keeping configuration order among equals, and takes the link state from `interfaces`.
    init(paths: [NetworkPath], interfaces: [String: InterfaceState]) {
        let ordered = paths.enumerated().sorted { ($0.element.preference, $0.offset) < ($1.element.preference, $1.offset) }
        self.states = ordered.map { NetworkPathState(path: $0.element, isLinkUp: Self.isLinkUp($0.element, interfaces)) }
    }

    func state(named name: String) -> NetworkPathState? {
        states.first { $0.path.name == name }
    }

    /// A new kernel snapshot: every path's link state is recomputed.
    mutating func apply(_ interfaces: [String: InterfaceState]) -> [Change] {
        var changes: [Change] = []
        for index in states.indices {
            let linkUp = Self.isLinkUp(states[index].path, interfaces)
            if states[index].update(isLinkUp: linkUp, adminOverride: states[index].adminOverride) {
                changes.append(Change(state: states[index], cause: .link))
            }
        }
        return changes
    }

    /// Sets or clears one path's override; nil when no path has that name.
    mutating func setOverride(_ name: String, available: Bool?) -> (state: NetworkPathState, change: Change?)? {
        guard let index = states.firstIndex(where: { $0.path.name == name }) else { return nil }
        let changed = states[index].update(isLinkUp: states[index].isLinkUp, adminOverride: available)
        return (states[index], changed ? Change(state: states[index], cause: .admin) : nil)
    }

    /// Up and addressed: a bound socket on a down or unaddressed interface cannot reach anything.
    static func isLinkUp(_ path: NetworkPath, _ interfaces: [String: InterfaceState]) -> Bool {
        switch path.binding {
        case .defaultRoute:
            return true
        case .interface(let device):
            guard let state = interfaces[device] else { return false }
            return state.isUp && !state.addresses.isEmpty
        case .sourceAddress(let address):
            // The kernel writes addresses canonically; the configuration may not.
            let wanted = IPAddress.canonical(address) ?? address
            return interfaces.values.contains { $0.isUp && $0.addresses.contains(wanted) }
        }
    }
}
