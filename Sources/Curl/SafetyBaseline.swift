internal import CCurl

/// What every outgoing request of the service is held to, transfers and webhooks alike: the protocols
/// it may use, redirects to http and https only, the authorities it trusts, no proxy from the environment,
/// no redirect libcurl follows on its own, and the egress policy checked on every resolved address before
/// a socket is made.
public struct SafetyBaseline: Sendable {
    /// `CURLOPT_PROTOCOLS_STR`, e.g. `http,https` or `http,https,ftp`. Redirects stay on http and https
    /// (`CURLOPT_REDIR_PROTOCOLS_STR`, ``redirectProtocols``) whatever this adds.
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

extension SafetyBaseline {
    /// `CURLOPT_REDIR_PROTOCOLS_STR`: a redirect never leads to `file:`, `ftp:` or any protocol an operator
    /// enabled for requests themselves.
    public static let redirectProtocols = "http,https"

    /// The protocols the linked libcurl transfers with, lowercased: the `protocols` list of
    /// [`curl_version_info`](https://curl.se/libcurl/c/curl_version_info.html). `protocols` and `version`
    /// are fields of the struct's first age, so `CURLVERSION_FIRST` asks for no more (`CURLVERSION_NOW` is
    /// a macro Swift does not import).
    public static let libcurlProtocols: Set<String> = {
        guard let info = curl_version_info(CURLVERSION_FIRST), let list = info.pointee.protocols else { return [] }
        var names: Set<String> = []
        for index in 0..<256 {  // libcurl knows about 30 protocols; the list ends with NULL
            guard let name = list[index] else { break }
            names.insert(String(cString: name).lowercased())
        }
        return names
    }()

    /// The linked libcurl's version, e.g. `7.88.1` (`curl_version_info`'s `version`).
    public static let libcurlVersion: String = {
        guard let info = curl_version_info(CURLVERSION_FIRST), let version = info.pointee.version else { return "unknown" }
        return String(cString: version)
    }()
}

extension CurlEasyHandle {
    /// Sets the baseline's options. Call it after `reset()` and before the transfer's own options (which
    /// may set a proxy the session configured).
    public func apply(_ baseline: SafetyBaseline) throws(CurlError) {
        try disableSignalsAndRedirects()  // redirects are decided by URLSession's rules, above libcurl
        try set(.protocols, baseline.protocols)
        try set(.redirectProtocols, SafetyBaseline.redirectProtocols)
        try set(.proxy, "")  // "" = no proxy: environment variables are ignored
        try setLong(CURLOPT_TCP_KEEPALIVE, 1)
        if let authorities = baseline.certificateAuthorities { try set(.certificateAuthorities, authorities) }
        egressPolicy = baseline.egress
        try setPointer(CURLOPT_OPENSOCKETDATA, Unmanaged.passUnretained(self).toOpaque())
        try CurlError.check(ccurl_easy_setopt_opensocket_function(raw, curlOpenSocketCallback))
        try installCloseSocketCallback()
    }
}

/// `CURLOPT_OPENSOCKETFUNCTION`: every resolved address passes the egress policy, or no socket is made
/// and nothing is connected (the transfer ends with `CURLE_COULDNT_CONNECT` and `egressDenial` says why).
private let curlOpenSocketCallback: curl_opensocket_callback = { userdata, _, address in
    guard let userdata else { return ccurl_socket_bad() }
    let easy = Unmanaged<CurlEasyHandle>.fromOpaque(userdata).takeUnretainedValue()
    let outcome = EgressSocket.open(address, policy: easy.egressPolicy, multipath: easy.opensMultipathSockets)
    if case .denied(let reason) = outcome { easy.refuse(reason) }
    return EgressSocket.callbackResult(outcome)
}
