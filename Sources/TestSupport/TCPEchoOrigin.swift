import Foundation

/// A TCP echo server on loopback, for tests of the service's stream tasks: it runs `Tests/Fixtures/tcp_echo.py`
/// (its doc string says what it does) with the standard library's Python. Plain, it echoes and closes at
/// the client's end; `starttls`, it answers `STARTTLS\r\n` with `OK\r\n` and echoes over TLS with a
/// self-signed certificate for 127.0.0.1 (`certificatePEM`). A `greeting` is sent to each connection first,
/// as a server that speaks first does (SMTP's `220`). The port comes from the OS.
public final class TCPEchoOrigin: Sendable {
    public var port: Int { script.port }
    /// The certificate the `starttls` server presents (PEM); nil for a plain one.
    public let certificatePEM: String?
    private let script: FixtureScript
    private let directory: TemporaryDirectory

    private init(script: FixtureScript, certificatePEM: String?, directory: TemporaryDirectory) {
        self.script = script
        self.certificatePEM = certificatePEM
        self.directory = directory
    }

    deinit { stop() }

    public static func start(starttls: Bool = false, greeting: String? = nil) async throws -> TCPEchoOrigin {
        let directory = try TemporaryDirectory.make(prefix: "tcp-echo")
        do {
            var arguments: [String] = []
            var certificatePEM: String?
            if starttls {
                let (certificate, key) = try SelfSignedCertificate.make(in: directory)
                arguments = ["--starttls", "--certificate", certificate, "--key", key]
                certificatePEM = try String(contentsOfFile: certificate, encoding: .utf8)
            }
            if let greeting { arguments += ["--greeting", greeting] }
            let script = try await FixtureScript.start("tcp_echo.py", arguments: arguments)
            return TCPEchoOrigin(script: script, certificatePEM: certificatePEM, directory: directory)
        } catch {
            directory.remove()
            throw error
        }
    }

    public func stop() {
        script.stop()
        directory.remove()
    }
}
