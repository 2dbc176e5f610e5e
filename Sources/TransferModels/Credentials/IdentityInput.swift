import Foundation
public import JSONCodec

/// A client identity as a client gives it: a PEM certificate chain (leaf first) and private key
/// (encrypted when a passphrase is given), or a PKCS#12 bundle (base64) and its passphrase.
public struct IdentityInput: Decodable, Sendable, Equatable {
    public var certificateChain: String?
    public var privateKey: String?
    /// PKCS#12 (`.p12`, `.pfx`), base64.
    public var pkcs12: String?
    public var passphrase: String?

    public init(certificateChain: String? = nil, privateKey: String? = nil, pkcs12: String? = nil, passphrase: String? = nil) {
        (self.certificateChain, self.privateKey, self.pkcs12, self.passphrase) = (certificateChain, privateKey, pkcs12, passphrase)
    }

    /// The form checked (`field` names it in errors): PEM chain and key, or PKCS#12, never both.
    public func validated(field: String) throws(RequestDecodingError) -> IdentityInput {
        if let passphrase, passphrase.count > 1024 { throw .invalidValue("\(field).passphrase", "at most 1024 characters") }
        if let pkcs12 {
            guard certificateChain == nil, privateKey == nil else {
                throw .invalidValue(field, "give pkcs12, or certificateChain and privateKey, not both")
            }
            guard pkcs12.utf8.count <= 131_072, let bytes = Data(base64Encoded: pkcs12), !bytes.isEmpty else {
                throw .invalidValue("\(field).pkcs12", "must be a PKCS#12 bundle in base64 (at most 96 KiB)")
            }
            return self
        }
        guard let certificateChain else { throw .missingField("\(field).certificateChain") }
        guard let privateKey else { throw .missingField("\(field).privateKey") }
        guard certificateChain.contains("-----BEGIN CERTIFICATE-----"), certificateChain.utf8.count <= 65_536 else {
            throw .invalidValue("\(field).certificateChain", "must be PEM certificates (at most 64 KiB)")
        }
        guard privateKey.contains("PRIVATE KEY-----"), privateKey.utf8.count <= 16_384 else {
            throw .invalidValue("\(field).privateKey", "must be a PEM private key (at most 16 KiB)")
        }
        return self
    }
}

/// A server-trust exception: "trust this certificate for this host" (`URLCredential(trust:)` kept), by
/// the SHA-256 of the certificate (hex) or of its public key (SubjectPublicKeyInfo, base64, as libcurl's
/// pins write it). Either one matching the leaf a server presents accepts the connection.
public struct TrustException: Codable, Sendable, Hashable {
    public var certificateSha256: String?
    public var spkiSha256: String?

    public init(certificateSha256: String?, spkiSha256: String?) {
        (self.certificateSha256, self.spkiSha256) = (certificateSha256, spkiSha256)
    }

    /// Whether a leaf with these digests is the one excepted.
    public func matches(_ certificateSha256: String, _ spkiSha256: String) -> Bool {
        self.certificateSha256 == certificateSha256 || self.spkiSha256 == spkiSha256
    }

    /// The digests normalised (hex lowercase without colons), or the field at fault.
    public func validated(field: String) throws(RequestDecodingError) -> TrustException {
        guard certificateSha256 != nil || spkiSha256 != nil else {
            throw .invalidValue(field, "give certificateSha256 (hex) or spkiSha256 (base64), or both")
        }
        var result = self
        if let hex = certificateSha256 {
            let digits = hex.lowercased().filter { $0 != ":" }
            guard digits.count == 64, digits.allSatisfy(\.isHexDigit) else {
                throw .invalidValue("\(field).certificateSha256", "must be a SHA-256 in hex (64 digits, colons allowed)")
            }
            result.certificateSha256 = digits
        }
        if let base64 = spkiSha256 {
            let digest = base64.hasPrefix("sha256//") ? String(base64.dropFirst(8)) : base64
            guard Data(base64Encoded: digest)?.count == 32 else {
                throw .invalidValue("\(field).spkiSha256", "must be a SHA-256 in base64 (44 characters), as a pin writes it")
            }
            result.spkiSha256 = digest
        }
        return result
    }
}
