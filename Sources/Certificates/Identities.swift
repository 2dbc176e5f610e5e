internal import COpenSSL

/// Client identities: PKCS#12 files and PEM certificate + key pairs, turned into the PEM libcurl is given
/// (CURLOPT_SSLCERT_BLOB / CURLOPT_SSLKEY_BLOB), and checked before a transfer so a mismatch is reported
/// as the identity's fault rather than as a failed handshake.
extension Certificates {
    /// Whether OpenSSL's legacy provider is loaded, so PKCS#12 files protected with RC2-40 or 3DES (what
    /// `openssl pkcs12 -export -legacy` and many older tools write) can be read. Loaded once, on first use;
    /// it only adds old algorithms to the process's default library context, TLS negotiation does not change.
    public static var legacyProviderAvailable: Bool { LegacyProvider.loaded }

    /// The identity in a DER PKCS#12 (PFX) file: the certificate that goes with the private key, then the
    /// other certificates of the file in their order; the key as unencrypted PKCS#8 PEM.
    ///
    /// The MAC is checked before anything is decrypted, so a wrong passphrase is told apart from a cipher
    /// OpenSSL cannot undo. A nil or empty passphrase tries "no password" and then "", as OpenSSL's own
    /// PKCS12_parse does, since tools differ in which of the two they wrote.
    public static func decodePKCS12(_ der: [UInt8], passphrase: String?) throws(CertificateError)
        -> (certificateChainPEM: String, privateKeyPEM: String)
    {
        _ = LegacyProvider.loaded
        guard !der.isEmpty else { throw .notPKCS12(reason: "no bytes") }
        ERR_clear_error()
        let p12 = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let p12 else { throw .notPKCS12(reason: OpenSSL.drainErrors()) }
        defer { PKCS12_free(p12) }
        let password = try macPassword(p12, passphrase)

        var key: OpaquePointer?
        var leaf: OpaquePointer?
        var others: OpaquePointer?
        let parsed = OpenSSL.withOptionalCString(password) { PKCS12_parse(p12, $0, &key, &leaf, &others) }
        defer {
            EVP_PKEY_free(key)
            X509_free(leaf)
            cossl_x509_stack_free(others)
        }
        guard parsed == 1 else {
            // The MAC verified, so the passphrase is right: what failed is decrypting or decoding a bag.
            throw .unsupportedEncryption(reason: OpenSSL.drainErrors())
        }
        guard let key else { throw .missingPrivateKey }
        guard let leaf else { throw .missingCertificate }  // PKCS12_parse keeps only the certificate matching the key
        var chain = try OpenSSL.writtenText("PEM_write_bio_X509") { PEM_write_bio_X509($0, leaf) == 1 }
        for certificate in OpenSSL.certificates(in: others) {
            chain += try OpenSSL.writtenText("PEM_write_bio_X509") { PEM_write_bio_X509($0, certificate) == 1 }
        }
        let keyPEM = try OpenSSL.writtenText("PEM_write_bio_PKCS8PrivateKey") { cossl_write_pkcs8_private_key($0, key) == 1 }
        return (chain, keyPEM)
    }

    /// Whether the private key belongs to the first certificate of `certificatePEM` (X509_check_private_key).
    /// `privateKeyPEM` may be PKCS#8, traditional RSA/EC, or encrypted with `passphrase`.
    public static func privateKeyMatches(certificatePEM: String, privateKeyPEM: String, passphrase: String?) throws(CertificateError)
        -> Bool
    {
        let x509 = try firstX509(pem: certificatePEM)
        defer { X509_free(x509) }
        let key = try privateKey(pem: privateKeyPEM, passphrase: passphrase)
        defer { EVP_PKEY_free(key) }
        let matches = X509_check_private_key(x509, key) == 1
        ERR_clear_error()  // a mismatch is an answer here, not an error to report later
        return matches
    }

    /// An owned `EVP_PKEY *`. OpenSSL's errors for a wrong passphrase vary with the format, so an encrypted
    /// PEM (PKCS#8 `ENCRYPTED PRIVATE KEY` or a traditional `Proc-Type: 4,ENCRYPTED` header) that does not
    /// open is reported as the passphrase's fault.
    static func privateKey(pem: String, passphrase: String?) throws(CertificateError) -> OpaquePointer {
        guard pem.contains("PRIVATE KEY-----") else { throw .missingPrivateKey }
        return try OpenSSL.withReadBIO(Array(pem.utf8)) { bio throws(CertificateError) in
            ERR_clear_error()
            guard let key = OpenSSL.withOptionalCString(passphrase, { cossl_read_private_key(bio, $0) }) else {
                let reason = OpenSSL.drainErrors()
                if pem.contains("ENCRYPTED") { throw .wrongPassphrase }
                throw .malformedPrivateKey(reason: reason)
            }
            return key
        }
    }

    /// The password PKCS12_parse is to be given (nil: NULL), once the MAC has confirmed it.
    private static func macPassword(_ p12: OpaquePointer, _ passphrase: String?) throws(CertificateError) -> String? {
        guard PKCS12_mac_present(p12) == 1 else { return passphrase }
        let candidates: [String?] = (passphrase ?? "").isEmpty ? [nil, ""] : [passphrase]
        for candidate in candidates {
            let verified = OpenSSL.withOptionalCString(candidate) { PKCS12_verify_mac(p12, $0, -1) }
            if verified == 1 { return candidate }
            // A MAC that merely differs queues no error; one OpenSSL cannot compute (unknown digest) does.
            if ERR_peek_error() != 0 { throw .unsupportedEncryption(reason: OpenSSL.drainErrors()) }
        }
        throw .wrongPassphrase
    }
}

/// The one attempt at loading the legacy provider. "default" is loaded explicitly first because loading any
/// provider explicitly stops OpenSSL from loading the default one by itself.
private enum LegacyProvider {
    static let loaded: Bool = {
        let base = OSSL_PROVIDER_load(nil, "default") != nil
        let legacy = OSSL_PROVIDER_load(nil, "legacy") != nil
        ERR_clear_error()  // a missing legacy.so is an answer, not an error for the next caller
        return base && legacy
    }()
}
