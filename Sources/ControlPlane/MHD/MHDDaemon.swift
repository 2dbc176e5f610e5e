import CMicroHTTPD
import Foundation

/// Wraps `struct MHD_Daemon *`: start with our options, read the bound port, quiesce, stop.
///
/// `@unchecked Sendable`: `raw` is written once at start and read after; MHD's own calls are thread-safe.
final class MHDDaemon: @unchecked Sendable {
    struct Options {
        var host: String
        var port: UInt16
        var threads: UInt32
        var connectionLimit: UInt32
        var perIPConnectionLimit: UInt32
        var idleTimeoutSeconds: UInt32
        /// Bytes per connection for the request line and headers: bounds header size (431 past it).
        var connectionMemoryLimit: Int
    }

    private(set) var raw: OpaquePointer?
    private var quiescedSocket: Int32 = -1
    private(set) var port: UInt16 = 0

    /// Wraps `MHD_start_daemon` (epoll thread pool, suspend/resume, upgrades). `context` is passed to every
    /// callback. `MHD_ALLOW_UPGRADE`: a 101 hands the connection's socket over (`MHD_UpgradeHandler`); a plain
    /// HTTP socket (no TLS here) is then the client's own, which MHD neither reads nor writes until the
    /// application gives it back with `MHD_upgrade_action(CLOSE)`.
    func start(
        _ options: Options, context: UnsafeMutableRawPointer,
        access: MHD_AccessHandlerCallback, completed: MHD_RequestCompletedCallback,
        connectionNotify: MHD_NotifyConnectionCallback
    ) throws {
        var flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
            | MHD_ALLOW_UPGRADE.rawValue
        let address = try SocketAddress(host: options.host, port: options.port)
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        raw = address.withSockaddr { sockaddr in
            cmhd_start_daemon(
                flags, sockaddr, access, context, completed, context, connectionNotify, context,
                options.threads, options.connectionLimit, options.perIPConnectionLimit, options.idleTimeoutSeconds,
                options.connectionMemoryLimit, 1024)
        }
        guard let raw else {
            throw ControlPlaneError(detail: "could not listen on \(options.host):\(options.port) (\(String(cString: strerror(errno))))")
        }
        port = cmhd_daemon_bound_port(raw)
    }

    /// Wraps `MHD_quiesce_daemon`: stop accepting new connections, keep serving the open ones.
    func quiesce() {
        guard let raw, quiescedSocket < 0 else { return }
        quiescedSocket = MHD_quiesce_daemon(raw)
    }

    /// Wraps `MHD_stop_daemon`. Every suspended connection must have been resumed before.
    func stop() {
        guard let raw else { return }
        MHD_stop_daemon(raw)
        self.raw = nil
        if quiescedSocket >= 0 { close(quiescedSocket) }
        quiescedSocket = -1
    }

    deinit { assert(raw == nil, "MHDDaemon released without stop()") }
}

/// An IPv4 or IPv6 address to bind, from a numeric host or `localhost`.
struct SocketAddress {
    private let storage: sockaddr_storage
    let isIPv6: Bool

    init(host: String, port: UInt16) throws {
        var storage = sockaddr_storage()
        let name = host == "localhost" ? "127.0.0.1" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeBytes(of: v4) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            isIPv6 = false
            self.storage = storage
        } else if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeBytes(of: v6) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            isIPv6 = true
            self.storage = storage
        } else {
            throw ControlPlaneError(detail: "the host to bind must be an IP address or localhost, not \(host)")
        }
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}

public struct ControlPlaneError: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { detail }
}
