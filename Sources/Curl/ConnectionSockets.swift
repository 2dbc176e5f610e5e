internal import CCurl
import Foundation
import Synchronization
import TransferModels

/// The sockets libcurl connects through this module (its open-socket and close-socket callbacks), so a
/// request can reach its connection's socket whether the connection is new or reused: libcurl 7.88 names
/// a connection only by its addresses and ports (`CURLOPT_PREREQFUNCTION`, `CURLINFO_LOCAL_PORT`, …), and
/// its `CURLINFO_ACTIVESOCKET` answers only once a transfer is done.
///
/// Also what each socket's receive buffer is held to. A bandwidth-limited request bounds its socket's
/// `SO_RCVBUF` (see `CurlEasyHandle.setReceiveBufferLimit`), which locks the buffer's size for as long as
/// the socket lives; since the connection goes back to the session's pool afterwards, the next request
/// on it sets the bound it needs before it is sent: its own limit's, or none (the lock cleared, so the
/// kernel's autotuning grows the buffer again).
enum ConnectionSockets {
    /// A connected socket's two ends, as libcurl and `getsockname`/`getpeername` give them.
    struct Endpoints: Hashable {
        var localAddress: String
        var localPort: Int
        var remoteAddress: String
        var remotePort: Int
    }

    private struct Registry {
        /// Opened, not yet looked up by their ends (still connecting, or not yet asked for).
        var unnamed: Set<Int32> = []
        var byEndpoints: [Endpoints: Int32] = [:]
        var endpoints: [Int32: Endpoints] = [:]
        /// The sockets whose receive buffer is bounded (and locked), with the bound.
        var bounds: [Int32: Int32] = [:]

        mutating func remove(_ socket: Int32) {
            unnamed.remove(socket)
            bounds[socket] = nil
            if let ends = endpoints.removeValue(forKey: socket) { byEndpoints[ends] = nil }
        }

        /// Sets `socket`'s receive bound when it holds another.
        mutating func hold(_ socket: Int32, to bytes: Int32?) {
            guard bounds[socket] != bytes else { return }
            if let bytes {
                if ConnectionSockets.setReceiveBuffer(of: socket, to: bytes) { bounds[socket] = bytes }
            } else {
                ConnectionSockets.releaseReceiveBuffer(of: socket)
                bounds[socket] = nil
            }
        }

        /// The socket connected with `ends`: named once, on the first look-up after it connected.
        mutating func socket(for ends: Endpoints) -> Int32? {
            if let socket = byEndpoints[ends] { return socket }
            for socket in unnamed {
                guard let named = ConnectionSockets.endpoints(of: socket) else { continue }  // still connecting
                unnamed.remove(socket)
                endpoints[socket] = named
                byEndpoints[named] = socket
            }
            return byEndpoints[ends]
        }
    }

    private static let registry = LockedBox(Registry())
    /// How many sockets hold a bound, kept beside the registry so that a request that wants none, while no
    /// socket holds one (a service without limits), passes without taking the registry's lock.
    private static let boundedSockets = Atomic<Int>(0)

    /// Whether some socket may hold a receive bound now.
    static var anySocketBounded: Bool { boundedSockets.load(ordering: .relaxed) > 0 }

    /// Runs `change` on the registry under its lock, and keeps `boundedSockets` in step.
    private static func changing<T>(_ change: (inout Registry) -> T) -> T {
        registry.withLock { registry in
            defer { boundedSockets.store(registry.bounds.count, ordering: .relaxed) }
            return change(&registry)
        }
    }

    /// libcurl's open-socket callback made `socket`. What the registry knew of that descriptor number is
    /// forgotten first: a new descriptor is no live socket's, so anything known of it is stale (every
    /// connection closes through the close-socket callback, which libcurl copies into the connection, but a
    /// stale entry would name another connection's socket).
    static func opened(_ socket: Int32) {
        guard socket >= 0 else { return }
        changing { registry in
            registry.remove(socket)
            registry.unnamed.insert(socket)
        }
    }

    /// libcurl's close-socket callback is about to close `socket` (before the descriptor can be reused).
    static func closing(_ socket: Int32) {
        changing { $0.remove(socket) }
    }

    /// The open socket connected with `ends`, or nil when this module did not open it.
    static func socket(_ ends: Endpoints) -> Int32? {
        registry.withLock { $0.socket(for: ends) }
    }

