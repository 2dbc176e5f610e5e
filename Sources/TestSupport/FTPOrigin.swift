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
    public let port: Int
    /// The self-signed certificate (PEM) of an FTPS origin: trust it to verify the origin.
    public let certificatePath: String?
    /// The directory served as `/`.
    public let root: URL

    private let process: Process
    /// The write end of the script's stdin: closing it ends the script even when a signal is missed.
    private let input: FileHandle
    private let directory: TemporaryDirectory
    private let stopped = Locked(false)
    private static let startupTimeout: Duration = .seconds(20)

    /// `ftp://127.0.0.1:<port>/<path>`, or `ftps://…` for a TLS origin; `path` without its leading slash.
    public func url(_ path: String) -> String {
        "\(certificatePath == nil ? "ftp" : "ftps")://127.0.0.1:\(port)/\(path)"
    }

    /// Starts an origin serving `files` (name → bytes) at its root; with `tls`, an implicit-TLS FTPS one.
    /// - Throws: ``FTPOriginError`` when the venv or the script is missing, or when the script does not
    ///   write its port in time (with its log).
    public static func start(tls: Bool = false, files: [String: [UInt8]] = [:]) async throws -> FTPOrigin {
        let python = try venvPython()
        let script = packageRoot.appendingPathComponent("Tests/Fixtures/ftp_origin.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw FTPOriginError(message: "the FTP origin script is missing at \(script.path)")
        }
        let directory = try TemporaryDirectory.make(prefix: "ftp-origin")
        do {
            let root = directory.appending("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (name, bytes) in files { try Data(bytes).write(to: root.appendingPathComponent(name)) }
            let portFile = directory.appending("port")
            let log = directory.appending("origin.log")
            var arguments = [script.path, "--root", root.path, "--port-file", portFile.path, "--exit-on-stdin-eof"]
            if tls { arguments += ["--tls-directory", directory.path] }
            let (process, input) = try await launch(python: python, arguments: arguments, log: log)
            do {
                let port = try await waitForPort(in: portFile, of: process, log: log)
                return FTPOrigin(
                    port: port, certificatePath: tls ? directory.appending("cert.pem").path : nil, root: root, process: process,
                    input: input, directory: directory)
            } catch {
                ChildScript.end(process, input: input)
                throw error
            }
        } catch {
            directory.remove()
            throw error
        }
    }

    private init(port: Int, certificatePath: String?, root: URL, process: Process, input: FileHandle, directory: TemporaryDirectory) {
        self.port = port
        self.certificatePath = certificatePath
        self.root = root
        self.process = process
        self.input = input
        self.directory = directory
    }

    deinit { stop() }

    /// Replaces (or adds) the file served at `/<name>`.
    public func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: root.appendingPathComponent(name))
    }

    /// Ends the script and removes its directory; later calls do nothing.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        ChildScript.end(process, input: input)
        directory.remove()
    }

    /// The venv's `python`: `URLSESSIOND_TEST_VENV` (set by `make test`), else the package's `.venv`.
    private static func venvPython() throws -> URL {
        let venv: URL
        if let configured = ProcessInfo.processInfo.environment["URLSESSIOND_TEST_VENV"], !configured.isEmpty {
            venv = URL(fileURLWithPath: configured)
        } else {
            venv = packageRoot.appendingPathComponent(".venv")
        }
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw FTPOriginError(
                message: "no Python venv at \(venv.path) (URLSESSIOND_TEST_VENV, else the package's .venv): "
                    + "`make test-deps` creates it with pyftpdlib and pyOpenSSL")
        }
        return python
    }

    /// `Sources/TestSupport/FTPOrigin.swift` → the package root.
    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Spawns the script with stdin as a pipe, stdout discarded and stderr into `log`, with an empty signal
    /// mask (from a cooperative thread the child would inherit SIGTERM blocked).
    private static func launch(python: URL, arguments: [String], log: URL) async throws -> (Process, FileHandle) {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw FTPOriginError(message: "could not create \(log.path)")
        }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }  // the child holds its own duplicate of the descriptor
        let input = Pipe()
        let process = Process()
        process.executableURL = python
        process.arguments = arguments
        process.environment = ServiceProcess.childEnvironment(adding: [:])
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = logHandle
        do {
            try await ServiceProcess.spawnWithDefaultSignalMask(process)
        } catch {
            throw FTPOriginError(message: "could not launch \(python.path) \(arguments.first ?? ""): \(error)")
        }
        return (process, input.fileHandleForWriting)
    }

    /// Polls every 20 ms, up to ``startupTimeout``, for the port file the script writes once it listens.
    private static func waitForPort(in portFile: URL, of process: Process, log: URL) async throws -> Int {
        let deadline = ContinuousClock.now + startupTimeout
        while ContinuousClock.now < deadline {  // bounded by the deadline; each turn sleeps 20 ms
            if let data = FileManager.default.contents(atPath: portFile.path),
                let port = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
                (1...65_535).contains(port)
            {
                return port
            }
            guard process.isRunning else {
                for _ in 0..<25 where process.isRunning { usleep(20_000) }
                throw failure("exited with status \(process.terminationStatus) before writing its port", log: log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw failure("wrote no port file in \(startupTimeout)", log: log)
    }

    private static func failure(_ what: String, log: URL) -> FTPOriginError {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return FTPOriginError(message: "ftp_origin.py \(what); its log:\n\(text)")
    }
}

/// Starting ``FTPOrigin`` failed; the message says why, with the script's log when it ran.
public struct FTPOriginError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
