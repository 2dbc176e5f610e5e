import Certificates
import Foundation
import Testing

@Suite("Peer trust of a live handshake, and the URLSession codes it maps to")
struct PeerTrustTests {
    private typealias Failure = Certificates.VerifyFailure

    @Test(.timeLimit(.minutes(1)))
    func aChainToATrustedRootIsTrustedForItsNamesOnly() throws {
        let material = try Material.shared.get()
        let hosts = ["localhost", "LOCALHOST", "127.0.0.1", "::1", "[::1]", "example.com", "10.0.0.1", "[::2]", "", "local"]
        let (trust, matches) = try Handshake.connect(
            serverChainPEM: material.leafPEM + material.intermediatePEM, serverKeyPEM: material.leafKey, trustedPEM: material.rootPEM
        ) { ssl in
            (Certificates.peerTrust(ssl: ssl, host: "localhost"), hosts.map { Certificates.peerTrust(ssl: ssl, host: $0).hostMatches })
        }
        #expect(trust.verifyResult == 0 && trust.verifyMessage == "ok")
        #expect(trust.chain == (try Certificates.parsePEM(material.leafPEM + material.intermediatePEM)), "leaf first, as sent")
        #expect(trust.hostMatches && trust.urlErrorCode == nil)
        #expect(matches == [true, true, true, true, true, false, false, false, false, false])
    }

    @Test(.timeLimit(.minutes(1)))
    func wildcardsCoverOneLabelAndTheCommonNameIsIgnored() throws {
        let material = try Material.shared.get()
        let hosts = ["ec.example", "a.ec.example", "a.b.ec.example", "127.0.0.1", "2001:db8::1", "[2001:DB8:0::1]"]
        let matches = try Handshake.connect(serverChainPEM: material.ecPEM, serverKeyPEM: material.ecKey, trustedPEM: material.ecPEM) {
            ssl in hosts.map { Certificates.peerTrust(ssl: ssl, host: $0).hostMatches }
        }
        #expect(matches == [true, true, false, true, true, true])
        let noSAN = try Handshake.connect(serverChainPEM: material.nosanPEM, serverKeyPEM: material.nosanKey, trustedPEM: material.nosanPEM)
        {
            Certificates.peerTrust(ssl: $0, host: "localhost")
        }
        #expect(noSAN.verifyResult == 0 && !noSAN.hostMatches, "CN=localhost without subjectAltName does not name the host")
        #expect(noSAN.urlErrorCode == -1202)
    }

    @Test(.timeLimit(.minutes(1)))
    func untrustedChainsReportOpenSSLsReason() throws {
        let material = try Material.shared.get()
        let chain = material.leafPEM + material.intermediatePEM
        let cases: [(chain: String, key: String, expected: Int32, code: Int)] = [
            (material.ecPEM, material.ecKey, Failure.depthZeroSelfSignedCertificate, -1202),
            (chain, material.leafKey, Failure.unableToGetIssuerCertificateLocally, -1203),
            (chain + material.rootPEM, material.leafKey, Failure.selfSignedCertificateInChain, -1203),
        ]
        for (serverChain, key, expected, code) in cases {
            let trust = try Handshake.connect(serverChainPEM: serverChain, serverKeyPEM: key, trustedPEM: nil) {
                Certificates.peerTrust(ssl: $0, host: "localhost")
            }
            #expect(trust.verifyResult == expected, "\(trust.verifyMessage)")
            #expect(trust.urlErrorCode == code)
            #expect(!trust.chain.isEmpty && trust.verifyMessage != "ok")
        }
    }

    /// With libcurl's verification off the handshake's own result is meaningless; the chain is verified again
    /// against the caller's anchors (any certificate of the file may be one, as with libcurl's partial chains).
    @Test(.timeLimit(.minutes(1)))
    func anAnchorsFileDecidesInsteadOfTheHandshakesResult() throws {
        let material = try Material.shared.get()
        let results = try Scratch.withDirectory { scratch in
            let anchors = scratch.path("anchors.pem")
            func verify(_ pem: String?, chain: String, key: String) throws -> (Int32, Int32) {
                if let pem { try scratch.write("anchors.pem", pem) }
                return try Handshake.connect(serverChainPEM: chain, serverKeyPEM: key, trustedPEM: nil) { ssl in
                    (
                        Certificates.peerTrust(ssl: ssl, host: "localhost").verifyResult,
                        Certificates.peerTrust(ssl: ssl, host: "localhost", anchorsFile: anchors).verifyResult
                    )
                }
            }
            let chain = material.leafPEM + material.intermediatePEM
            return [
                try verify(material.rootPEM, chain: chain, key: material.leafKey),
                try verify(material.intermediatePEM, chain: chain, key: material.leafKey),
                try verify(material.ecPEM + material.rootPEM, chain: chain + material.rootPEM, key: material.leafKey),
                try verify(material.ecPEM, chain: chain, key: material.leafKey),
                try verify(nil, chain: material.ecPEM, key: material.ecKey),
                try verify("not a certificate", chain: material.ecPEM, key: material.ecKey),
            ]
        }
        #expect(results.map(\.1) == [0, 0, 0, Failure.unableToGetIssuerCertificateLocally, 0, Failure.unableToGetIssuerCertificateLocally])
        #expect(results.map(\.0) == [20, 20, 19, 20, 18, 18], "what the handshake itself found, trusting nothing")
    }

    @Test(.timeLimit(.minutes(1)))
    func datesOutsideTheValidityAreBadDates() throws {
        let material = try Material.shared.get()
        let leaf = try Certificates.parsePEM(material.leafPEM)[0]
        for (time, expected, code) in [
            (leaf.notValidAfter.addingTimeInterval(86_400), Failure.certificateHasExpired, -1201),
            (leaf.notValidBefore.addingTimeInterval(-86_400), Failure.certificateNotYetValid, -1204),
        ] {
            let trust = try Handshake.connect(
                serverChainPEM: material.leafPEM + material.intermediatePEM, serverKeyPEM: material.leafKey, trustedPEM: material.rootPEM,
                time: time
            ) { Certificates.peerTrust(ssl: $0, host: "localhost") }
            #expect(trust.verifyResult == expected, "\(trust.verifyMessage)")
            #expect(trust.hostMatches && trust.urlErrorCode == code)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theConstantsAreOpenSSLsCodes() {
        #expect(Failure.unableToGetIssuerCertificate == 2)
        #expect(Failure.certificateNotYetValid == 9)
        #expect(Failure.certificateHasExpired == 10)
        #expect(Failure.depthZeroSelfSignedCertificate == 18)
        #expect(Failure.selfSignedCertificateInChain == 19)
        #expect(Failure.unableToGetIssuerCertificateLocally == 20)
        #expect(Failure.unableToVerifyLeafSignature == 21)
        #expect(Failure.certificateUntrusted == 27)
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            (0, true, nil), (0, false, -1202), (10, true, -1201), (10, false, -1201), (9, true, -1204), (20, true, -1203),
            (2, true, -1203), (21, true, -1203), (19, true, -1203), (18, true, -1202), (27, true, -1202), (7, true, -1202),
            (23, true, -1202), (62, true, -1202),
        ] as [(Int32, Bool, Int?)])
    func urlErrorCodes(verifyResult: Int32, hostMatches: Bool, expected: Int?) {
        #expect(Certificates.urlErrorCode(verifyResult: verifyResult, hostMatches: hostMatches) == expected)
    }
}
