/// One of the host's network paths, as NWPath models a phone's: an uplink that sessions' flags
/// (`allowsCellularAccess`, `allowsExpensiveNetworkAccess`, `allowsConstrainedNetworkAccess`) may refuse.
public struct NetworkPath: Sendable, Equatable {
    /// NWInterface's interface types (their names, so a configuration reads like the Apple API).
    public enum InterfaceType: String, Sendable, CaseIterable {
        case wiredEthernet
        case wifi
        case cellular
        case other
    }

    /// How transfers on this path leave the host.
    public enum Binding: Sendable, Equatable {
        /// Bind to this device.
        case interface(String)
        /// Bind to this local IPv4/IPv6 address.
        case sourceAddress(String)
        /// No binding (the implicit path when none is configured).
        case defaultRoute
    }

    public var name: String
    public var binding: Binding
    public var type: InterfaceType
    /// Cellular paths are always expensive (as NWPath reports them).
    public var isExpensive: Bool
    public var isConstrained: Bool
    /// The path's own proxy (a URL such as http://proxy.internal:3128), used as the system proxy for transfers on it.
    public var proxy: String?
    /// Lower is preferred; ties broken by configuration order.
    public var preference: Int

    /// A cellular path is expensive whatever `isExpensive` says, as NWPath reports it.
    public init(
        name: String,
        binding: Binding,
        type: InterfaceType = .other,
        isExpensive: Bool = false,
        isConstrained: Bool = false,
        proxy: String? = nil,
        preference: Int = 0
    ) {
        self.name = name
        self.binding = binding
        self.type = type
        self.isExpensive = isExpensive || type == .cellular
        self.isConstrained = isConstrained
        self.proxy = proxy
        self.preference = preference
    }

    public var isCellular: Bool { type == .cellular }

    /// CURLOPT_INTERFACE's value: "if!eth0" for an interface, "host!10.0.0.2" for a source address, nil for the default route.
    ///
    /// The prefixes stop curl from guessing: a bare name that is not an interface would be resolved as a host.
    public var curlInterface: String? {
        switch binding {
        case .interface(let device): "if!\(device)"
        case .sourceAddress(let address): "host!\(address)"
        case .defaultRoute: nil
        }
    }

    /// The interface name for metrics (the interface, or the address for a source-address path, nil for the default route).
    public var interfaceDescription: String? {
        switch binding {
        case .interface(let device): device
        case .sourceAddress(let address): address
        case .defaultRoute: nil
        }
    }

    /// The implicit path when none is configured: name "default", defaultRoute, type other, no flags, preference 0.
    public static let defaultRoute = NetworkPath(name: "default", binding: .defaultRoute)
}
