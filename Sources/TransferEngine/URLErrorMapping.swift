import Certificates
public import TransferModels

/// CURLcode → `NSURLErrorDomain` code, as URLSession would report the same failure.
///
/// Every CURLcode an HTTP(S) transfer can end with is mapped (swift-corelibs-foundation maps eight and
/// reports the rest as -1); the libcurl code and text are kept in the error's `underlying`.
public enum URLErrorMapping {
    /// Facts beside the CURLcode that refine the answer.
    public struct Context: Sendable {
        /// `CURLINFO_SSL_VERIFYRESULT` (an X509_V_ERR_* value) after a verification failure.
        public var sslVerifyResult: Int = 0
        /// Download tasks report decoding and file errors in the -3000 range.
        public var isDownload = false
        /// libcurl's message for the failure (its error buffer).
        public var message = ""

        public init(sslVerifyResult: Int = 0, isDownload: Bool = false, message: String = "") {
            self.sslVerifyResult = sslVerifyResult
            self.isDownload = isDownload
            self.message = message
        }

        /// libcurl 7.88 reports a malformed answer with CURLE_UNSUPPORTED_PROTOCOL too: "Unsupported HTTP
        /// version in response" (`HTTP/1.1 Gomorrah`, a missing status code), "Unsupported response code in
        /// HTTP response", "Received HTTP/0.9 when not allowed" (no status line at all). URLSession reports
        /// those as the server's fault (-1011), not the URL's (-1002, a scheme nothing speaks).
        var isMalformedServerReply: Bool {
            message.contains("in response") || message.contains("HTTP response") || message.contains("HTTP/0.9")
        }
    }

    public static func code(forCurlCode curlCode: Int, context: Context = Context()) -> URLErrorCode {
        switch curlCode {
        case 1 where context.isMalformedServerReply: return .badServerResponse
        case 1, 4: return .unsupportedURL  // UNSUPPORTED_PROTOCOL, NOT_BUILT_IN
        case 3: return .badURL  // URL_MALFORMAT
        case 5, 6: return .cannotFindHost  // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST
        case 7, 45, 97: return .cannotConnectToHost  // COULDNT_CONNECT, INTERFACE_FAILED, PROXY
        case 8: return .badServerResponse  // WEIRD_SERVER_REPLY
        case 16, 92, 95: return .networkConnectionLost  // HTTP2, HTTP2_STREAM, HTTP3
        case 18, 52, 55, 56: return .networkConnectionLost  // PARTIAL_FILE, GOT_NOTHING, SEND_ERROR, RECV_ERROR
        case 22, 33: return .badServerResponse  // HTTP_RETURNED_ERROR, RANGE_ERROR
        case 23: return .cannotWriteToFile  // WRITE_ERROR
        case 25: return .networkConnectionLost  // UPLOAD_FAILED
        case 26, 65: return .requestBodyStreamExhausted  // READ_ERROR, SEND_FAIL_REWIND
        case 28: return .timedOut  // OPERATION_TIMEDOUT
        case 42: return .cancelled  // ABORTED_BY_CALLBACK
        case 47: return .httpTooManyRedirects  // TOO_MANY_REDIRECTS
        case 58: return .clientCertificateRejected  // SSL_CERTPROBLEM
        case 98: return .clientCertificateRequired  // SSL_CLIENTCERT
        case 60: return certificateError(context.sslVerifyResult)  // PEER_FAILED_VERIFICATION
        case 83, 90, 91: return .serverCertificateUntrusted  // SSL_ISSUER_ERROR, PINNEDPUBKEYNOTMATCH, INVALIDCERTSTATUS
        case 35, 53, 54, 59, 64, 66, 77, 80, 82: return .secureConnectionFailed  // TLS handshake and set-up
        case 61: return context.isDownload ? .downloadDecodingFailedMidStream : .cannotDecodeContentData  // BAD_CONTENT_ENCODING
        case 63: return .dataLengthExceedsMaximum  // FILESIZE_EXCEEDED
        case 67, 94: return .userAuthenticationRequired  // LOGIN_DENIED, AUTH_ERROR
        case 37, 78: return .fileDoesNotExist  // FILE_COULDNT_READ_FILE, REMOTE_FILE_NOT_FOUND
        default: return .unknown  // FAILED_INIT, OUT_OF_MEMORY, BAD_FUNCTION_ARGUMENT, UNKNOWN_OPTION, ...
        }
    }

    /// X509_V_ERR_* → the certificate codes URLSession distinguishes (the same rule a server-trust
    /// challenge's evaluation reports). CRL dates count as the certificate's.
    static func certificateError(_ verifyResult: Int) -> URLErrorCode {
        let result = Int32(truncatingIfNeeded: verifyResult == 12 ? 10 : verifyResult == 11 ? 9 : verifyResult)
        return URLErrorCode.code(Certificates.urlErrorCode(verifyResult: result, hostMatches: true) ?? -1202) ?? .serverCertificateUntrusted
    }
}
