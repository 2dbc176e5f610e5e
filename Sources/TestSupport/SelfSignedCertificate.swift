import Foundation

/// A self-signed certificate for 127.0.0.1 (subjectAltName `IP:127.0.0.1`), valid for a day: what a test
/// server presents over TLS, and what a session's `serverTrust.anchors` trusts to reach it.
enum SelfSignedCertificate {
    /// Writes `cert.pem` and `key.pem` (RSA 2048, unencrypted) into `directory`; their paths.
    static func make(in directory: TemporaryDirectory) throws -> (certificate: String, key: String) {
        let certificate = directory.appending("cert.pem").path
        let key = directory.appending("key.pem").path
        try NginxOrigin.runTool(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ])
        return (certificate, key)
    }
}
