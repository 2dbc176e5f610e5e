internal import CCurl

/// Wraps `CURLSH *`: the connection cache, DNS cache and TLS sessions one URLSession's transfers share
/// (and no other session's). Used only on the engine loop thread, so it needs no lock callbacks.
public final class CurlShareHandle {
    let raw: UnsafeMutableRawPointer

    public init() throws(CurlError) {
        _ = CurlGlobal.initialized
        guard let raw = curl_share_init() else { throw CurlError(share: CURLSHE_NOMEM) }
        self.raw = raw
        for data in [CURL_LOCK_DATA_CONNECT, CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION] {
            try CurlError.check(ccurl_share_setopt_long(raw, CURLSHOPT_SHARE, Int(data.rawValue)))
        }
    }

    /// Every easy handle using it must have been cleaned up first (STYLE.md §3 ordering rule).
    deinit { curl_share_cleanup(raw) }
}

@available(*, unavailable) extension CurlShareHandle: Sendable {}
