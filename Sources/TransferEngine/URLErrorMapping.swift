import Certificates
import CurlErrorCodes
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

        /// An answer libcurl could not read as HTTP (`CurlErrorCodes.isMalformedServerReply`).
        var isMalformedServerReply: Bool { CurlErrorCodes.isMalformedServerReply(message) }
    }

    public static func code(forCurlCode curlCode: Int, context: Context = Context()) -> URLErrorCode {
        if curlCode == 60 { return certificateError(context.sslVerifyResult) }  // PEER_FAILED_VERIFICATION
        let code = CurlErrorCodes.urlErrorCode(
            forCurlCode: curlCode, malformedServerReply: context.isMalformedServerReply, isDownload: context.isDownload)
        return URLErrorCode.code(code) ?? .unknown
    }

    /// X509_V_ERR_* → the certificate codes URLSession distinguishes (the same rule a server-trust
    /// challenge's evaluation reports). CRL dates count as the certificate's.
    static func certificateError(_ verifyResult: Int) -> URLErrorCode {
        let result = Int32(truncatingIfNeeded: verifyResult == 12 ? 10 : verifyResult == 11 ? 9 : verifyResult)
        return URLErrorCode.code(Certificates.urlErrorCode(verifyResult: result, hostMatches: true) ?? -1202) ?? .serverCertificateUntrusted
    }
}
