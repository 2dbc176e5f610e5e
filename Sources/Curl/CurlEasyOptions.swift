internal import CCurl

// The `CURLOPT_*` options the service sets, grouped by the type of their value, so that callers name an
// option without importing CCurl and cannot pass a value of the wrong type (curl_easy_setopt is variadic).
// See https://curl.se/libcurl/c/curl_easy_setopt.html.

/// Options that take a string (libcurl copies it).
public enum CurlStringOption: Sendable {
    /// `CURLOPT_URL`
    case url
    /// `CURLOPT_PROXY` ("" means no proxy, whatever the environment says).
    case proxy
    /// `CURLOPT_NOPROXY`
    case noProxy
    /// `CURLOPT_ACCEPT_ENCODING` ("" offers every encoding libcurl decodes).
    case acceptEncoding
    /// `CURLOPT_CUSTOMREQUEST`
    case customRequest
    /// `CURLOPT_USERNAME`
    case username
    /// `CURLOPT_PASSWORD`
    case password
    /// `CURLOPT_PROXYUSERNAME`
    case proxyUsername
    /// `CURLOPT_PROXYPASSWORD`
    case proxyPassword
    /// `CURLOPT_PROTOCOLS_STR`
    case protocols
    /// `CURLOPT_REDIR_PROTOCOLS_STR`
    case redirectProtocols
    /// `CURLOPT_CAINFO`
    case certificateAuthorities
    /// `CURLOPT_PINNEDPUBLICKEY` (`sha256//…;sha256//…`)
    case pinnedPublicKey
    /// `CURLOPT_INTERFACE` (`if!eth0` binds a device, `host!10.0.0.2` a source address); connections made
    /// with one are reused only by requests that name the same.
    case interface
    /// `CURLOPT_AWS_SIGV4`: sign each request with AWS Signature Version 4, e.g. `aws:amz:us-east-1:s3`; the
    /// access key and secret are `.username` and `.password`. libcurl 7.88 signs every header set with
    /// `setHeaders` and takes the payload hash from an `x-amz-content-sha256` field when one is set.
    case awsSignatureV4

    var raw: CURLoption {
        switch self {
        case .url: CURLOPT_URL
        case .proxy: CURLOPT_PROXY
        case .noProxy: CURLOPT_NOPROXY
        case .acceptEncoding: CURLOPT_ACCEPT_ENCODING
        case .customRequest: CURLOPT_CUSTOMREQUEST
        case .username: CURLOPT_USERNAME
        case .password: CURLOPT_PASSWORD
        case .proxyUsername: CURLOPT_PROXYUSERNAME
        case .proxyPassword: CURLOPT_PROXYPASSWORD
        case .protocols: CURLOPT_PROTOCOLS_STR
        case .redirectProtocols: CURLOPT_REDIR_PROTOCOLS_STR
        case .certificateAuthorities: CURLOPT_CAINFO
        case .pinnedPublicKey: CURLOPT_PINNEDPUBLICKEY
        case .interface: CURLOPT_INTERFACE
        case .awsSignatureV4: CURLOPT_AWS_SIGV4
        }
    }
}

/// Options that are on or off.
public enum CurlFlagOption: Sendable {
    /// `CURLOPT_HTTPGET`
    case httpGet
    /// `CURLOPT_NOBODY` (HEAD)
    case noBody
    /// `CURLOPT_UPLOAD`: the body comes from the read callback.
    case upload
    /// `CURLOPT_POST`
    case post
    /// `CURLOPT_HTTP_CONTENT_DECODING` (on by default): off, the body is passed on as it came.
    case httpContentDecoding

    var raw: CURLoption {
        switch self {
        case .httpGet: CURLOPT_HTTPGET
        case .noBody: CURLOPT_NOBODY
        case .upload: CURLOPT_UPLOAD
        case .post: CURLOPT_POST
        case .httpContentDecoding: CURLOPT_HTTP_CONTENT_DECODING
        }
    }
}

