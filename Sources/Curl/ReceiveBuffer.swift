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
    /// (`CURLOPT_PREREQFUNCTION`, `ConnectionSockets.hold`): a limited request does not inherit a buffer
    /// the kernel grew, and an unlimited one does not inherit a limited request's small window.
    public func setReceiveBufferLimit(_ bytes: Int32?) throws(CurlError) {
        receiveBufferLimit = bytes
        if bytes != nil { try installSocketOptionCallback() }
        try installPrerequestCallback()
    }

    /// Changes the bound for the sockets and requests still to come, without setting an option (so it may
    /// be called while the transfer runs). A new socket gets it before it connects only when the handle
    /// was set up with a bound (`setReceiveBufferLimit`); otherwise at its first request.
    public func updateReceiveBufferLimit(_ bytes: Int32?) {
        receiveBufferLimit = bytes
    }
}
