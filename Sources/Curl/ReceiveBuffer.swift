internal import CCurl
import Foundation

extension CurlEasyHandle {
    /// Bounds the receive buffer (`SO_RCVBUF`) of every new socket of the transfer, through the same
    /// `CURLOPT_SOCKOPTFUNCTION` as the traffic class, before it connects; nil leaves the kernel's
    /// autotuning (on this host up to `tcp_rmem`'s 32 MiB). A bandwidth-limited transfer reads slowly; with
    /// a large buffer the origin would send megabytes ahead at full speed, so its own measurement would not
    /// show the limit. Call after `reset()` and `setTrafficClass`.
    public func setReceiveBufferLimit(_ bytes: Int32?) throws(CurlError) {
        receiveBufferLimit = bytes
        guard bytes != nil else { return }
        try installSocketOptionCallback()
    }
}
