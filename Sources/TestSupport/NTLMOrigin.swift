import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// An HTTP/1.1 origin on loopback that speaks the real NTLM handshake, for tests of libcurl's NTLM
/// (`CURLAUTH_NTLM`): no hand-written challenge, but pyspnego's acceptor checking what libcurl computed.
///
/// It runs `Tests/Fixtures/ntlm_origin.py` (its doc string lists what it answers at each step) with the
/// Python of the test venv `make test-deps` makes, where pyspnego is installed. The one user it knows is
/// written to a user file in a temporary directory. The port comes from the OS: the script binds port 0 and
/// prints the port on stdout. `stop()` (or deinit) ends it; the script also exits when its stdin closes, so
/// a test process that dies leaves no origin behind.
///
/// A missing venv, script or pyspnego is an error, never a skipped test: NTLM would silently go untested.
public final class NTLMOrigin: Sendable {
    /// The TCP port the origin bound.
    public let port: Int
    /// `http://127.0.0.1:<port>`, without a trailing slash; any path answers.
    public var url: String { "http://127.0.0.1:\(port)" }

    private let process: Process
    /// The write end of the script's stdin: closing it ends the script even when a signal is missed.
    private let input: FileHandle
    private let directory: TemporaryDirectory
    private let stopped = Locked(false)
    private static let startupTimeout: Duration = .seconds(20)

    /// Starts an origin that accepts `domain\user` with `password` over NTLM; with `alsoBasic`, its 401s
    /// offer `Basic realm="ntlm-fixture"` besides NTLM (offered only, never accepted), so a test sees which
    /// method a client picks.
    /// - Throws: ``NTLMOriginError`` when the venv, the script or pyspnego is missing, a name or password
    ///   cannot go into the user file, or the script does not print its port in time (with its log).
    public static func start(domain: String, user: String, password: String, alsoBasic: Bool = false) async throws -> NTLMOrigin {
        let python = try venvPython()
        let script = try scriptURL()
        let directory = try TemporaryDirectory.make(prefix: "ntlm-origin")
        do {
            let users = try writeUserFile(in: directory, domain: domain, user: user, password: password)
            let log = directory.appending("origin.log")
            let (process, input, output) = try await launch(
                python: python, script: script, alsoBasic: alsoBasic, users: users, log: log)
            do {
                let port = try await readPort(from: output, of: process, log: log)
                return NTLMOrigin(port: port, process: process, input: input, directory: directory)
            } catch {
                ChildScript.end(process, input: input)
                throw error
            }
        } catch {
            directory.remove()
            throw error
        }
    }

    private init(port: Int, process: Process, input: FileHandle, directory: TemporaryDirectory) {
        self.port = port
        self.process = process
        self.input = input
        self.directory = directory
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

    deinit { stop() }

    /// The test venv's `python` (``FixtureScript/testVenv()``), where pyspnego is installed.
    private static func venvPython() throws -> URL {
        let venv = FixtureScript.testVenv()
        guard let python = venv.python else {
            throw NTLMOriginError(
                message: "no Python venv at \(venv.directory.path) (URLSESSIOND_TEST_VENV, else the package's .venv): "
                    + "`make test-deps` creates it with pyspnego")
        }
        return python
    }

    /// The script lives outside the TestSupport target (SwiftPM would warn about an undeclared `.py` in
    /// it), found from this file's location like the package's `.venv`: tests run from the source tree.
    private static func scriptURL() throws -> URL {
        let script = packageRoot.appendingPathComponent("Tests/Fixtures/ntlm_origin.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw NTLMOriginError(message: "the NTLM origin script is missing at \(script.path)")
        }
        return script
    }

    /// `Sources/TestSupport/NTLMOrigin.swift` → the package root.
    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Writes pyspnego's `NTLM_USER_FILE`, one `DOMAIN:USER:PASSWORD` line. A colon or line break in a field
    /// would make pyspnego skip the line (it wants exactly three fields), so those are refused here instead
    /// of failing later as a puzzling 401.
    private static func writeUserFile(in directory: TemporaryDirectory, domain: String, user: String, password: String) throws -> URL {
        for (name, value) in [("domain", domain), ("user", user), ("password", password)]
        where value.contains(where: { $0 == ":" || $0.isNewline }) {
            throw NTLMOriginError(message: "the NTLM \(name) \(value.debugDescription) has a colon or line break")
        }
        guard !user.isEmpty else { throw NTLMOriginError(message: "the NTLM user is empty") }
        let file = directory.appending("ntlm-users.txt")
        try Data("\(domain):\(user):\(password)\n".utf8).write(to: file)
        return file
    }

    /// Spawns the script with stdin and stdout as pipes and stderr into `log`.
    ///
    /// Spawned through ``ServiceProcess`` with an empty signal mask: from a cooperative thread the child would
    /// inherit SIGTERM blocked (the script unblocks it as well).
    private static func launch(
        python: URL, script: URL, alsoBasic: Bool, users: URL, log: URL
    ) async throws -> (Process, FileHandle, FileHandle) {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw NTLMOriginError(message: "could not create \(log.path)")
        }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }  // the child holds its own duplicate of the descriptor
        let input = Pipe()
        let output = Pipe()
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path] + (alsoBasic ? ["--also-basic"] : [])
        process.environment = ServiceProcess.childEnvironment(adding: ["NTLM_USER_FILE": users.path])
        process.standardInput = input
        process.standardOutput = output
        process.standardError = logHandle
        do {
            try await ServiceProcess.spawnWithDefaultSignalMask(process)
        } catch {
            throw NTLMOriginError(message: "could not launch \(python.path) \(script.path): \(error)")
        }
        return (process, input.fileHandleForWriting, output.fileHandleForReading)
    }

    /// Reads the port line the script prints once it is listening, polling every 20 ms without blocking a
    /// cooperative thread; the script prints nothing else, so the pipe is closed afterwards.
    private static func readPort(from output: FileHandle, of process: Process, log: URL) async throws -> Int {
        defer { try? output.close() }
        let descriptor = output.fileDescriptor
        let deadline = ContinuousClock.now + startupTimeout
        var text = ""
        while ContinuousClock.now < deadline {  // bounded by the deadline; an idle turn sleeps 20 ms
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else {
                guard process.isRunning else { throw failure("exited before printing its port", process: process, log: log) }
                try await Task.sleep(for: .milliseconds(20))
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { throw failure("closed its stdout before printing its port", process: process, log: log) }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
            if let newline = text.firstIndex(of: "\n") {
                guard let port = Int(text[..<newline]), (1...65_535).contains(port) else {
                    throw failure("printed \(text.debugDescription) instead of a port", process: process, log: log)
                }
                return port
            }
        }
        throw failure("printed no port in \(startupTimeout)", process: process, log: log)
    }

    /// An error naming what the script did, with its exit status when it exited and its log (stderr).
    private static func failure(_ what: String, process: Process, log: URL) -> NTLMOriginError {
        for _ in 0..<25 where process.isRunning { usleep(20_000) }  // let an exiting script finish its log
        let exit = process.isRunning ? "" : " (exit status \(process.terminationStatus))"
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return NTLMOriginError(message: "ntlm_origin.py \(what)\(exit); its log:\n\(text)")
    }
}

/// Starting ``NTLMOrigin`` failed; the message says why, with the script's log when it ran.
public struct NTLMOriginError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
