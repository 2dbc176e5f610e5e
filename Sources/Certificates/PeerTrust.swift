internal import COpenSSL
import Foundation

/// How OpenSSL judged a live connection's server, read back after the handshake: what URLSession's
/// `serverTrust` challenge and its certificate errors are built from.
public struct PeerTrust: Sendable {
    /// The certificates the server sent, leaf first (empty if none could be read).
    public var chain: [CertificateDetails]
    /// X509_V_OK (0) or an X509_V_ERR_* code; see `Certificates.VerifyFailure`.
    public var verifyResult: Int32
    /// OpenSSL's text for `verifyResult` ("ok", "certificate has expired", ...).
    public var verifyMessage: String
    /// Whether the leaf names the host the request was for.
    public var hostMatches: Bool

    public init(chain: [CertificateDetails], verifyResult: Int32, verifyMessage: String, hostMatches: Bool) {
        self.chain = chain
        self.verifyResult = verifyResult
        self.verifyMessage = verifyMessage
        self.hostMatches = hostMatches
    }

    /// The NSURLErrorDomain code a default evaluation fails with, nil when the server is trusted.
    public var urlErrorCode: Int? { Certificates.urlErrorCode(verifyResult: verifyResult, hostMatches: hostMatches) }
}

extension Certificates {
    /// The X509_V_ERR_* values the service maps to URLSession's certificate errors.
    public enum VerifyFailure {
        public static let certificateHasExpired = X509_V_ERR_CERT_HAS_EXPIRED
        public static let certificateNotYetValid = X509_V_ERR_CERT_NOT_YET_VALID
        public static let depthZeroSelfSignedCertificate = X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT
        public static let selfSignedCertificateInChain = X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN
        public static let unableToGetIssuerCertificate = X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT
        public static let unableToGetIssuerCertificateLocally = X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
        public static let unableToVerifyLeafSignature = X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE
        public static let certificateUntrusted = X509_V_ERR_CERT_UNTRUSTED
    }

    /// The NSURLErrorDomain code URLSession reports for a failed evaluation; nil when trusted (X509_V_OK and a
    /// matching host). The chain not reaching a trusted root (an issuer missing, or the chain ending at a root the
    /// store lacks) is -1203 serverCertificateHasUnknownRoot; a self-signed leaf, an untrusted certificate, a host
    /// mismatch and everything else is -1202 serverCertificateUntrusted.
    public static func urlErrorCode(verifyResult: Int32, hostMatches: Bool) -> Int? {
        switch verifyResult {
        case X509_V_OK: hostMatches ? nil : -1202
        case VerifyFailure.certificateHasExpired: -1201  // serverCertificateHasBadDate
        case VerifyFailure.certificateNotYetValid: -1204  // serverCertificateNotYetValid
        case VerifyFailure.unableToGetIssuerCertificateLocally, VerifyFailure.unableToGetIssuerCertificate,
            VerifyFailure.unableToVerifyLeafSignature, VerifyFailure.selfSignedCertificateInChain:
            -1203  // serverCertificateHasUnknownRoot
        default: -1202  // serverCertificateUntrusted
        }
    }

    /// Reads a connection's trust from its `SSL *` (libcurl's CURLINFO_TLS_SSL_PTR), after the handshake.
    ///
    /// The chain is SSL_get_peer_cert_chain (on a client it includes the leaf), or the peer certificate alone
    /// when that is nil (a resumed session may not keep the chain). The host is matched against the leaf's
    /// subjectAltName only (X509_CHECK_FLAG_NEVER_CHECK_SUBJECT): URLSession no longer accepts a name in the
    /// common name, and wildcards cover one whole label (X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS). An IP literal
    /// (IPv6 with or without brackets) is matched against iPAddress entries instead.
    ///
    /// Without `anchorsFile` the result is OpenSSL's own (SSL_get_verify_result, against the CAs libcurl
    /// loaded). With it, the chain is verified again against that PEM file alone, now, for a TLS server:
    /// what the caller needs when it turned libcurl's verification off to evaluate trust itself.
    public static func peerTrust(ssl: UnsafeMutableRawPointer, host: String, anchorsFile: String? = nil) -> PeerTrust {
        let connection = OpaquePointer(ssl)
        let sent = SSL_get_peer_cert_chain(connection)
        var certificates = OpenSSL.certificates(in: sent)
        if certificates.isEmpty, let peer = SSL_get0_peer_certificate(connection) { certificates = [peer] }
        let chain = certificates.compactMap { try? CertificateDetails(x509: $0) }
        let result =
            if let anchorsFile, let leaf = certificates.first {
                Anchors.verify(leaf, untrusted: sent, anchorsFile: anchorsFile)
            } else {
                Int32(truncatingIfNeeded: SSL_get_verify_result(connection))
            }
        let message = X509_verify_cert_error_string(Int(result)).map { String(cString: $0) } ?? "verify error \(result)"
        let matches = certificates.first.map { leafMatches($0, host: host) } ?? false
        ERR_clear_error()
        return PeerTrust(chain: chain, verifyResult: result, verifyMessage: message, hostMatches: matches)
    }

    private static func leafMatches(_ leaf: OpaquePointer, host: String) -> Bool {
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        guard !name.isEmpty else { return false }
        if isIPAddress(name) { return X509_check_ip_asc(leaf, name, 0) == 1 }
        let flags = UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT | X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)
        return X509_check_host(leaf, name, name.utf8.count, flags, nil) == 1
    }

    static func isIPAddress(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
    }
}
