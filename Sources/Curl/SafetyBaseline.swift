internal import CCurl

/// What every outgoing request of the service is held to, transfers and webhooks alike: the protocols
/// it may use (redirects included), the authorities it trusts, no proxy from the environment, no
/// redirect libcurl follows on its own, and the egress policy checked on every resolved address before
/// a socket is made.
public struct SafetyBaseline: Sendable {
    /// `CURLOPT_PROTOCOLS_STR` and `CURLOPT_REDIR_PROTOCOLS_STR`, e.g. `http,https`.
    public var protocols: String
    /// `CURLOPT_CAINFO`: a PEM bundle of extra authorities (nil: the system's).
    public var certificateAuthorities: String?
    public var egress: EgressPolicy

    public init(protocols: String = "http,https", certificateAuthorities: String? = nil, egress: EgressPolicy) {
        self.protocols = protocols
        self.certificateAuthorities = certificateAuthorities
        self.egress = egress
    }
}

extension CurlEasyHandle {
    /// Sets the baseline's options. Call it after `reset()` and before the transfer's own options (which
    /// may set a proxy the session configured).
    public func apply(_ baseline: SafetyBaseline) throws(CurlError) {
        try disableSignalsAndRedirects()  // redirects are decided by URLSession's rules, above libcurl
        try set(.protocols, baseline.protocols)
        try set(.redirectProtocols, baseline.protocols)
        try set(.proxy, "")  // "" = no proxy: environment variables are ignored
        try setLong(CURLOPT_TCP_KEEPALIVE, 1)
        if let authorities = baseline.certificateAuthorities { try set(.certificateAuthorities, authorities) }
        egressPolicy = baseline.egress
        try setPointer(CURLOPT_OPENSOCKETDATA, Unmanaged.passUnretained(self).toOpaque())
        try CurlError.check(ccurl_easy_setopt_opensocket_function(raw, curlOpenSocketCallback))
    }
}

/// `CURLOPT_OPENSOCKETFUNCTION`: every resolved address passes the egress policy, or no socket is made
/// and nothing is connected (the transfer ends with `CURLE_COULDNT_CONNECT` and `egressDenial` says why).
private let curlOpenSocketCallback: curl_opensocket_callback = { userdata, _, address in
    guard let userdata else { return ccurl_socket_bad() }
    let easy = Unmanaged<CurlEasyHandle>.fromOpaque(userdata).takeUnretainedValue()
    let outcome = EgressSocket.open(address, policy: easy.egressPolicy)
    if case .denied(let reason) = outcome { easy.refuse(reason) }
    return EgressSocket.callbackResult(outcome)
}
