import Curl
import Foundation
import TransferModels

// A proxy must not be a way around the egress policy. Without a proxy, every address libcurl connects to
// passes the policy (`SafetyBaseline`'s opensocket check); through a proxy, libcurl connects to the proxy
// alone and the proxy reaches the target. So before a request leaves through a proxy, its target is held
// to the same policy: an address as written, a name as the service resolves it (getaddrinfo, off the loop
// thread; every address it gives must pass). The proxy's own address is still checked at connect time.

extension Transfer {
    /// The host this request's proxy would reach for it; nil when the request goes direct.
    var proxiedTargetHost: String? {
        guard job.proxy != nil, let host = URLComponents(string: request.url)?.host, !host.isEmpty,
            !ProxyExceptions.exempts(host, list: job.noProxy)
        else { return nil }
        return host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    }

    /// The failure of a request whose proxied target the policy forbids.
    func proxiedTargetDenied(_ host: String, _ reason: String) -> TransferFailure {
        TransferFailure(
            code: URLErrorCode.cannotConnectToHost.rawValue, curlCode: 7,
            message: "the egress policy forbids \(host) through the proxy: \(reason)", reason: "egressPolicy")
    }
}

/// Verdicts on proxied targets: an address is judged at once; a name's addresses are resolved on a
/// background queue and the verdict kept for a minute (names of one task's redirects repeat).
struct ProxiedTargetCheck {
    enum Outcome {
        case allowed
        case denied(String)
        /// Resolving; `CurlMultiLoop` gets the verdict as a command.
        case pending
    }

    private var verdicts: [String: (verdict: EgressPolicy.Verdict, until: ContinuousClock.Instant)] = [:]
    private var resolving: Set<String> = []
    private static let queue = DispatchQueue(label: "urlsessiond.proxied-targets", attributes: .concurrent)

    /// The verdict for `host` now, or `.pending` after starting its resolution (`done` is called with
    /// the verdict from another thread).
    mutating func check(
        _ host: String, policy: EgressPolicy, done: @escaping @Sendable (String, EgressPolicy.Verdict) -> Void
    ) -> Outcome {
        if let address = IPAddress(host) { return Self.outcome(policy.check(address)) }
        let now = ContinuousClock.now
        if let known = verdicts[host.lowercased()], known.until > now { return Self.outcome(known.verdict) }
        guard resolving.insert(host.lowercased()).inserted else { return .pending }
        Self.queue.async { done(host, Self.resolveAndCheck(host, policy: policy)) }
        return .pending
    }

    /// The verdict for `host`, resolving a name on the calling thread (which may block: a WebSocket's
    /// connect thread).
    static func blockingVerdict(_ host: String, policy: EgressPolicy) -> EgressPolicy.Verdict {
        if let address = IPAddress(host) { return policy.check(address) }
        return resolveAndCheck(host, policy: policy)
    }

    /// Keeps a resolution's verdict.
    mutating func record(_ host: String, _ verdict: EgressPolicy.Verdict) {
        resolving.remove(host.lowercased())
        verdicts[host.lowercased()] = (verdict, .now + .seconds(60))
        if verdicts.count > 4096 { verdicts = verdicts.filter { $0.value.until > .now } }
    }

    private static func outcome(_ verdict: EgressPolicy.Verdict) -> Outcome {
        switch verdict {
        case .allowed: .allowed
        case .denied(let reason): .denied(reason)
        }
    }

    /// Every address the name resolves to must pass; a name that does not resolve is left to the proxy
    /// (it can reach nothing by it that the service could).
    private static func resolveAndCheck(_ host: String, policy: EgressPolicy) -> EgressPolicy.Verdict {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return .allowed }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = Self.address(current.pointee.ai_addr), case .denied(let reason) = policy.check(address) {
                return .denied(reason: "\(host) resolves to \(reason)")
            }
            entry = current.pointee.ai_next
        }
        return .allowed
    }

    private static func address(_ socketAddress: UnsafeMutablePointer<sockaddr>?) -> IPAddress? {
        guard let socketAddress else { return nil }
        let raw = UnsafeRawPointer(socketAddress)
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let v4 = raw.loadUnaligned(as: sockaddr_in.self)
            return withUnsafeBytes(of: v4.sin_addr.s_addr) { IPAddress(ipv4: $0[0], $0[1], $0[2], $0[3]) }
        case AF_INET6:
            let v6 = raw.loadUnaligned(as: sockaddr_in6.self)
            return IPAddress(bytes: withUnsafeBytes(of: v6.sin6_addr) { Array($0) })
        default:
            return nil
        }
    }
}
