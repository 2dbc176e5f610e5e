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
            if socket >= 0 { return socket }
        }
        return Glibc.socket(family, type, proto)
    }

    /// The open Multipath TCP socket connected with `ends`, or nil.
    static func socket(_ ends: ConnectionSockets.Endpoints) -> Int32? {
        guard let socket = ConnectionSockets.socket(ends) else { return nil }
        var proto: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_PROTOCOL, &proto, &size) == 0, proto == protocolNumber else { return nil }
        return socket
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
    /// `connectionEnds`): nil when it has no open Multipath TCP connection, or the connection fell back to
    /// plain TCP.
    public var multipathSubflows: Int? {
        guard let ends = connectionEnds, let socket = MultipathSocket.socket(ends) else { return nil }
        return MultipathSocket.additionalSubflows(of: socket)
    }
}
