#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The kernel's view of the host's interfaces, read through getifaddrs(3).
public enum InterfaceStates {
    /// One getifaddrs() snapshot: interface name → state. Interfaces without an address appear too (from their AF_PACKET entry) with `addresses` empty.
    ///
    /// An empty dictionary when getifaddrs fails: every interface path then reads as down, which is the safe reading.
    public static func current() -> [String: InterfaceState] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [:] }
        defer { freeifaddrs(list) }

        var states: [String: InterfaceState] = [:]
        var entry = list
        while let current = entry {
            entry = current.pointee.ifa_next
            guard let cName = current.pointee.ifa_name else { continue }
            let name = String(cString: cName)
            let flags = UInt32(current.pointee.ifa_flags)
            let running = UInt32(IFF_UP) | UInt32(IFF_RUNNING)
            var state = states[name] ?? InterfaceState(isUp: false, addresses: [])
            state.isUp = state.isUp || flags & running == running
            if let address = current.pointee.ifa_addr.flatMap(routableAddress), !state.addresses.contains(address) {
                state.addresses.append(address)
            }
            states[name] = state
        }
        return states
    }

    /// The IPv4 or IPv6 literal of `sockaddr`, nil for other families (AF_PACKET) and for IPv6 link-local
    /// addresses, which need a scope and cannot serve as a path's source address.
    private static func routableAddress(_ sockaddr: UnsafeMutablePointer<sockaddr>) -> String? {
        switch Int32(sockaddr.pointee.sa_family) {
        case AF_INET:
            return sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                withUnsafeBytes(of: ipv4.pointee.sin_addr) { IPAddress.text(family: AF_INET, bytes: $0.baseAddress!) }
            }
        case AF_INET6:
            return sockaddr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { bytes -> String? in
                    let isLinkLocal = bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80
                    return isLinkLocal ? nil : IPAddress.text(family: AF_INET6, bytes: bytes.baseAddress!)
                }
            }
        default:
            return nil
        }
    }
}
