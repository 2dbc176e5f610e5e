/// Why certificate or identity material was refused. The cases are the distinctions a caller reports back
/// differently (a client sent the wrong passphrase, not a corrupt file); `reason` carries OpenSSL's own words.
public enum CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text held no `-----BEGIN CERTIFICATE-----` block at all.
    case noCertificate
    /// A PEM block was there but did not decode (bad base64, truncated, not a certificate inside).
    case malformedPEM(reason: String)
    /// DER bytes that are not an X.509 certificate.
    case malformedCertificate(reason: String)
    /// The bytes are not a PKCS#12 (PFX) structure.
    case notPKCS12(reason: String)
    /// The passphrase does not open the PKCS#12 file or the encrypted private key (or one was needed and
    /// none was given).
    case wrongPassphrase
    /// The passphrase is right (the MAC verifies) but a bag's encryption could not be undone: typically
    /// RC2-40 or 3DES (`openssl pkcs12 -export -legacy`) where OpenSSL's legacy provider is unavailable.
    case unsupportedEncryption(reason: String)
    /// The PKCS#12 file or PEM text holds no private key.
    case missingPrivateKey
    /// The PKCS#12 file holds no certificate for its private key.
    case missingCertificate
    /// The private key PEM did not decode for a reason other than the passphrase.
    case malformedPrivateKey(reason: String)
    /// OpenSSL failed where only a lack of memory or a bug makes it fail.
    case internalFailure(String)

    public var description: String {
        switch self {
        case .noCertificate: "no certificate found (expected a PEM block -----BEGIN CERTIFICATE-----)"
        case .malformedPEM(let reason): "malformed PEM certificate: \(reason)"
        case .malformedCertificate(let reason): "malformed DER certificate: \(reason)"
        case .notPKCS12(let reason): "not a PKCS#12 file: \(reason)"
        case .wrongPassphrase: "wrong or missing passphrase"
        case .unsupportedEncryption(let reason): "unsupported PKCS#12 encryption (legacy RC2/3DES?): \(reason)"
        case .missingPrivateKey: "no private key found"
        case .missingCertificate: "no certificate found for the private key"
        case .malformedPrivateKey(let reason): "malformed private key: \(reason)"
        case .internalFailure(let reason): "OpenSSL failure: \(reason)"
        }
    }
}
