internal import COpenSSL
public import Foundation

/// What the service shows and compares of one X.509 certificate: the fields URLSession clients read from a
/// `SecCertificate`, plus the two fingerprints pinning is done with.
public struct CertificateDetails: Sendable, Hashable, Codable {
    /// The certificate re-encoded as PEM (one `CERTIFICATE` block), whatever form it came in.
    public var pem: String
    /// RFC 2253 one-line form, most specific RDN first, exactly as `openssl x509 -subject -nameopt RFC2253` prints.
    public var subject: String
    public var issuer: String
    /// Uppercase hex of the serial's bytes, as `openssl x509 -serial` prints it ("-" first if negative).
    public var serialNumber: String
    public var notValidBefore: Date
    public var notValidAfter: Date
    /// SHA-256 of the DER certificate, lowercase hex (the fingerprint without colons).
    public var sha256: String
    /// SHA-256 of the DER SubjectPublicKeyInfo, base64: what CURLOPT_PINNEDPUBLICKEY takes after `sha256//`.
    public var spkiSha256: String
    /// The dNSName and iPAddress entries of subjectAltName in order; addresses as text (IPv6 in RFC 5952 form).
    public var subjectAlternativeNames: [String]

    public init(
        pem: String, subject: String, issuer: String, serialNumber: String, notValidBefore: Date, notValidAfter: Date,
        sha256: String, spkiSha256: String, subjectAlternativeNames: [String]
    ) {
        self.pem = pem
        self.subject = subject
        self.issuer = issuer
        self.serialNumber = serialNumber
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.sha256 = sha256
        self.spkiSha256 = spkiSha256
        self.subjectAlternativeNames = subjectAlternativeNames
    }

    /// Reads everything from a borrowed `X509 *` (the caller keeps ownership).
    init(x509: OpaquePointer) throws(CertificateError) {
        let der = try OpenSSL.der("i2d_X509") { i2d_X509(x509, $0) }
        guard let publicKey = X509_get_X509_PUBKEY(x509) else { throw .malformedCertificate(reason: "no public key") }
        let spki = try OpenSSL.der("i2d_X509_PUBKEY") { i2d_X509_PUBKEY(publicKey, $0) }
        self.init(
            pem: try OpenSSL.writtenText("PEM_write_bio_X509") { PEM_write_bio_X509($0, x509) == 1 },
            subject: try Self.name(X509_get_subject_name(x509)),
            issuer: try Self.name(X509_get_issuer_name(x509)),
            serialNumber: Self.serial(X509_get0_serialNumber(x509)),
            notValidBefore: try Self.date(X509_get0_notBefore(x509), "notBefore"),
            notValidAfter: try Self.date(X509_get0_notAfter(x509), "notAfter"),
            sha256: try OpenSSL.sha256(der).lowercaseHex,
            spkiSha256: Data(try OpenSSL.sha256(spki)).base64EncodedString(),
            subjectAlternativeNames: Self.alternativeNames(x509))
    }

    private static func name(_ name: OpaquePointer?) throws(CertificateError) -> String {
        guard let name else { return "" }
        return try OpenSSL.writtenText("X509_NAME_print_ex") { X509_NAME_print_ex($0, name, 0, cossl_name_flags_rfc2253()) >= 0 }
    }

    /// The content octets as `i2a_ASN1_INTEGER` prints them, so the value compares equal to `openssl x509 -serial`.
    private static func serial(_ serial: UnsafePointer<ASN1_INTEGER>?) -> String {
        guard let serial, let data = ASN1_STRING_get0_data(serial), ASN1_STRING_length(serial) > 0 else { return "00" }
        let bytes = UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(serial)))
        let hex = bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        return ASN1_STRING_type(serial) == V_ASN1_NEG_INTEGER ? "-" + hex : hex
    }

    /// UTCTime and GeneralizedTime are both UTC; ASN1_TIME_to_tm normalises them and timegm reads the result as UTC.
    private static func date(_ time: UnsafePointer<ASN1_TIME>?, _ field: String) throws(CertificateError) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else {
            throw .malformedCertificate(reason: "unreadable \(field): \(OpenSSL.drainErrors())")
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func alternativeNames(_ x509: OpaquePointer) -> [String] {
        guard let names = cossl_x509_subject_alt_names(x509) else {
            ERR_clear_error()  // no extension: X509_get_ext_d2i may leave nothing or a harmless "not found"
            return []
        }
        defer { GENERAL_NAMES_free(names) }
        return (0..<cossl_general_names_count(names)).compactMap { index -> String? in
            var type: Int32 = -1
            guard let value = cossl_general_names_text(names, index, &type), let data = ASN1_STRING_get0_data(value) else {
                return nil
            }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(value))))
            return type == GEN_IPADD ? ipAddressText(bytes) : String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func ipAddressText(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        guard bytes.count == 16 else { return bytes.lowercaseHex }  // a name constraint's address/mask, not a host
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, bytes, &text, socklen_t(text.count)) != nil else { return bytes.lowercaseHex }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
