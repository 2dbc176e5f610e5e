import Certificates
import Foundation
import Testing

@Suite("PKCS#12 and PEM identities")
struct IdentityTests {
    private let passphrase = Material.passphrase

    /// The decoded identity is the leaf, then the file's CA certificates in order, and a PKCS#8 key that
    /// is the leaf's (the same PEM `openssl pkey` writes for it).
    private func expectIdentity(
        _ identity: (certificateChainPEM: String, privateKeyPEM: String), _ material: Material,
        chain expected: [String]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let chain = try Certificates.parsePEM(identity.certificateChainPEM)
        let expected = try (expected ?? [material.leafPEM, material.intermediatePEM, material.rootPEM]).map {
            try Certificates.parsePEM($0)[0]
        }
        #expect(chain == expected, sourceLocation: sourceLocation)
        #expect(identity.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), sourceLocation: sourceLocation)
        #expect(
            identity.privateKeyPEM == (try Scratch.openssl("openssl pkey -in in.pem", input: material.leafKey)),
            sourceLocation: sourceLocation)
        let matches = try Certificates.privateKeyMatches(
            certificatePEM: identity.certificateChainPEM, privateKeyPEM: identity.privateKeyPEM, passphrase: nil)
        #expect(matches, sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(1)))
    func aModernAESFileDecodes() throws {
        let material = try Material.shared.get()
        try expectIdentity(try Certificates.decodePKCS12(material.aesP12, passphrase: passphrase), material)
    }

    /// RC2-40 and 3DES need OpenSSL's legacy provider; where it is missing the error says so.
    @Test(.timeLimit(.minutes(1)))
    func aLegacyFileDecodesWhereTheLegacyProviderLoads() throws {
        let material = try Material.shared.get()
        if Certificates.legacyProviderAvailable {
            try expectIdentity(try Certificates.decodePKCS12(material.legacyP12, passphrase: passphrase), material)
        } else {
            do {
                _ = try Certificates.decodePKCS12(material.legacyP12, passphrase: passphrase)
                Issue.record("decoded RC2-40 without the legacy provider")
            } catch {
                guard case .unsupportedEncryption = error else { throw error }
            }
        }
        #expect(throws: CertificateError.wrongPassphrase) {
            try Certificates.decodePKCS12(material.legacyP12, passphrase: "wrong")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aWrongOrMissingPassphraseIsToldApart() throws {
        let material = try Material.shared.get()
        #expect(throws: CertificateError.wrongPassphrase) { try Certificates.decodePKCS12(material.aesP12, passphrase: "wrong") }
        #expect(throws: CertificateError.wrongPassphrase) { try Certificates.decodePKCS12(material.aesP12, passphrase: nil) }
        #expect(throws: CertificateError.wrongPassphrase) { try Certificates.decodePKCS12(material.aesP12, passphrase: "") }
    }

    @Test(.timeLimit(.minutes(1)))
    func anEmptyPasswordOpensWithNilOrEmpty() throws {
        let material = try Material.shared.get()
        for passphrase in [nil, ""] as [String?] {
            let identity = try Certificates.decodePKCS12(material.noPasswordP12, passphrase: passphrase)
            try expectIdentity(identity, material, chain: [material.leafPEM])
        }
        #expect(throws: CertificateError.wrongPassphrase) { try Certificates.decodePKCS12(material.noPasswordP12, passphrase: "x") }
    }

    @Test(.timeLimit(.minutes(1)))
    func aFileWithoutKeyOrCertificateOrNotPKCS12IsRefused() throws {
        let material = try Material.shared.get()
        #expect(throws: CertificateError.missingPrivateKey) {
            try Certificates.decodePKCS12(material.certificateOnlyP12, passphrase: passphrase)
        }
        #expect(throws: CertificateError.missingCertificate) {
            try Certificates.decodePKCS12(material.keyOnlyP12, passphrase: passphrase)
        }
        for notPKCS12 in [Array(material.leafPEM.utf8), [], Array(material.aesP12.prefix(64))] {
            do {
                _ = try Certificates.decodePKCS12(notPKCS12, passphrase: passphrase)
                Issue.record("decoded \(notPKCS12.count) bytes that are no PKCS#12 file")
            } catch {
                guard case .notPKCS12(let reason) = error else { throw error }
                #expect(!reason.isEmpty)
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPEMKeyMatchesOnlyItsCertificate() throws {
        let material = try Material.shared.get()
        let pairs = [
            (material.leafPEM, material.leafKey), (material.ecPEM, material.ecKey), (material.rsaPEM, material.rsaKey),
            (material.rsaPEM, material.rsaTraditionalKey), (material.leafPEM + material.intermediatePEM, material.leafKey),
        ]
        for (certificate, key) in pairs {
            #expect(try Certificates.privateKeyMatches(certificatePEM: certificate, privateKeyPEM: key, passphrase: nil))
        }
        #expect(try !Certificates.privateKeyMatches(certificatePEM: material.leafPEM, privateKeyPEM: material.rootKey, passphrase: nil))
        #expect(try !Certificates.privateKeyMatches(certificatePEM: material.ecPEM, privateKeyPEM: material.rsaKey, passphrase: nil))
        #expect(
            try !Certificates.privateKeyMatches(
                certificatePEM: material.intermediatePEM + material.leafPEM, privateKeyPEM: material.leafKey, passphrase: nil))
    }

    @Test(.timeLimit(.minutes(1)))
    func anEncryptedPEMKeyNeedsItsPassphrase() throws {
        let material = try Material.shared.get()
        let encrypted = material.leafEncryptedKey
        #expect(encrypted.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        #expect(try Certificates.privateKeyMatches(certificatePEM: material.leafPEM, privateKeyPEM: encrypted, passphrase: passphrase))
        for wrong in [nil, "", "wrong"] as [String?] {
            #expect(throws: CertificateError.wrongPassphrase) {
                try Certificates.privateKeyMatches(certificatePEM: material.leafPEM, privateKeyPEM: encrypted, passphrase: wrong)
            }
        }
        #expect(throws: CertificateError.missingPrivateKey) {
            try Certificates.privateKeyMatches(certificatePEM: material.leafPEM, privateKeyPEM: material.leafPEM, passphrase: nil)
        }
        #expect(throws: CertificateError.noCertificate) {
            try Certificates.privateKeyMatches(certificatePEM: material.leafKey, privateKeyPEM: material.leafKey, passphrase: nil)
        }
        let damaged = material.leafKey.replacingOccurrences(of: "\n", with: "\n!")
        #expect(throws: CertificateError.self) {
            try Certificates.privateKeyMatches(certificatePEM: material.leafPEM, privateKeyPEM: damaged, passphrase: nil)
        }
    }
}
