/// What the kernel's Multipath TCP path manager should hold for the service's paths, and the steps from
/// what it holds: a pure value, so the policy is tested without a kernel (docs/ARCHITECTURE.md,
/// "Multipath TCP").
///
/// One endpoint (`ip mptcp endpoint add ADDR dev IF subflow [backup]`) per address of every available
/// path bound to an interface or a source address (the default route names no address; loopback
/// addresses carry nothing between hosts). The most preferred available path's endpoints are never
/// backups; the others are backups unless some interactive or aggregate transfer is in use
/// (`allPathsActive`), because the kernel's endpoints belong to the network namespace, not to a socket.
public struct MultipathEndpointPlan: Sendable, Equatable {
    /// One wanted endpoint.
    public struct Endpoint: Sendable, Hashable {
        public var address: String
        public var device: String?
        public var isBackup: Bool

        public init(address: String, device: String?, isBackup: Bool) {
            (self.address, self.device, self.isBackup) = (address, device, isBackup)
        }
    }

    /// One endpoint the kernel holds (`ip -j mptcp endpoint show`).
    public struct Installed: Sendable, Hashable {
        public var id: Int
        public var address: String
        public var device: String?
        public var isSubflow: Bool
        public var isBackup: Bool

        public init(id: Int, address: String, device: String?, isSubflow: Bool, isBackup: Bool) {
            (self.id, self.address, self.device, self.isSubflow, self.isBackup) = (id, address, device, isSubflow, isBackup)
        }
    }

    /// A change to make, in order.
    public enum Step: Sendable, Hashable {
        case add(Endpoint, id: Int)
        case setBackup(id: Int, Bool)
        case delete(id: Int)
    }

    public var endpoints: [Endpoint]

    /// The endpoints for these path states (most preferred first, as the monitor keeps them).
    public init(states: [NetworkPathState], interfaces: [String: InterfaceState], allPathsActive: Bool) {
        var endpoints: [Endpoint] = []
        var isPrimary = true
        for state in states where state.isAvailable {
            let bound: [(address: String, device: String?)]
            switch state.path.binding {
            case .defaultRoute:
                continue
            case .interface(let device):
                bound = (interfaces[device]?.addresses ?? []).map { ($0, device) }
            case .sourceAddress(let literal):
                let address = IPAddress.canonical(literal) ?? literal
                bound = [(address, interfaces.first { $0.value.addresses.contains(address) }?.key)]
            }
            let usable = bound.filter { !Self.isLoopback($0.address) && !endpoints.map(\.address).contains($0.address) }
            guard !usable.isEmpty else { continue }
            endpoints += usable.map { Endpoint(address: $0.address, device: $0.device, isBackup: !isPrimary && !allPathsActive) }
            isPrimary = false
        }
        self.endpoints = endpoints
    }

    /// The steps that make the kernel hold `endpoints`, touching only the endpoints the service added
    /// (`ours`, by id): an operator's endpoint for the same address is left as it is.
    public func steps(from installed: [Installed], ours: Set<Int>) -> [Step] {
        var steps: [Step] = []
        var used = Set(installed.map(\.id))
        for mine in installed where ours.contains(mine.id) {
            guard let wanted = endpoints.first(where: { $0.address == mine.address }), wanted.device == mine.device else {
                steps.append(.delete(id: mine.id))
                used.remove(mine.id)
                continue
            }
            if wanted.isBackup != mine.isBackup { steps.append(.setBackup(id: mine.id, wanted.isBackup)) }
        }
        let held = Set(installed.filter { !steps.contains(.delete(id: $0.id)) }.map(\.address))
        for endpoint in endpoints where !held.contains(endpoint.address) {
            guard let id = (1...255).first(where: { !used.contains($0) }) else { break }
            used.insert(id)
            steps.append(.add(endpoint, id: id))
        }
        return steps
    }

    /// `ip mptcp limits`' `subflows`: one per endpoint (the kernel's maximum is 8).
    public var subflowLimit: Int { min(8, endpoints.count) }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1"
    }
}
