internal import CCurl
import Foundation
import TransferModels

/// Multipath TCP sockets (Linux, `IPPROTO_MPTCP`): how a session whose `multipathServiceType` is not
/// `none` opens its connections, and what the kernel says of their subflows afterwards.
///
/// The kernel does the rest: a peer that does not answer MP_CAPABLE gets plain TCP on the same socket
/// (fallback), and the extra subflows come from the path manager's endpoints (`MultipathEndpoints`).
enum MultipathSocket {
    /// `IPPROTO_MPTCP` (<linux/in.h>; Glibc does not name it on every release).
    static let protocolNumber: Int32 = 262
    /// `SOL_MPTCP` and `MPTCP_INFO` (<linux/mptcp.h>).
    static let optionLevel: Int32 = 284
    static let infoOption: Int32 = 1

    /// `socket(2)` for libcurl's address: Multipath TCP for a TCP stream when `multipath` is set, and plain
    /// TCP when the kernel refuses it (MPTCP disabled by `net.mptcp.enabled`, or a kernel without it).
    static func open(family: Int32, type: Int32, protocol proto: Int32, multipath: Bool) -> curl_socket_t {
        let isStream = type & 0xF == Int32(SOCK_STREAM.rawValue)  // flags such as SOCK_CLOEXEC ride in the high bits
        let isTCP = proto == 0 || proto == Int32(IPPROTO_TCP)
        if multipath, isStream, isTCP, family == AF_INET || family == AF_INET6 {
            let socket = Glibc.socket(family, type, protocolNumber)
            if socket >= 0 {
                opened.withLock { _ = $0.insert(socket) }
                return socket
            }
        }
        return Glibc.socket(family, type, proto)
    }

    /// The Multipath TCP sockets this process opened, by descriptor, so a transfer can find its connection's
    /// socket mid-transfer (libcurl 7.88's `CURLINFO_ACTIVESOCKET` answers only once a transfer is done and
    /// its handle still in the multi). A descriptor closed since is dropped when a look-up finds it is no
    /// longer an MPTCP socket; no close callback is needed, since only this process opens MPTCP sockets.
    private static let opened = LockedBox<Set<Int32>>([])

    /// The open Multipath TCP socket connected from `localPort` to `remoteAddress`:`remotePort`, or nil.
    static func socket(localPort: Int, remoteAddress: String, remotePort: Int) -> Int32? {
        let candidates = opened.withLock { $0 }
        var stale: [Int32] = []
        defer { if !stale.isEmpty { opened.withLock { $0.subtract(stale) } } }
        for socket in candidates {
            var proto: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(socket, SOL_SOCKET, SO_PROTOCOL, &proto, &size) == 0, proto == protocolNumber else {
                stale.append(socket)
                continue
            }
            guard let local = endpoint(of: socket, getsockname), let remote = endpoint(of: socket, getpeername) else { continue }
            if local.port == localPort, remote.port == remotePort, remote.address == remoteAddress { return socket }
        }
        return nil
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

    /// The subflows the kernel added to the connection on `socket` beyond its first (`struct mptcp_info`'s
    /// `mptcpi_subflows`), or nil when the socket is not Multipath TCP or fell back to plain TCP (the
    /// kernel answers `EOPNOTSUPP` then).
    static func additionalSubflows(of socket: Int32) -> Int? {
        var info = [UInt8](repeating: 0, count: 256)  // struct mptcp_info grows; its first byte is what we read
        var length = socklen_t(info.count)
        let result = info.withUnsafeMutableBytes { getsockopt(socket, optionLevel, infoOption, $0.baseAddress, &length) }
        guard result == 0, length > 0 else { return nil }
        return Int(info[0])
    }
}

extension CurlEasyHandle {
    /// New sockets of the transfer are Multipath TCP (`IPPROTO_MPTCP`), where the kernel allows it. Call
    /// after `apply(_:)` (the open-socket callback it installs reads this); `reset()` clears it.
    public func setMultipath(_ on: Bool) {
        opensMultipathSockets = on
    }

    /// The extra subflows of the transfer's connection (`MPTCP_INFO` on the Multipath TCP socket with its
    /// local port and remote address, `CURLINFO_LOCAL_PORT`, `CURLINFO_PRIMARY_IP`, `CURLINFO_PRIMARY_PORT`):
    /// nil when it has no open Multipath TCP connection, or the connection fell back to plain TCP.
    public var multipathSubflows: Int? {
        guard let remote = info(.remoteAddress),
            let socket = MultipathSocket.socket(localPort: info(.localPort), remoteAddress: remote, remotePort: info(.remotePort))
        else { return nil }
        return MultipathSocket.additionalSubflows(of: socket)
    }
}
