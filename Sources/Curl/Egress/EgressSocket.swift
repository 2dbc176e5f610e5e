internal import CCurl
import Foundation

/// The body of every `CURLOPT_OPENSOCKETFUNCTION` of the service (task transfers and webhooks): the
/// resolved address passes the egress policy, or no socket is made and nothing is connected.
///
/// Callers keep their own C callback (it must capture nothing and find its owner through userdata) and
/// call this with the owner's policy, so the rule itself exists once.
enum EgressSocket {
    /// The outcome of one `opensocket` call.
    enum Outcome {
        /// A socket for libcurl to connect (`socket(2)`'s result; `CURL_SOCKET_BAD` when it failed).
        case opened(curl_socket_t)
        /// The policy refused the address; return `CURL_SOCKET_BAD` and remember why.
        case denied(reason: String)
    }

    /// Checks the address libcurl is about to connect to and, when allowed, makes its socket (Multipath TCP
    /// when `multipath` is set and the kernel allows it, see `MultipathSocket`) and registers it with
    /// `ConnectionSockets` (the handle's close-socket callback, `SafetyBaseline`, takes it out).
    static func open(_ address: UnsafeMutablePointer<curl_sockaddr>?, policy: EgressPolicy, multipath: Bool = false) -> Outcome {
        guard let address, let ip = ipAddress(of: address) else {
            return .denied(reason: "not an IPv4 or IPv6 address")
        }
        if case .denied(let reason) = policy.check(ip) { return .denied(reason: reason) }
        let (family, type, proto) = (address.pointee.family, address.pointee.socktype, address.pointee.protocol)
        let socket = MultipathSocket.open(family: family, type: type, protocol: proto, multipath: multipath)
        ConnectionSockets.opened(socket)
        return .opened(socket)
    }

    /// The value an `opensocket` callback returns for `outcome`.
    static func callbackResult(_ outcome: Outcome) -> curl_socket_t {
        switch outcome {
        case .opened(let socket): socket
        case .denied: ccurl_socket_bad()
        }
    }

    /// Reads the address out of libcurl's `struct curl_sockaddr`.
    static func ipAddress(of address: UnsafeMutablePointer<curl_sockaddr>) -> IPAddress? {
        withUnsafeMutablePointer(to: &address.pointee.addr) { pointer -> IPAddress? in
            let raw = UnsafeRawPointer(pointer)
            switch Int32(address.pointee.family) {
            case AF_INET:
                let v4 = raw.loadUnaligned(as: sockaddr_in.self)
                let bytes = withUnsafeBytes(of: v4.sin_addr.s_addr) { Array($0) }
                return IPAddress(ipv4: bytes[0], bytes[1], bytes[2], bytes[3])
            case AF_INET6:
                // libcurl allocates `addrlen` bytes; the Swift view of `addr` is only the 16-byte sockaddr.
                let v6 = raw.loadUnaligned(as: sockaddr_in6.self)
                return IPAddress(bytes: withUnsafeBytes(of: v6.sin6_addr) { Array($0) })
            default:
                return nil
            }
        }
    }
}
