/// libcurl's result codes (CURLcode) → `NSURLErrorDomain` codes, as URLSession would report the same failure
/// of an HTTP(S) transfer: one table for the service's transfers (`TransferEngine.URLErrorMapping`, which
/// refines a certificate failure from OpenSSL's verdict) and the client's calls (`URLSessionRemote`).
/// Codes only, no types, so that the client library depends on nothing of the service's.
public enum CurlErrorCodes {
    /// The `NSURLErrorDomain` code for `curlCode`; -1 (`unknown`) for codes no transfer should end with.
    /// A certificate that failed verification (60) is -1202 here; the service tells its kinds apart.
    public static func urlErrorCode(forCurlCode curlCode: Int, malformedServerReply: Bool = false, isDownload: Bool = false) -> Int {
        switch curlCode {
        case 1 where malformedServerReply: -1011  // badServerResponse
        case 1, 4: -1002  // UNSUPPORTED_PROTOCOL, NOT_BUILT_IN: unsupportedURL
        case 3: -1000  // URL_MALFORMAT: badURL
        case 5, 6: -1003  // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST: cannotFindHost
        case 7, 45, 97: -1004  // COULDNT_CONNECT, INTERFACE_FAILED, PROXY: cannotConnectToHost
        case 8: -1011  // WEIRD_SERVER_REPLY: badServerResponse
        case 16, 92, 95: -1005  // HTTP2, HTTP2_STREAM, HTTP3: networkConnectionLost
        case 18, 52, 55, 56: -1005  // PARTIAL_FILE, GOT_NOTHING, SEND_ERROR, RECV_ERROR: networkConnectionLost
        case 22, 33: -1011  // HTTP_RETURNED_ERROR, RANGE_ERROR: badServerResponse
        case 23: -3003  // WRITE_ERROR: cannotWriteToFile
        case 25: -1005  // UPLOAD_FAILED: networkConnectionLost
        case 26, 65: -1021  // READ_ERROR, SEND_FAIL_REWIND: requestBodyStreamExhausted
        case 28: -1001  // OPERATION_TIMEDOUT: timedOut
        case 42: -999  // ABORTED_BY_CALLBACK: cancelled
        case 47: -1007  // TOO_MANY_REDIRECTS: httpTooManyRedirects
        case 58: -1205  // SSL_CERTPROBLEM: clientCertificateRejected
        case 98: -1206  // SSL_CLIENTCERT: clientCertificateRequired
        case 60, 83, 90, 91: -1202  // PEER_FAILED_VERIFICATION, SSL_ISSUER_ERROR, PINNEDPUBKEYNOTMATCH, INVALIDCERTSTATUS
        case 35, 53, 54, 59, 64, 66, 77, 80, 82: -1200  // TLS handshake and set-up: secureConnectionFailed
        case 61: isDownload ? -3006 : -1016  // BAD_CONTENT_ENCODING: downloadDecodingFailedMidStream, cannotDecodeContentData
        case 63: -1103  // FILESIZE_EXCEEDED: dataLengthExceedsMaximum
        case 67, 94: -1013  // LOGIN_DENIED, AUTH_ERROR: userAuthenticationRequired
        case 37, 78: -1100  // FILE_COULDNT_READ_FILE, REMOTE_FILE_NOT_FOUND: fileDoesNotExist
        default: -1  // FAILED_INIT, OUT_OF_MEMORY, BAD_FUNCTION_ARGUMENT, UNKNOWN_OPTION, ...
        }
    }

    /// libcurl 7.88 reports a malformed answer with CURLE_UNSUPPORTED_PROTOCOL too: "Unsupported HTTP
    /// version in response" (`HTTP/1.1 Gomorrah`, a missing status code), "Unsupported response code in
    /// HTTP response", "Received HTTP/0.9 when not allowed" (no status line at all). URLSession reports
    /// those as the server's fault (-1011), not the URL's (-1002, a scheme nothing speaks).
    public static func isMalformedServerReply(_ message: String) -> Bool {
        message.contains("in response") || message.contains("HTTP response") || message.contains("HTTP/0.9")
    }
}
