internal import CCurl

// The `CURLINFO_*` items the service reads after a request, grouped by the type of their value.
// See https://curl.se/libcurl/c/curl_easy_getinfo.html.

/// Items that are a number.
public enum CurlNumberInfo: Sendable {
    /// `CURLINFO_RESPONSE_CODE`
    case responseCode
    /// `CURLINFO_HTTP_VERSION` (`CURL_HTTP_VERSION_*`)
    case httpVersion
    /// `CURLINFO_PRIMARY_PORT`
    case remotePort
    /// `CURLINFO_LOCAL_PORT`
    case localPort
    /// `CURLINFO_REQUEST_SIZE`: bytes of request headers sent.
    case requestHeaderBytes
    /// `CURLINFO_HEADER_SIZE`: bytes of response headers received.
    case responseHeaderBytes
    /// `CURLINFO_NUM_CONNECTS`: new connections the request made (0: a reused one).
    case newConnections
    /// `CURLINFO_SSL_VERIFYRESULT`: OpenSSL's verification result.
    case sslVerifyResult
    /// `CURLINFO_OS_ERRNO`: the `errno` of the failure to connect (0: none), e.g. `ECONNREFUSED`, which
    /// libcurl's text for `CURLE_COULDNT_CONNECT` does not say.
    case osErrno

    var raw: CURLINFO {
        switch self {
        case .responseCode: CURLINFO_RESPONSE_CODE
        case .httpVersion: CURLINFO_HTTP_VERSION
        case .remotePort: CURLINFO_PRIMARY_PORT
        case .localPort: CURLINFO_LOCAL_PORT
        case .requestHeaderBytes: CURLINFO_REQUEST_SIZE
        case .responseHeaderBytes: CURLINFO_HEADER_SIZE
        case .newConnections: CURLINFO_NUM_CONNECTS
        case .sslVerifyResult: CURLINFO_SSL_VERIFYRESULT
        case .osErrno: CURLINFO_OS_ERRNO
        }
    }
}

/// Items that are a `curl_off_t`: times in microseconds since the request started, or byte counts.
public enum CurlOffsetInfo: Sendable {
    /// `CURLINFO_NAMELOOKUP_TIME_T`
    case nameLookupTime
    /// `CURLINFO_CONNECT_TIME_T`
    case connectTime
    /// `CURLINFO_APPCONNECT_TIME_T` (TLS handshake done)
    case appConnectTime
    /// `CURLINFO_PRETRANSFER_TIME_T`
    case preTransferTime
    /// `CURLINFO_STARTTRANSFER_TIME_T` (first response byte)
    case startTransferTime
    /// `CURLINFO_TOTAL_TIME_T`
    case totalTime
    /// `CURLINFO_SIZE_UPLOAD_T`
    case bodyBytesSent
    /// `CURLINFO_SIZE_DOWNLOAD_T`
    case bodyBytesReceived

    var raw: CURLINFO {
        switch self {
        case .nameLookupTime: CURLINFO_NAMELOOKUP_TIME_T
        case .connectTime: CURLINFO_CONNECT_TIME_T
        case .appConnectTime: CURLINFO_APPCONNECT_TIME_T
        case .preTransferTime: CURLINFO_PRETRANSFER_TIME_T
        case .startTransferTime: CURLINFO_STARTTRANSFER_TIME_T
        case .totalTime: CURLINFO_TOTAL_TIME_T
        case .bodyBytesSent: CURLINFO_SIZE_UPLOAD_T
        case .bodyBytesReceived: CURLINFO_SIZE_DOWNLOAD_T
        }
    }
}

/// Items that are a string.
public enum CurlStringInfo: Sendable {
    /// `CURLINFO_PRIMARY_IP`
    case remoteAddress
    /// `CURLINFO_LOCAL_IP`
    case localAddress

    var raw: CURLINFO {
        switch self {
        case .remoteAddress: CURLINFO_PRIMARY_IP
        case .localAddress: CURLINFO_LOCAL_IP
        }
    }
}
