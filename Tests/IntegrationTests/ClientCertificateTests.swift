import Foundation
import TestSupport
import Testing

/// Mutual TLS: a client identity stored for `https://host:port` (`NSURLAuthenticationMethodClientCertificate`)
/// is presented when the server asks for one; without one the task goes on without, and the server's
/// refusal is the response. Against nginx with `ssl_verify_client on` and a test CA.
@Suite("Client certificates")
struct ClientCertificateTests {
    /// A test CA and a client certificate it issued, made by the openssl CLI in `directory`.
    static func makeClientIdentity(in directory: TemporaryDirectory) throws -> (ca: String, certificate: String, key: String) {
        let path = { (name: String) in directory.appending(name).path }
        let script = """
            set -e
            openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=test-ca -keyout '\(path("ca.key"))' -out '\(path("ca.pem"))' 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -subj /CN=client -keyout '\(path("client.key"))' -out '\(path("client.csr"))' 2>/dev/null
            openssl x509 -req -in '\(path("client.csr"))' -CA '\(path("ca.pem"))' -CAkey '\(path("ca.key"))' -CAcreateserial \
                -days 1 -out '\(path("client.pem"))' 2>/dev/null
            chmod a+r '\(path("ca.pem"))'
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl failed")
        return (
            path("ca.pem"), try String(contentsOfFile: path("client.pem"), encoding: .utf8),
            try String(contentsOfFile: path("client.key"), encoding: .utf8)
        )
    }

    @Test(.timeLimit(.minutes(1)))
    func aStoredIdentityIsPresentedWhenTheServerAsksForOne() async throws {
        let directory = try TemporaryDirectory.make(prefix: "mtls")
        defer { directory.remove() }
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        let identity = try Self.makeClientIdentity(in: directory)
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("mutual".utf8)], clientCertificateAuthority: identity.ca)
        defer { origin.stop() }
        let environment = [
            "URLSESSIOND_TOKENS": Tokens.list, "URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8",
            "URLSESSIOND_CA_FILE": try #require(origin.certificatePath),
        ]
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            let session = try await api.makeSession()
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/a")]]
            let without = try await api.runTask(session: session, request)
            #expect(without.statusCode == 400, "no identity: the server's refusal is the response: \(without)")

            let space: [String: Any] = [
                "host": "127.0.0.1", "port": origin.port, "protocol": "https",
                "authenticationMethod": "NSURLAuthenticationMethodClientCertificate",
            ]
            let body: [String: Any] = [
                "protectionSpace": space,
                "credential": ["identity": ["certificateChain": identity.certificate, "privateKey": identity.key]],
            ]
            let stored = try await api.post("/v1/credentials", json: try jsonText(body))
            #expect(stored.status == 201, "\(stored.text)")
            #expect(try stored.json()["kind"] as? String == "identity")
            #expect(!stored.text.contains("PRIVATE KEY"), "the key never comes back")
            let with = try await api.runTask(session: session, request)
            #expect(with.statusCode == 200, "\(with)")
            #expect(try await api.taskData(with.taskID).text == "mutual")

            // The key is sealed at rest and never shown: not in the database files, the log, or any listing.
            let keyLine = try #require(identity.key.split(separator: "\n").dropFirst().first.map(String.init))
            #expect(try CredentialsTests.databaseFiles(in: service.dataDirectory, holding: keyLine).isEmpty, "the key is in clear")
            #expect(!(try String(contentsOf: service.logFile, encoding: .utf8)).contains(keyLine))
            #expect(!(try await api.get("/v1/credentials").text).contains(keyLine))
        }
    }

    /// nginx asking for a client certificate signed by a fresh CA, trusted by the service (URLSESSIOND_CA_FILE).
    static func mutualTLSOrigin(_ directory: TemporaryDirectory) async throws -> (
        NginxOrigin, identity: (ca: String, certificate: String, key: String)
    ) {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        let identity = try Self.makeClientIdentity(in: directory)
        let origin = try await NginxOrigin.start(tls: true, files: ["a": Array("mutual".utf8)], clientCertificateAuthority: identity.ca)
        return (origin, identity)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func theDelegatesIdentityAnswersTheSessionLevelChallenge(givesIdentity: Bool) async throws {
        let directory = try TemporaryDirectory.make(prefix: "mtls")
        defer { directory.remove() }
        let (origin, identity) = try await Self.mutualTLSOrigin(directory)
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        let answer = try jsonText([
            "disposition": "useCredential",
            "credential": ["identity": ["certificateChain": identity.certificate, "privateKey": identity.key]],
        ])
        receiver.respond { request in
            guard let event = try? request.json(), event["type"] as? String == "session.didReceiveChallenge" else { return .ok }
            let space = ((event["data"] as? [String: Any])?["challenge"] as? [String: Any])?["protectionSpace"] as? [String: Any]
            let asksForCertificate = space?["authenticationMethod"] as? String == "NSURLAuthenticationMethodClientCertificate"
            return asksForCertificate && givesIdentity ? .json(answer) : .json(#"{"disposition": "performDefaultHandling"}"#)
        }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_CA_FILE": try #require(origin.certificatePath)]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let body: [String: Any] = [
                "delegate": ["url": receiver.url("/hooks"), "decisions": ["session.didReceiveChallenge"], "decisionTimeout": 5]
            ]
            let session = try #require(try await api.createSession(json: try jsonText(body))["id"] as? String)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/a")]])
            #expect(task.statusCode == (givesIdentity ? 200 : 400), "none given: the server's refusal: \(task)")
            let methods = receiver.requests.compactMap { try? $0.json() }.filter { $0["type"] as? String == "session.didReceiveChallenge" }
                .compactMap { (($0["data"] as? [String: Any])?["challenge"] as? [String: Any])?["protectionSpace"] as? [String: Any] }
                .compactMap { $0["authenticationMethod"] as? String }
            #expect(methods == ["NSURLAuthenticationMethodServerTrust", "NSURLAuthenticationMethodClientCertificate"], "\(methods)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPKCS12IdentityIsOpenedWithItsPassphraseAndBadIdentitiesAreRefused() async throws {
        let directory = try TemporaryDirectory.make(prefix: "mtls")
        defer { directory.remove() }
        let (origin, identity) = try await Self.mutualTLSOrigin(directory)
        defer { origin.stop() }
        let bundle = directory.appending("client.p12").path
        let pem = directory.appending("client.pem").path
        let key = directory.appending("client.key").path
        let export = Process()
        export.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        export.arguments = ["pkcs12", "-export", "-in", pem, "-inkey", key, "-passout", "pass:p12-pass", "-out", bundle]
        try export.run()
        export.waitUntilExit()
        let pkcs12 = try Data(contentsOf: URL(fileURLWithPath: bundle)).base64EncodedString()
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_CA_FILE": try #require(origin.certificatePath)]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let space: [String: Any] = [
                "host": "127.0.0.1", "port": origin.port, "protocol": "https",
                "authenticationMethod": "NSURLAuthenticationMethodClientCertificate",
            ]
            func store(_ identity: [String: Any]) async throws -> TestHTTPResponse {
                try await api.post("/v1/credentials", json: try jsonText(["protectionSpace": space, "credential": ["identity": identity]]))
            }
            let wrongPassphrase = try await store(["pkcs12": pkcs12, "passphrase": "nope"])
            #expect(wrongPassphrase.status == 422 && wrongPassphrase.text.contains("credential.identity.pkcs12"), "\(wrongPassphrase.text)")
            let otherKey = try await store(["certificateChain": identity.certificate, "privateKey": Self.unrelatedKey()])
            #expect(otherKey.status == 422 && otherKey.text.contains("credential.identity.privateKey"), "\(otherKey.text)")

            let stored = try await store(["pkcs12": pkcs12, "passphrase": "p12-pass"])
            #expect(stored.status == 201, "\(stored.text)")
            let summary = try stored.json()["identity"] as? [String: Any]
            #expect((summary?["subject"] as? String)?.contains("CN=client") == true, "\(stored.text)")
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/a")]])
            #expect(task.statusCode == 200, "\(task)")
        }
    }

    /// A key that belongs to no certificate here.
    static func unrelatedKey() throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
