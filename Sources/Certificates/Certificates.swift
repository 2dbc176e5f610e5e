internal import COpenSSL

/// X.509 and PKCS#12 through the OpenSSL libcurl itself uses, so what the service reports about a certificate
/// (fingerprints, names, dates) is computed by the same library that verified it.
public enum Certificates {
    /// Every certificate of a PEM bundle, in order. Other PEM blocks (keys, parameters) and text between blocks
    /// are skipped, as OpenSSL and curl skip them in a CA bundle; a `CERTIFICATE` block that does not decode is
    /// an error rather than skipped, so a damaged bundle is not silently trusted by half.
    public static func parsePEM(_ pem: String) throws(CertificateError) -> [CertificateDetails] {
        try OpenSSL.withReadBIO(Array(pem.utf8)) { bio throws(CertificateError) in
            ERR_clear_error()
            var certificates: [CertificateDetails] = []
            while true {
                guard let x509 = PEM_read_bio_X509(bio, nil, nil, nil) else {
                    let last = ERR_peek_last_error()
                    guard cossl_err_lib(last) == ERR_LIB_PEM, cossl_err_reason(last) == PEM_R_NO_START_LINE else {
                        throw .malformedPEM(reason: OpenSSL.drainErrors())
                    }
                    ERR_clear_error()  // "no start line" only says the last block has been read
                    break
                }
                defer { X509_free(x509) }
                certificates.append(try CertificateDetails(x509: x509))
            }
            guard !certificates.isEmpty else { throw .noCertificate }
            return certificates
        }
    }

    /// One DER certificate. Bytes after the certificate are refused: they mean the input was not what the caller
    /// thought (a chain, or PEM read as bytes).
    public static func details(der: [UInt8]) throws(CertificateError) -> CertificateDetails {
        let x509 = try x509(der: der)
        defer { X509_free(x509) }
        return try CertificateDetails(x509: x509)
    }

    /// An owned `X509 *` (the caller frees it) from exactly `der`.
    static func x509(der: [UInt8]) throws(CertificateError) -> OpaquePointer {
        guard !der.isEmpty else { throw .malformedCertificate(reason: "no bytes") }
        ERR_clear_error()
        let (x509, consumed) = der.withUnsafeBufferPointer { buffer -> (OpaquePointer?, Int) in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            return (x509, cursor.map { $0 - (buffer.baseAddress ?? $0) } ?? 0)
        }
        guard let x509 else { throw .malformedCertificate(reason: OpenSSL.drainErrors()) }
        guard consumed == der.count else {
            X509_free(x509)
            throw .malformedCertificate(reason: "\(der.count - consumed) bytes after the certificate")
        }
        return x509
    }

    /// An owned `X509 *` for the first certificate of `pem` (the leaf of a chain).
    static func firstX509(pem: String) throws(CertificateError) -> OpaquePointer {
        try OpenSSL.withReadBIO(Array(pem.utf8)) { bio throws(CertificateError) in
            ERR_clear_error()
            guard let x509 = PEM_read_bio_X509(bio, nil, nil, nil) else {
                let last = ERR_peek_last_error()
                if cossl_err_lib(last) == ERR_LIB_PEM, cossl_err_reason(last) == PEM_R_NO_START_LINE {
                    ERR_clear_error()
                    throw .noCertificate
                }
                throw .malformedPEM(reason: OpenSSL.drainErrors())
            }
            return x509
        }
    }

    /// Owned `X509 *`s for every certificate of `pem`, in order (a chain, leaf first).
    static func allX509(pem: String) throws(CertificateError) -> [OpaquePointer] {
        try OpenSSL.withReadBIO(Array(pem.utf8)) { bio throws(CertificateError) in
            ERR_clear_error()
            var certificates: [OpaquePointer] = []
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) { certificates.append(x509) }
            ERR_clear_error()  // the end of the text reads as a "no start line" error
            guard !certificates.isEmpty else { throw .noCertificate }
            return certificates
        }
    }
}