/// Options that take a number.
public enum CurlNumberOption: Sendable {
    /// `CURLOPT_BUFFERSIZE`: the receive buffer, in bytes.
    case bufferSize
    /// `CURLOPT_UPLOAD_BUFFERSIZE`: the send buffer the read callback fills, in bytes (64 KiB by default,
    /// 2 MiB at most in libcurl 7.88).
    case uploadBufferSize
    /// `CURLOPT_CONNECTTIMEOUT_MS`
    case connectTimeoutMilliseconds
    /// `CURLOPT_TIMEOUT_MS`: the whole transfer.
    case timeoutMilliseconds
    /// `CURLOPT_LOW_SPEED_LIMIT`: bytes per second below which a transfer counts as stalled…
    case lowSpeedLimit
    /// `CURLOPT_LOW_SPEED_TIME`: …for this many seconds, after which it fails (`CURLE_OPERATION_TIMEDOUT`).
    case lowSpeedTime

    var raw: CURLoption {
        switch self {
        case .bufferSize: CURLOPT_BUFFERSIZE
        case .uploadBufferSize: CURLOPT_UPLOAD_BUFFERSIZE
        case .connectTimeoutMilliseconds: CURLOPT_CONNECTTIMEOUT_MS
        case .timeoutMilliseconds: CURLOPT_TIMEOUT_MS
        case .lowSpeedLimit: CURLOPT_LOW_SPEED_LIMIT
        case .lowSpeedTime: CURLOPT_LOW_SPEED_TIME
        }
    }
}

/// Options that take a size in bytes (`curl_off_t`).
public enum CurlSizeOption: Sendable {
    /// `CURLOPT_POSTFIELDSIZE_LARGE`
    case postFieldSize
    /// `CURLOPT_INFILESIZE_LARGE`: the length of an upload's body.
    case uploadSize
    /// `CURLOPT_MAXFILESIZE_LARGE`: a response announcing a longer body fails with `CURLE_FILESIZE_EXCEEDED`
    /// (libcurl 7.88 checks only an announced length; the write callback bounds the rest).
    case maximumFileSize

    var raw: CURLoption {
        switch self {
        case .postFieldSize: CURLOPT_POSTFIELDSIZE_LARGE
        case .uploadSize: CURLOPT_INFILESIZE_LARGE
        case .maximumFileSize: CURLOPT_MAXFILESIZE_LARGE
        }
    }
}

/// The HTTP authentication schemes libcurl may answer a challenge with (`CURLOPT_HTTPAUTH`).
public enum CurlAuthScheme: Sendable {
    case basic, digest, ntlm
    /// SPNEGO through GSS-API: Kerberos with the service's credentials cache (`KRB5CCNAME`).
    case negotiate

    // CURLAUTH_* are macros Swift does not import.
    var raw: Int {
        switch self {
        case .basic: 1  // CURLAUTH_BASIC
        case .digest: 2  // CURLAUTH_DIGEST
        case .negotiate: 4  // CURLAUTH_NEGOTIATE
        case .ntlm: 8  // CURLAUTH_NTLM
        }
    }
}

/// TLS versions, named as `tlsMinimumSupportedProtocolVersion` names them (`TLSv12`, ...).
public enum CurlTLSVersion {
    /// `CURLOPT_SSLVERSION` for a range of versions; unknown names mean TLS 1.2 to 1.3.
    static func sslVersion(minimum: String, maximum: String) -> Int {
        let low: [String: Int] = [
            "TLSv10": Int(CURL_SSLVERSION_TLSv1_0), "TLSv11": Int(CURL_SSLVERSION_TLSv1_1),
            "TLSv12": Int(CURL_SSLVERSION_TLSv1_2), "TLSv13": Int(CURL_SSLVERSION_TLSv1_3),
        ]
        let high: [String: Int] = [
            "TLSv10": Int(CURL_SSLVERSION_MAX_TLSv1_0), "TLSv11": Int(CURL_SSLVERSION_MAX_TLSv1_1),
            "TLSv12": Int(CURL_SSLVERSION_MAX_TLSv1_2), "TLSv13": Int(CURL_SSLVERSION_MAX_TLSv1_3),
        ]
        return (low[minimum] ?? Int(CURL_SSLVERSION_TLSv1_2)) | (high[maximum] ?? Int(CURL_SSLVERSION_MAX_TLSv1_3))
    }
}
