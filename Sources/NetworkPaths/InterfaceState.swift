/// What the kernel says of one network interface: enough to tell whether a path bound to it can carry traffic.
public struct InterfaceState: Sendable, Equatable {
    /// IFF_UP and IFF_RUNNING (operstate up/unknown).
    public var isUp: Bool
    /// IPv4 and IPv6 literals, IPv6 link-local (fe80::/10) excluded.
    public var addresses: [String]

    public init(isUp: Bool, addresses: [String]) {
        self.isUp = isUp
        self.addresses = addresses
    }
}
