import Certificates
import Foundation
import Testing

@Suite("Certificate details, against what the openssl command prints")
struct CertificateDetailsTests {
    /// Every field of `pem`'s first certificate, each compared with the `openssl x509` option that prints it.
    private func expectMatchesOpenSSL(_ pem: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let details = try #require(try Certificates.parsePEM(pem).first)
        func printed(_ options: String, prefix: String) throws -> String {
            let line = try Scratch.openssl("openssl x509 -in in.pem -noout -nameopt RFC2253 -dateopt iso_8601 \(options)", input: pem)
            return String(line.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(prefix.count))
        }
        #expect(details.pem == (try Scratch.openssl("openssl x509 -in in.pem", input: pem)), sourceLocation: sourceLocation)
        #expect(details.subject == (try printed("-subject", prefix: "subject=")), sourceLocation: sourceLocation)
        #expect(details.issuer == (try printed("-issuer", prefix: "issuer=")), sourceLocation: sourceLocation)
        #expect(details.serialNumber == (try printed("-serial", prefix: "serial=")), sourceLocation: sourceLocation)
        #expect(details.notValidBefore == Self.date(try printed("-startdate", prefix: "notBefore=")), sourceLocation: sourceLocation)
        #expect(details.notValidAfter == Self.date(try printed("-enddate", prefix: "notAfter=")), sourceLocation: sourceLocation)
        let fingerprint = try printed("-fingerprint -sha256", prefix: "sha256 Fingerprint=")
        #expect(details.sha256 == fingerprint.replacingOccurrences(of: ":", with: "").lowercased(), sourceLocation: sourceLocation)
        let spki = try Scratch.openssl(
            "openssl x509 -in in.pem -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
            input: pem)
        #expect(details.spkiSha256 == spki.trimmingCharacters(in: .whitespacesAndNewlines), sourceLocation: sourceLocation)
        let names = try Scratch.openssl("openssl x509 -in in.pem -noout -ext subjectAltName", input: pem)
        #expect(details.subjectAlternativeNames == Self.alternativeNames(names), sourceLocation: sourceLocation)
    }

    /// `openssl x509 -dateopt iso_8601` prints "2026-01-31 12:00:00Z".
    private static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.date(from: text)
    }

    /// The entries of `-ext subjectAltName`, IPv6 turned from OpenSSL's uncompressed form into RFC 5952's.
    private static func alternativeNames(_ printed: String) -> [String] {
        let lines = printed.split(separator: "\n").dropFirst()  // "X509v3 Subject Alternative Name:"
        return lines.joined().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map { entry in
            if entry.hasPrefix("DNS:") { return String(entry.dropFirst(4)) }
            let address = String(entry.dropFirst("IP Address:".count))
            guard address.contains(":") else { return address }
            var bytes = in6_addr()
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_pton(AF_INET6, address, &bytes) == 1, inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else {
                return address
            }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func everyFieldOfAnECCertificateMatchesOpenSSL() throws {
        let material = try Material.shared.get()
        try expectMatchesOpenSSL(material.ecPEM)
        let details = try Certificates.parsePEM(material.ecPEM)[0]
        #expect(details.subject == #"CN=ec.example,OU=\C3\89quipe,O=Example\, Inc.,C=FR"#)
        #expect(details.subject == details.issuer, "self-signed")
        #expect(details.subjectAlternativeNames == ["ec.example", "*.ec.example", "127.0.0.1", "2001:db8::1"])
        #expect(details.notValidAfter.timeIntervalSince(details.notValidBefore) == 30 * 86_400)
    }

    @Test(.timeLimit(.minutes(1)))
    func everyFieldOfAnRSACertificateMatchesOpenSSL() throws {
        let material = try Material.shared.get()
        try expectMatchesOpenSSL(material.rsaPEM)
        #expect(try Certificates.parsePEM(material.rsaPEM)[0].subjectAlternativeNames == ["rsa.example", "::1"])
    }

    @Test(.timeLimit(.minutes(1)))
    func everyFieldOfAChainMatchesOpenSSL() throws {
        let material = try Material.shared.get()
        for pem in [material.leafPEM, material.intermediatePEM, material.rootPEM, material.nosanPEM] {
            try expectMatchesOpenSSL(pem)
        }
        let leaf = try Certificates.parsePEM(material.leafPEM)[0]
        #expect(leaf.serialNumber == "FF12", "the DER sign byte is not part of the number")
        #expect(leaf.issuer == "CN=Test Intermediate CA,O=Test")
        #expect(try Certificates.parsePEM(material.nosanPEM)[0].subjectAlternativeNames.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aBundleKeepsItsOrderAndSkipsOtherBlocks() throws {
        let material = try Material.shared.get()
        let bundle =
            "# a comment\n" + material.leafPEM + material.leafKey + "text between\n" + material.intermediatePEM
            + material.rootPEM
        let chain = try Certificates.parsePEM(bundle)
        #expect(chain.map(\.subject) == ["CN=localhost", "CN=Test Intermediate CA,O=Test", "CN=Test Root CA,O=Test"])
        #expect(chain[1].issuer == chain[2].subject)
    }

    @Test(.timeLimit(.minutes(1)))
    func derGivesTheSameDetailsAsPEM() throws {
        let material = try Material.shared.get()
        let der = try Scratch.withDirectory { scratch in
            try scratch.write("leaf.pem", material.leafPEM)
            try scratch.sh("openssl x509 -in leaf.pem -outform der -out leaf.der")
            return try scratch.bytes("leaf.der")
        }
        #expect(try Certificates.details(der: der) == Certificates.parsePEM(material.leafPEM)[0])
        #expect(throws: CertificateError.self) { try Certificates.details(der: der + [0]) }
        #expect(throws: CertificateError.self) { try Certificates.details(der: Array(der.prefix(100))) }
        #expect(throws: CertificateError.self) { try Certificates.details(der: []) }
    }

    @Test(.timeLimit(.minutes(1)))
    func badPEMIsRefusedWithAClearError() throws {
        let material = try Material.shared.get()
        #expect(throws: CertificateError.noCertificate) { try Certificates.parsePEM("") }
        #expect(throws: CertificateError.noCertificate) { try Certificates.parsePEM(material.leafKey) }
        #expect(throws: CertificateError.noCertificate) { try Certificates.parsePEM("not PEM at all") }
        var lines = material.leafPEM.split(separator: "\n").map(String.init)
        lines[3] = String(repeating: "A", count: lines[3].count)
        let corrupted = lines.joined(separator: "\n") + "\n"
        let truncated = String(material.leafPEM.prefix(200))
        for bad in [corrupted, truncated, material.rootPEM + truncated] {
            do {
                _ = try Certificates.parsePEM(bad)
                Issue.record("accepted a damaged bundle")
            } catch {
                guard case .malformedPEM(let reason) = error else { throw error }
                #expect(!reason.isEmpty)
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func detailsSurviveACodableRoundTrip() throws {
        let details = try Certificates.parsePEM(try Material.shared.get().ecPEM)[0]
        let decoded = try JSONDecoder().decode(CertificateDetails.self, from: JSONEncoder().encode(details))
        #expect(decoded == details)
    }
}
