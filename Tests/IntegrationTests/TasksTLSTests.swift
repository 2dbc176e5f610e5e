import Foundation
import TestSupport
import Testing

/// HTTPS through the real binary, against Debian's nginx with a self-signed certificate.
@Suite("Tasks over TLS")
struct TasksTLSTests {
    @Test(.timeLimit(.minutes(1)))
    func selfSignedOriginFailsWithACertificateErrorUnlessTrusted() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["file.bin": FixtureOrigin.bytes(count: 100_000, seed: 2)])
        defer { origin.stop() }
        let body = #"{"kind": "download", "request": {"url": "\#(origin.url("/file.bin"))"}, "resume": true}"#
        let untrusted = ["URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8"]
        try await withRunningService(environment: untrusted) { service, client in
            let api = API(service, client)
            let task = try await api.post("/v1/sessions/shared/tasks?wait=20", json: body).json()
            let error = try #require(task["error"] as? [String: Any])
            #expect(error["code"] as? Int == -1202)  // serverCertificateUntrusted: self-signed
            #expect((error["underlying"] as? [String: Any])?["code"] as? Int == 60)
        }
        let trusted = untrusted.merging(["URLSESSIOND_CA_FILE": try #require(origin.certificatePath)]) { $1 }
        try await withRunningService(environment: trusted) { service, client in
            let api = API(service, client)
            let task = try await api.post("/v1/sessions/shared/tasks?wait=20", json: body).json()
            #expect(task["error"] is NSNull)
            let id = try #require(task["id"] as? String)
            let metrics = try await api.get("/v1/tasks/\(id)/metrics").json()
            let transaction = try #require((metrics["transactionMetrics"] as? [[String: Any]])?.first)
            #expect(transaction["networkProtocolName"] as? String == "h2")
            let file = try await api.get("/v1/tasks/\(id)/file")
            #expect(file.body == FixtureOrigin.bytes(count: 100_000, seed: 2))
            // The extra authority is added to the system store, not put in its place.
            let bundle = try String(contentsOf: service.dataDirectory.appendingPathComponent("trust/service.pem"), encoding: .utf8)
            let system = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
            let extra = try String(contentsOfFile: try #require(origin.certificatePath), encoding: .utf8)
            #expect(bundle.hasPrefix(system) && bundle.contains(extra))
        }
    }

    /// `tlsMinimumSupportedProtocolVersion` and `…Maximum…` hold: a TLS 1.3 minimum against an origin that
    /// speaks only TLS 1.2 fails with -1200 (`secureConnectionFailed`), a 1.2 maximum against a 1.3-only
    /// one too, and the versions both allow work.
    @Test(.timeLimit(.minutes(1)))
    func theSessionsTLSVersionsAreHeld() async throws {
        let onlyTLS12 = try await NginxOrigin.start(tls: true, files: ["a": Array("a".utf8)], tlsProtocols: ["TLSv1.2"])
        let onlyTLS13 = try await NginxOrigin.start(tls: true, files: ["a": Array("a".utf8)], tlsProtocols: ["TLSv1.3"])
        defer {
            onlyTLS12.stop()
            onlyTLS13.stop()
        }
        let bundle = try TemporaryDirectory.make(prefix: "tls-versions")
        defer { bundle.remove() }
        let authorities = bundle.appending("ca.pem")
        let pems = try [onlyTLS12, onlyTLS13].map { try String(contentsOfFile: try #require($0.certificatePath), encoding: .utf8) }
        try pems.joined(separator: "\n").write(to: authorities, atomically: true, encoding: .utf8)
        let environment = [
            "URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8", "URLSESSIOND_CA_FILE": authorities.path,
        ]
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            let modern = try await api.makeSession(["tlsMinimumSupportedProtocolVersion": "TLSv13"])
            let old = try await api.makeSession(["tlsMaximumSupportedProtocolVersion": "TLSv12"])
            let fetch = { (session: String, origin: NginxOrigin) in
                try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/a")]])
            }
            #expect(try await fetch(modern, onlyTLS12).errorCode == -1200)
            #expect(try await fetch(old, onlyTLS13).errorCode == -1200)
            #expect(try await fetch(modern, onlyTLS13).statusCode == 200)
            #expect(try await fetch(old, onlyTLS12).statusCode == 200)
        }
    }

    /// `serverTrust.pinnedPublicKeys`: the origin's key pinned, the task succeeds; another key pinned, it
    /// fails with -1202 although the system evaluation (the CA file) trusts the certificate.
    @Test(.timeLimit(.minutes(1)))
    func publicKeyPinsAreHeld() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("pinned".utf8)])
        defer { origin.stop() }
        let certificate = try #require(origin.certificatePath)
        let pin = try Self.spkiPin(ofCertificate: certificate)
        let other = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let environment = [
            "URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8", "URLSESSIOND_CA_FILE": certificate,
        ]
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            // No URL cache: the shared one would answer the second session from the first one's response.
            let pinned = try await api.makeSession(["serverTrust": ["pinnedPublicKeys": [other, pin]], "urlCache": NSNull()])
            let wrong = try await api.makeSession(["serverTrust": ["pinnedPublicKeys": [other]], "urlCache": NSNull()])
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/a")]]
            #expect(try await api.runTask(session: pinned, request).statusCode == 200)
            let refused = try await api.runTask(session: wrong, request)
            #expect(refused.errorCode == -1202, "\(refused)")
            let invalid = try await api.post(
                "/v1/sessions", json: #"{"configuration": {"serverTrust": {"pinnedPublicKeys": ["sha1//abc"]}}}"#)
            #expect(invalid.status == 422 && invalid.text.contains("serverTrust.pinnedPublicKeys[0]"), "\(invalid.text)")
        }
    }

    /// `serverTrust.anchors`: a session that names the origin's certificate as an anchor trusts it; another
    /// session of the same service does not (-1202), and the service trusts nothing extra.
    @Test(.timeLimit(.minutes(1)))
    func aSessionsAnchorsAreItsOwn() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("anchored".utf8)])
        defer { origin.stop() }
        let certificate = try String(contentsOfFile: try #require(origin.certificatePath), encoding: .utf8)
        let environment = ["URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8"]
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            let anchored = try await api.makeSession(["serverTrust": ["anchors": [certificate]], "urlCache": NSNull()])
            let plain = try await api.makeSession(["urlCache": NSNull()])
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/a")]]
            let trusted = try await api.runTask(session: anchored, request)
            #expect(trusted.statusCode == 200, "\(trusted)")
            #expect(try await api.taskData(trusted.taskID).text == "anchored")
            #expect(try await api.runTask(session: plain, request).errorCode == -1202)
            let invalid = try await api.post("/v1/sessions", json: #"{"configuration": {"serverTrust": {"anchors": ["not pem"]}}}"#)
            #expect(invalid.status == 422 && invalid.text.contains("serverTrust.anchors[0]"), "\(invalid.text)")
        }
    }

    /// `sha256//` and the base64 SHA-256 of the certificate's DER SubjectPublicKeyInfo, by the openssl CLI.
    static func spkiPin(ofCertificate path: String) throws -> String {
        let script = "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return "sha256//" + String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
