public import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// One `Tests/Fixtures/*.py` script running as a child, e.g. `path_origin.py` (see ``PathOrigin``) or
/// `netns_relay.py` (a ``NetworkLab`` relay).
///
/// The script must take `--port-file FILE` (it writes the port it listens on there, atomically, once it
/// listens) and `--exit-on-stdin-eof`: its stdin is a pipe this object holds, so a test process that dies
/// leaves no script behind. It runs with the interpreter ``python()`` finds, directly or inside a network
/// namespace (`ip netns exec`, which execs the interpreter). Its stdout is discarded; its stderr goes to a
/// file that a startup failure quotes. ``stop()`` (or deinit) ends it and removes its temporary directory.
public final class FixtureScript: Sendable {
    /// The port the script wrote to its port file.
    public let port: Int
    private let process: Process
    /// The write end of the script's stdin: closing it ends the script even when a signal is missed.
    private let input: FileHandle
    private let directory: TemporaryDirectory
    private let stopped = Locked(false)
    public static let startupTimeout: Duration = .seconds(10)

    private init(port: Int, process: Process, input: FileHandle, directory: TemporaryDirectory) {
        self.port = port
        self.process = process
        self.input = input
        self.directory = directory
    }

    deinit { stop() }

    /// Runs `Tests/Fixtures/<script>` with `arguments` plus `--port-file` and `--exit-on-stdin-eof`, inside
    /// `namespace` when given, with `python` (by default ``python()``), and waits up to `startupTimeout`
    /// (10 s by default) for its port file.
    /// - Throws: ``NetworkLabError`` when there is no Python, no script or no `ip` (for a namespace), when it
    ///   cannot be launched, or when it exits or times out before writing its port (with its stderr).
    public static func start(
        _ script: String, arguments: [String], namespace: String? = nil, python: URL? = nil,
        startupTimeout: Duration = FixtureScript.startupTimeout
    ) async throws -> FixtureScript {
        let python = try python ?? Self.python()
        let scriptURL = try Self.fixture(script)
        let directory = try TemporaryDirectory.make(prefix: "fixture-\(script.prefix { $0 != "." })")
        let portFile = directory.appending("port")
        let log = directory.appending("stderr.log")
        let command = [python.path, scriptURL.path] + arguments + ["--port-file", portFile.path, "--exit-on-stdin-eof"]
        let process = Process()
        let input = Pipe()
        do {
            if let namespace {
                process.executableURL = try NetworkLab.ipTool()
                process.arguments = ["netns", "exec", namespace] + command
            } else {
                process.executableURL = python
                process.arguments = Array(command.dropFirst())
            }
            process.environment = ServiceProcess.childEnvironment(adding: [:])
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
                throw NetworkLabError("could not create \(log.path)")
            }
            let logHandle = try FileHandle(forWritingTo: log)
            defer { try? logHandle.close() }  // the child holds its own duplicate of the descriptor
            process.standardError = logHandle
            // With an empty signal mask: from a cooperative thread the child would inherit SIGTERM blocked.
            try await ServiceProcess.spawnWithDefaultSignalMask(process)
        } catch {
            directory.remove()
            throw NetworkLabError("could not launch \(script): \(error)")
        }
        do {
            let port = try await waitForPort(in: portFile, of: process, script: script, log: log, timeout: startupTimeout)
            return FixtureScript(port: port, process: process, input: input.fileHandleForWriting, directory: directory)
        } catch {
            ChildScript.end(process, input: input.fileHandleForWriting)
            directory.remove()
            throw error
        }
    }

    /// Starts `netns_relay.py` in the current namespace, relaying from `127.0.0.1:port` to `namespace`'s
    /// `127.0.0.1:targetPort`.
    static func startRelay(namespace: String, targetPort: Int) async throws -> FixtureScript {
        try await start("netns_relay.py", arguments: ["--netns", namespace, "--target-port", "\(targetPort)"])
    }

    /// Sends `number` (e.g. `SIGUSR1`) to the running script: how a test steers one, e.g.
    /// `pausable_relay.py`'s pause and resume.
    public func send(signal number: Int32) {
        if process.isRunning { _ = kill(process.processIdentifier, number) }
    }

    /// Closes the script's stdin and sends SIGTERM; SIGKILL when it is still running 2 s later. Blocking, so
    /// that deinit can use it too: the child is gone (and reaped) when this returns. Later calls do nothing.
    public func stop() {
        let first = self.stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        ChildScript.end(self.process, input: self.input)
        self.directory.remove()
    }

    /// Polls every 20 ms, up to `timeout`, for the port file the script writes once it listens.
    private static func waitForPort(
        in portFile: URL, of process: Process, script: String, log: URL, timeout: Duration
    ) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {  // bounded by the deadline; each turn sleeps 20 ms
            if let data = FileManager.default.contents(atPath: portFile.path),
                let port = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
                (1...65_535).contains(port)
            {
                return port
            }
            guard process.isRunning else {
                for _ in 0..<25 where process.isRunning { usleep(20_000) }
                throw failure("\(script) exited with status \(process.terminationStatus) before writing its port", log: log)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw failure("\(script) wrote no port file in \(timeout)", log: log)
    }

    private static func failure(_ what: String, log: URL) -> NetworkLabError {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return NetworkLabError("\(what); its stderr:\n\(text)")
    }
}

