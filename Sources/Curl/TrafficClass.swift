internal import CCurl
import Foundation

extension CurlEasyHandle {
    /// Marks every socket of the transfer with this TOS byte (IPv4 `IP_TOS`, IPv6 `IPV6_TCLASS`: the DSCP
    /// in its upper six bits) through `CURLOPT_SOCKOPTFUNCTION`, before it connects; nil leaves the
    /// system's default. Call after `reset()`.
    public func setTrafficClass(_ tos: Int32?) throws(CurlError) {
        trafficClass = tos
        guard tos != nil else { return }
        try installSocketOptionCallback()
    }

    /// `CURLOPT_SOCKOPTFUNCTION` with this handle as its data (the traffic class, the receive buffer).
    func installSocketOptionCallback() throws(CurlError) {
        try setPointer(CURLOPT_SOCKOPTDATA, Unmanaged.passUnretained(self).toOpaque())
        try CurlError.check(ccurl_easy_setopt_sockopt_function(raw, curlSocketOptionCallback))
    }
}

/// `CURLOPT_SOCKOPTFUNCTION`: sets the handle's receive buffer bound and TOS byte on a new socket. A failure to mark a socket never
/// fails the transfer (the priority is advisory, as `networkServiceType` is on Apple's systems).
private let curlSocketOptionCallback: curl_sockopt_callback = { userdata, socket, _ in
    guard let userdata else { return CURL_SOCKOPT_OK }
    let easy = Unmanaged<CurlEasyHandle>.fromOpaque(userdata).takeUnretainedValue()
    if let bytes = easy.receiveBufferLimit {  // see `setReceiveBufferLimit`; advisory like the TOS byte
        ConnectionSockets.bound(socket, to: bytes)
    }
    guard var tos = easy.trafficClass else { return CURL_SOCKOPT_OK }
    let size = socklen_t(MemoryLayout<Int32>.size)
    if setsockopt(socket, Int32(IPPROTO_IP), IP_TOS, &tos, size) != 0 {
        _ = setsockopt(socket, Int32(IPPROTO_IPV6), IPV6_TCLASS, &tos, size)
    }
    return CURL_SOCKOPT_OK
}
