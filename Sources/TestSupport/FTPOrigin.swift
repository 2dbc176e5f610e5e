public import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A real FTP server on loopback (pyftpdlib), for tests of `ftp:` and `ftps:` transfers through libcurl.
///
/// It runs `Tests/Fixtures/ftp_origin.py` (its doc string says what it serves) with the Python of the test
/// venv `make test-deps` makes, where pyftpdlib and pyOpenSSL are installed. It serves a temporary directory
/// read-only to the anonymous user; ``write(_:_:)`` puts files there. With `tls`, it speaks FTPS as libcurl's
/// `ftps://` does (implicit TLS, control and data channels encrypted) with a self-signed certificate for
/// 127.0.0.1 at ``certificatePath``. The port comes from the OS (the script writes it to a port file).
/// `stop()` (or deinit) ends it; the script also exits when its stdin closes.
///
/// A missing venv, script or package is an error, never a skipped test: FTP would silently go untested.
public final class FTPOrigin: Sendable {
    /// The TCP port of the control connection.
    public var port: Int { script.port }
    /// The self-signed certificate (PEM) of an FTPS origin: trust it to verify the origin.
    public let certificatePath: String?
    /// The directory served as `/`.
    public let root: URL

    private let script: FixtureScript
    /// Holds `root` and, for FTPS, the certificate and key.
    private let directory: TemporaryDirectory

    /// `ftp://127.0.0.1:<port>/<path>`, or `ftps://…` for a TLS origin; `path` without its leading slash.
    public func url(_ path: String) -> String {
        "\(certificatePath == nil ? "ftp" : "ftps")://127.0.0.1:\(port)/\(path)"
    }

    /// Starts an origin serving `files` (name → bytes) at its root; with `tls`, an implicit-TLS FTPS one.
    /// - Throws: ``FTPOriginError`` when the venv or the script is missing, or when the script does not
    ///   write its port in time (with its log).
    public static func start(tls: Bool = false, files: [String: [UInt8]] = [:]) async throws -> FTPOrigin {
        let venv = FixtureScript.testVenv()
        guard let python = venv.python else {
            throw FTPOriginError(
                message: "no Python venv at \(venv.directory.path) (URLSESSIOND_TEST_VENV, else the package's .venv): "
                    + "`make test-deps` creates it with pyftpdlib and pyOpenSSL")
        }
        let directory = try TemporaryDirectory.make(prefix: "ftp-origin")
        do {
            let root = directory.appending("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (name, bytes) in files { try Data(bytes).write(to: root.appendingPathComponent(name)) }
            var arguments = ["--root", root.path]
            if tls { arguments += ["--tls-directory", directory.path] }
            let script = try await FixtureScript.start(
                "ftp_origin.py", arguments: arguments, python: python, startupTimeout: .seconds(20))
            return FTPOrigin(
                certificatePath: tls ? directory.appending("cert.pem").path : nil, root: root, script: script, directory: directory)
        } catch {
            directory.remove()
            throw FTPOriginError(message: "\(error)")
        }
    }

    private init(certificatePath: String?, root: URL, script: FixtureScript, directory: TemporaryDirectory) {
        self.certificatePath = certificatePath
        self.root = root
        self.script = script
        self.directory = directory
    }

    deinit { stop() }

    /// Replaces (or adds) the file served at `/<name>`.
    public func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: root.appendingPathComponent(name))
    }

    /// Ends the script and removes its directory; later calls do nothing.
    public func stop() {
        script.stop()
        directory.remove()
    }
}

/// Starting ``FTPOrigin`` failed; the message says why, with the script's log when it ran.
public struct FTPOriginError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
