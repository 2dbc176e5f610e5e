internal import CCurl
import Foundation

/// Wraps `CURL *`: one transfer's options, callbacks and results. Confined to the loop thread that owns it
/// (an engine loop, or the webhook sender's loop).
///
/// libcurl's callbacks get this handle back from their userdata and pass what they carry to `delegate`,
/// so the C function pointers live in this module only. Strings given to `set` are copied by libcurl
/// (since 7.17); header lists are kept alive here until the handle is reset or released, because libcurl
/// only borrows them.
public final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    /// Who hears the body, headers, upload reads and progress of the current transfer.
    public weak var delegate: (any CurlTransferDelegate)?
    /// Why the egress policy refused the last address it was asked about (nil: none refused).
    public private(set) var egressDenial: String?
    var egressPolicy = EgressPolicy()
    /// The TOS byte new sockets get (`setTrafficClass`); nil: the system's default.
    var trafficClass: Int32?
    /// New sockets are Multipath TCP (`setMultipath`).
    var opensMultipathSockets = false
    /// The `SO_RCVBUF` new sockets get (`setReceiveBufferLimit`); nil: the kernel's autotuning.
    var receiveBufferLimit: Int32?
    /// The socket of the connection the current request uses (set before it is sent when a bound is in
    /// play, cleared when the handle leaves its multi): where a changed receive bound goes at once.
    var connectionSocket: Int32?
    /// In a multi handle, so its `CURLINFO_*` of the connection are the current request's.
    var isInMulti = false
    /// The delegate hears of the connection before each request (`CurlCallbacks.connectionReady`).
    var asksWhenConnectionReady = false
    private var lists: [CURLoption: CurlStringList] = [:]
    /// Filled by libcurl with the text of the last failure (`CURLOPT_ERRORBUFFER`).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    public init() throws(CurlError) {
        _ = CurlGlobal.initialized
        guard let raw = curl_easy_init() else { throw CurlError(easy: CURLE_FAILED_INIT) }
        self.raw = raw
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try setPointer(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Wraps `curl_easy_reset`: back to defaults for reuse (connections and caches stay in the multi/share).
    public func reset() throws(CurlError) {
        curl_easy_reset(raw)
        lists.removeAll()
        errorBuffer[0] = 0
        egressDenial = nil
        trafficClass = nil
        opensMultipathSockets = false
        receiveBufferLimit = nil
        asksWhenConnectionReady = false
        connectionSocket = nil
        try setPointer(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer))
    }

    /// The error buffer's text, or curl's generic text for `result`.
    public func errorMessage(for result: CurlResult) -> String {
        guard errorBuffer[0] == 0 else { return String(cString: errorBuffer) }
        return String(cString: curl_easy_strerror(CURLcode(UInt32(truncatingIfNeeded: result.code))))
    }

    // MARK: Options (curl_easy_setopt)

    public func set(_ option: CurlStringOption, _ value: String?) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_string(raw, option.raw, value))
    }

    /// `CURLOPT_NOSIGNAL` on, `CURLOPT_FOLLOWLOCATION` off: what every client of this module wants.
    public func disableSignalsAndRedirects() throws(CurlError) {
        try setLong(CURLOPT_NOSIGNAL, 1)
        try setLong(CURLOPT_FOLLOWLOCATION, 0)
    }

    public func set(_ option: CurlFlagOption, _ value: Bool) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, option.raw, value ? 1 : 0))
    }

    public func set(_ option: CurlNumberOption, _ value: Int) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, option.raw, value))
    }

    public func set(_ option: CurlSizeOption, _ value: Int64) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_off_t(raw, option.raw, curl_off_t(value)))
    }

    /// `CURLOPT_HTTPHEADER`: `Name: value` lines (`Name:` removes a header libcurl would add, `Name;`
    /// sends it empty). The list is kept alive until the next reset.
    public func setHeaders(_ lines: [String]) throws(CurlError) {
        let list = CurlStringList(lines)
        try CurlError.check(ccurl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, list.raw))
        lists[CURLOPT_HTTPHEADER] = list
    }

    /// `CURLOPT_COPYPOSTFIELDS`: the request body, copied by libcurl during the call. Set
    /// `.postFieldSize` first.
    public func setCopiedBody(_ body: [UInt8]) throws(CurlError) {
        guard !body.isEmpty else {
            // An empty array may have no base address; libcurl still needs a non-NULL pointer.
            return try CurlError.check(ccurl_easy_setopt_string(raw, CURLOPT_COPYPOSTFIELDS, ""))
        }
        var bytes = body
        let code = bytes.withUnsafeMutableBytes { ccurl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        try CurlError.check(code)
    }

    /// Wraps `curl_easy_perform`: runs the whole transfer on the calling thread, blocking it (for a
    /// client on a thread of its own; the service's transfers run in a `CurlMultiLoop`).
    public func perform() -> CurlResult {
        CurlResult(curl_easy_perform(raw))
    }

    /// `CURLOPT_HTTP_VERSION` = `CURL_HTTP_VERSION_2TLS`: HTTP/2 by ALPN over TLS, HTTP/1.1 otherwise.
    public func preferHTTP2OverTLS() throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
    }

    /// `CURLOPT_SSLVERSION`: the TLS versions allowed, named `TLSv10` … `TLSv13`.
    public func setTLSVersions(minimum: String, maximum: String) throws(CurlError) {
        let value = CurlTLSVersion.sslVersion(minimum: minimum, maximum: maximum)
        try CurlError.check(ccurl_easy_setopt_long(raw, CURLOPT_SSLVERSION, value))
    }

    /// `CURLOPT_HTTPAUTH`: the one scheme a given credential answers.
    public func setHTTPAuthentication(_ scheme: CurlAuthScheme) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, CURLOPT_HTTPAUTH, scheme.raw))
    }

    /// A client identity for TLS (`CURLOPT_SSLCERT_BLOB` and `CURLOPT_SSLKEY_BLOB`, PEM, with the key's
    /// passphrase): presented when a server asks for a client certificate. libcurl copies the bytes.
    public func setClientIdentity(certificateChainPEM: String, privateKeyPEM: String, passphrase: String?) throws(CurlError) {
        for (option, text) in [(CURLOPT_SSLCERT_BLOB, certificateChainPEM), (CURLOPT_SSLKEY_BLOB, privateKeyPEM)] {
            let bytes = Array(text.utf8)
            try CurlError.check(bytes.withUnsafeBytes { ccurl_easy_setopt_blob(raw, option, $0.baseAddress, $0.count) })
        }
        try CurlError.check(ccurl_easy_setopt_string(raw, CURLOPT_SSLCERTTYPE, "PEM"))
        try CurlError.check(ccurl_easy_setopt_string(raw, CURLOPT_SSLKEYTYPE, "PEM"))
        if let passphrase { try CurlError.check(ccurl_easy_setopt_string(raw, CURLOPT_KEYPASSWD, passphrase)) }
    }

    /// `CURLOPT_SSL_VERIFYPEER` and `CURLOPT_SSL_VERIFYHOST` off: the handshake accepts any chain, and
    /// the caller evaluates it itself before the request is sent (`CurlCallbacks.connectionReady`). TLS
    /// sessions are not resumed then, so every new connection shows its chain and its certificate request.
    public func deferCertificateVerification() throws(CurlError) {
        try setLong(CURLOPT_SSL_VERIFYPEER, 0)
        try setLong(CURLOPT_SSL_VERIFYHOST, 0)
        try setLong(CURLOPT_SSL_SESSIONID_CACHE, 0)
    }

    /// `CURLOPT_PROXYAUTH`: the one scheme a given proxy credential answers.
    public func setProxyAuthentication(_ scheme: CurlAuthScheme) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, CURLOPT_PROXYAUTH, scheme.raw))
    }

    /// `CURLOPT_SHARE`: the connection, DNS and TLS-session cache this transfer uses.
    public func setShare(_ share: CurlShareHandle?) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_share(raw, share?.raw))
    }

    /// Wraps `curl_easy_pause(CURLPAUSE_CONT)`: the body paused by `.pause` flows again.
    public func unpause() {
        _ = curl_easy_pause(raw, CURLPAUSE_CONT)
    }

    func setPointer(_ option: CURLoption, _ value: UnsafeMutableRawPointer?) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_pointer(raw, option, value))
    }

    func setLong(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try CurlError.check(ccurl_easy_setopt_long(raw, option, value))
    }

    func refuse(_ reason: String) { egressDenial = reason }

    // MARK: Results (curl_easy_getinfo)

    public func info(_ item: CurlNumberInfo) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(raw, item.raw, &value) == CURLE_OK ? value : 0
    }

    /// -1 when libcurl does not know.
    public func info(_ item: CurlOffsetInfo) -> Int64 {
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_off_t(raw, item.raw, &value) == CURLE_OK ? Int64(value) : -1
    }

    /// `CURLINFO_TLS_SSL_PTR`: the OpenSSL `SSL *` of the transfer's connection; nil before TLS.
    public var tlsSession: UnsafeMutableRawPointer? {
        var info: UnsafeMutableRawPointer?
        guard ccurl_easy_getinfo_pointer(raw, CURLINFO_TLS_SSL_PTR, &info) == CURLE_OK, let info else { return nil }
        let session = info.assumingMemoryBound(to: curl_tlssessioninfo.self).pointee
        return session.backend == CURLSSLBACKEND_OPENSSL ? session.internals : nil
    }

    public func info(_ item: CurlStringInfo) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(raw, item.raw, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}

@available(*, unavailable) extension CurlEasyHandle: Sendable {}
