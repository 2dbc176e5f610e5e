internal import CCurl
import Foundation

extension CurlEasyHandle {
    /// Bounds the receive buffer (`SO_RCVBUF`) of the transfer's sockets; nil leaves the kernel's
    /// autotuning (on this host up to `tcp_rmem`'s 32 MiB). A bandwidth-limited transfer reads slowly; with
    /// a large buffer the origin would send megabytes ahead at full speed, so its own measurement would not
    /// show the limit. Call after `reset()` and `setTrafficClass`.
    ///
    /// A new socket gets the bound before it connects (`CURLOPT_SOCKOPTFUNCTION`, as the traffic class).
    /// Connections are pooled by session, and `SO_RCVBUF` locks the buffer's size for the socket's life, so
    /// every request — limited or not — also sets its own bound on a reused connection before it is sent
    /// (`CURLOPT_PREREQFUNCTION`, `ConnectionSockets.take`): a limited request does not inherit a buffer
    /// the kernel grew, and an unlimited one does not inherit a limited request's small window.
    public func setReceiveBufferLimit(_ bytes: Int32?) throws(CurlError) {
        receiveBufferLimit = bytes
        if bytes != nil { try installSocketOptionCallback() }
        try installPrerequestCallback()
    }

    /// Changes the bound while the transfer runs (no option is set): on the connection its request uses
    /// now, and on the sockets and requests still to come. A new socket gets it before it connects only
    /// when the handle was set up with a bound (`setReceiveBufferLimit`); otherwise at its first request.
    /// Lowering the bound on a live connection holds from the window the kernel advertises next (TCP
    /// does not take back a window already advertised).
    public func updateReceiveBufferLimit(_ bytes: Int32?) {
        guard bytes != receiveBufferLimit else { return }
        receiveBufferLimit = bytes
        if connectionSocket == nil { connectionSocket = currentConnectionSocket }
        if let connectionSocket { ConnectionSockets.hold(connectionSocket, to: bytes) }
    }

    /// The socket of the request under way, found by its connection's ends when the request began
    /// without a bound in play (its prerequest callback then looks nothing up); nil out of a multi, where
    /// the ends would be an earlier request's, or before it connected.
    private var currentConnectionSocket: Int32? {
        guard isInMulti, let ends = connectionEnds else { return nil }
        return ConnectionSockets.socket(ends)
    }
}
