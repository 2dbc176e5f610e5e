internal import CCurl
import Foundation

extension CurlEasyHandle {
    /// Bounds the receive buffer (`SO_RCVBUF`) of every new socket of the transfer, through the same
    /// `CURLOPT_SOCKOPTFUNCTION` as the traffic class, before it connects; nil leaves the kernel's
    /// autotuning (on this host up to `tcp_rmem`'s 32 MiB). A bandwidth-limited transfer reads slowly; with
    /// a large buffer the origin would send megabytes ahead at full speed, so its own measurement would not
    /// show the limit. Call after `reset()` and `setTrafficClass`.
    ///
    /// A bounded request has a connection of its own, opened for it and closed after it. Only a new socket
    /// gets the bound: a pooled connection would bring the kernel's grown buffer (the origin sending ahead),
    /// and a bounded one put back in the pool would cap every transfer that reused it later to its small
    /// window — `SO_RCVBUF` locks the buffer's size for the socket's life. It costs a handshake per request:
    /// a limited transfer is slow by definition (a segmented one sends a range every second or two per
    /// connection).
    public func setReceiveBufferLimit(_ bytes: Int32?) throws(CurlError) {
        receiveBufferLimit = bytes
        guard bytes != nil else { return }
        try installSocketOptionCallback()
        try set(.freshConnect, true)
        try set(.forbidReuse, true)
    }
}
