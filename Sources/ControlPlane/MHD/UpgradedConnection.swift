import CMicroHTTPD
import Foundation
import TransferModels

/// A connection MHD handed over after a 101 (`MHD_UpgradeHandler`): its socket, the bytes MHD had read
/// past the request head (the client may send frames before it sees the 101), and the close that gives
/// the socket back to MHD, which closes it and completes the request (NOTIFY_COMPLETED).
///
/// The socket is the client's own TCP socket (the daemon serves no TLS): MHD neither reads nor writes it
/// until `close()`, and counts the connection as suspended meanwhile (no idle timeout applies). It must not
/// be `close(2)`d directly, nor used after `close()`.
///
/// `@unchecked Sendable`: `socket`, `initialBytes` and `handle` never change; `close()` is once only
/// (locked), and `MHD_upgrade_action` may be called from any thread (it resumes the connection).
final class UpgradedConnection: @unchecked Sendable {
    let socket: Int32
    let initialBytes: [UInt8]
    private let handle: OpaquePointer
    private let isClosed = LockedBox(false)

    init(socket: Int32, initialBytes: [UInt8], handle: OpaquePointer) {
        self.socket = socket
        self.initialBytes = initialBytes
        self.handle = handle
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        // MHD turns Nagle's algorithm back on for the upgrade; a relay writes whole frames, and a small one
        // held for the peer's delayed ACK would add its wait to the message's round trip.
        var noDelay: Int32 = 1
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Wraps `MHD_upgrade_action(MHD_UPGRADE_ACTION_CLOSE)`: the owner is done with the socket.
    func close() {
        let first = isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { _ = cmhd_upgrade_close(handle) }
    }

    deinit { assert(isClosed.withLock { $0 }, "UpgradedConnection released without close()") }
}

/// MHD's upgrade handler: called on an MHD thread once the 101 was sent. It captures nothing (see
/// `MHDCallbacks.swift`); the request's context comes back from `con_cls`, and its `upgrade` takes the
/// connection over (without one, the socket is given back at once).
let mhdUpgradeHandler: MHD_UpgradeHandler = { _, _, conCls, extraIn, extraInSize, socket, handle in
    guard let handle else { return }
    let initial = extraIn.map { Array(UnsafeRawBufferPointer(start: $0, count: extraInSize)) } ?? []
    let connection = UpgradedConnection(socket: socket, initialBytes: initial, handle: handle)
    guard let conCls else { return connection.close() }
    let context = Unmanaged<RequestContext>.fromOpaque(conCls).takeUnretainedValue()
    guard let upgrade = context.upgrade else { return connection.close() }
    upgrade.takeOver(connection)
}