// MARK: - Locating the interpreter and the scripts

extension FixtureScript {
    /// The interpreter for the fixture scripts, which need only the standard library: `/usr/bin/python3`,
    /// else the test venv's `python` (`URLSESSIOND_TEST_VENV`, else the package's `.venv`), as NTLMOrigin.
    static func python() throws -> URL {
        var candidates = ["/usr/bin/python3"]
        if let venv = ProcessInfo.processInfo.environment["URLSESSIOND_TEST_VENV"], !venv.isEmpty {
            candidates.append(URL(fileURLWithPath: venv).appendingPathComponent("bin/python").path)
        }
        candidates.append(packageRoot.appendingPathComponent(".venv/bin/python").path)
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw NetworkLabError("no Python at \(candidates)")
        }
        return URL(fileURLWithPath: found)
    }

    /// The test venv (`URLSESSIOND_TEST_VENV`, set by `make test`, else the package's `.venv`) and its
    /// `python`, for the scripts that need packages `make test-deps` installs there; nil when it is missing.
    static func testVenv() -> (directory: URL, python: URL?) {
        let venv: URL
        if let configured = ProcessInfo.processInfo.environment["URLSESSIOND_TEST_VENV"], !configured.isEmpty {
            venv = URL(fileURLWithPath: configured)
        } else {
            venv = packageRoot.appendingPathComponent(".venv")
        }
        let python = venv.appendingPathComponent("bin/python")
        return (venv, FileManager.default.isExecutableFile(atPath: python.path) ? python : nil)
    }

    /// `Tests/Fixtures/<name>`. The scripts live outside the TestSupport target (SwiftPM would warn about an
    /// undeclared `.py` in it) and are found from this file's location: tests run from the source tree.
    static func fixture(_ name: String) throws -> URL {
        let script = packageRoot.appendingPathComponent("Tests/Fixtures/\(name)")
        guard FileManager.default.fileExists(atPath: script.path) else {
            throw NetworkLabError("the fixture script is missing at \(script.path)")
        }
        return script
    }

    /// `Sources/TestSupport/FixtureScript.swift` → the package root.
    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}

/// What the launchers of `Tests/Fixtures` scripts share.
enum ChildScript {
    /// Closes the script's stdin and sends SIGTERM; SIGKILL when it is still running 2 s later. Blocking, so
    /// that deinit can use it too: the child is gone (and reaped) when this returns.
    static func end(_ process: Process, input: FileHandle) {
        try? input.close()
        if process.isRunning { _ = kill(process.processIdentifier, SIGTERM) }
        for _ in 0..<100 where process.isRunning { usleep(20_000) }
        if process.isRunning {
            _ = kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