    /// Bounds a new socket's receive buffer before it connects.
    static func bound(_ socket: Int32, to bytes: Int32) {
        changing { $0.hold(socket, to: bytes) }
    }

    /// The socket of the connection with `ends` (nil: this module did not open it), given the receive bound
    /// of the request about to use it (nil: none) when it holds another.
    static func take(_ ends: Endpoints, bound bytes: Int32?) -> Int32? {
        changing { registry in
            guard let socket = registry.socket(for: ends) else { return nil }
            registry.hold(socket, to: bytes)
            return socket
        }
    }

    /// Gives `socket` (a connection a request is using now) the receive bound `bytes` (nil: none): a
    /// transfer's share changed while it runs.
    static func hold(_ socket: Int32, to bytes: Int32?) {
        changing { registry in
            guard registry.endpoints[socket] != nil else { return }  // closed since
            registry.hold(socket, to: bytes)
        }
    }

    // MARK: The kernel

    /// `SO_RCVBUF` (the kernel doubles it for its own bookkeeping and locks it: no autotuning).
    fileprivate static func setReceiveBuffer(of socket: Int32, to bytes: Int32) -> Bool {
        var bytes = bytes
        return setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// `SO_BUF_LOCK` (Linux 5.14+) cleared: the kernel's autotuning grows the buffer again from where it
    /// is. Where the kernel cannot clear it (a Multipath TCP socket, an older kernel), the buffer is set as
    /// large as `net.core.rmem_max` lets a socket ask for, which is what an unlimited request needs.
    fileprivate static func releaseReceiveBuffer(of socket: Int32) {
        var unlocked: Int32 = 0
        let size = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(socket, SOL_SOCKET, bufferLockOption, &unlocked, size) == 0 { return }
        var largest = Int32.max  // the kernel takes the least of this and rmem_max
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &largest, size)
    }

    /// `SO_BUF_LOCK` (<asm-generic/socket.h>; Glibc does not name it on every release).
    static let bufferLockOption: Int32 = 72

    /// The local and remote address and port of a connected socket; nil when it is not connected (yet).
    static func endpoints(of socket: Int32) -> Endpoints? {
        guard let local = endpoint(of: socket, getsockname), let remote = endpoint(of: socket, getpeername) else { return nil }
        return Endpoints(localAddress: local.address, localPort: local.port, remoteAddress: remote.address, remotePort: remote.port)
    }

    /// The address and port `name` (`getsockname` or `getpeername`) gives for `socket`.
    private static func endpoint(
        of socket: Int32, _ name: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> (address: String, port: Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name(socket, $0, &length) }
        }
        guard named == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: &storage) { raw -> (String, Int)? in
            switch family {
            case AF_INET:
                var v4 = raw.loadUnaligned(as: sockaddr_in.self)
                guard inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
                return (Self.string(text), Int(UInt16(bigEndian: v4.sin_port)))
            case AF_INET6:
                var v6 = raw.loadUnaligned(as: sockaddr_in6.self)
                guard inet_ntop(AF_INET6, &v6.sin6_addr, &text, socklen_t(text.count)) != nil else { return nil }
                return (Self.string(text), Int(UInt16(bigEndian: v6.sin6_port)))
            default:
                return nil
            }
        }
    }

    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension CurlEasyHandle {
    /// The ends of the connection of its current or last request (`CURLINFO_LOCAL_IP`, `CURLINFO_LOCAL_PORT`,
    /// `CURLINFO_PRIMARY_IP`, `CURLINFO_PRIMARY_PORT`); nil before it connected.
    var connectionEnds: ConnectionSockets.Endpoints? {
        guard info(.localPort) > 0, let local = info(.localAddress), let remote = info(.remoteAddress) else { return nil }
        return .init(localAddress: local, localPort: info(.localPort), remoteAddress: remote, remotePort: info(.remotePort))
    }

    /// `CURLOPT_CLOSESOCKETFUNCTION`, so `ConnectionSockets` forgets a socket before its descriptor is
    /// reused. libcurl copies it into each connection it opens, so it runs even after this handle is gone
    /// (it carries no data for that reason).
    func installCloseSocketCallback() throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_closesocket_function(raw, curlCloseSocketCallback))
    }
}

private let curlCloseSocketCallback: curl_closesocket_callback = { _, socket in
    ConnectionSockets.closing(socket)
    return close(socket)
}
