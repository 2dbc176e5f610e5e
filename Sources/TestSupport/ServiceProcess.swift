public import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The real `urlsessiond` binary, running as a child process for end-to-end tests.
///
/// Launched as `urlsessiond serve --host 127.0.0.1 --port 0 --data-dir DIR --port-file FILE`; the port comes
/// from the OS and is read back from FILE, so tests never pick ports. stdout and stderr go to a log file
/// beside the data directory (``logFile``), which outlives the data directory for diagnostics.
/// A child still running when the last reference goes away is killed with SIGKILL: tests never leak processes.
///
/// With a `networkNamespace` (see ``NetworkLab``) the binary runs inside that namespace
/// (`ip netns exec NAME urlsessiond serve …`, which execs, so ``pid`` is the service's) and the test reaches
/// it through `Tests/Fixtures/netns_relay.py`: ``port`` and ``baseURL`` are the relay's, on the test's own
/// loopback. The relay ends with the service (``terminate(timeout:)``, ``kill9()``, deinit).
public final class ServiceProcess: Sendable {
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public let baseURL: String
    /// The TCP port the service bound; in a network namespace, the port of the relay to it.
    public let port: Int
    /// The child's process id.
    public let pid: Int32
    /// The directory given as `--data-dir`.
    public let dataDirectory: URL
    /// The file that receives the child's stdout and stderr.
    public let logFile: URL
    /// The network namespace the service runs in, or nil for the test's own.
    public let networkNamespace: String?

    private let process: Process
    /// The relay into ``networkNamespace``, when there is one.
    private let relay: FixtureScript?
    private static let pollInterval: Duration = .milliseconds(20)

    private init(
        process: Process, port: Int, dataDirectory: URL, logFile: URL, networkNamespace: String? = nil,
        relay: FixtureScript? = nil
    ) {
        self.process = process
        self.port = port
        self.baseURL = "http://127.0.0.1:\(port)"
        self.pid = process.processIdentifier
        self.dataDirectory = dataDirectory
        self.logFile = logFile
        self.networkNamespace = networkNamespace
        self.relay = relay
    }

    deinit {
        defer { self.relay?.stop() }
        guard self.process.isRunning else { return }
        _ = kill(self.process.processIdentifier, SIGKILL)
        // Bounded (2 s) so Foundation can reap the child before the test process moves on.
        for _ in 0..<100 where self.process.isRunning { usleep(20_000) }
    }

    /// Launches the binary and returns once it answers `GET /healthz` with 200.
    ///
    /// - Parameters:
    ///   - dataDirectory: `--data-dir`; created if missing. The port file (`urlsessiond-<random>.port`) lives in it.
    ///   - environment: Extra variables for the child, e.g. `["URLSESSIOND_TOKENS": "token-a-0123456789:tenantA:admin"]`.
    ///     The child gets the parent's environment minus `URLSESSIOND_*` and proxy variables, plus these.
    ///   - arguments: Extra arguments after the standard `serve` ones.
    ///   - startupTimeout: Seconds to wait for the port file and a healthy `/healthz`.
    ///   - networkNamespace: A network namespace (``NetworkLab/serviceNamespace``) to run the service in,
    ///     reached through a relay; nil (the default) runs it in the test's own namespace. Needs root.
    ///   - droppingCapabilities: Capabilities (e.g. `["net_admin"]`) taken out of the service's bounding set
    ///     (`setpriv --bounding-set -net_admin`, which execs too), so a root service runs without them.
    /// - Throws: ``ServiceProcessError`` (with the log's tail) when the binary is missing, exits early, or is
    ///   not healthy in time; the child (and its relay) is killed before the error is thrown.
    public static func start(
        dataDirectory: URL,
        environment: [String: String] = [:],
        arguments: [String] = [],
        startupTimeout: Double = 30,
        networkNamespace: String? = nil,
        droppingCapabilities: [String] = []
    ) async throws -> ServiceProcess {
        let binary = try Self.binaryURL()
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        // One port file per launch: nodes of a cluster share their data directory, and a file left by an
        // earlier run would point at a dead (or someone else's) port.
        let portFile = dataDirectory.appendingPathComponent("urlsessiond-\(String(UInt32.random(in: .min ... .max), radix: 16)).port")
        let logFile = try Self.makeLogFile(beside: dataDirectory)

        let process = Process()
        process.executableURL = binary
        process.arguments =
            [
                "serve", "--host", "127.0.0.1", "--port", "0",
                "--data-dir", dataDirectory.path, "--port-file", portFile.path,
            ] + arguments
        if !droppingCapabilities.isEmpty {
            let bounding = droppingCapabilities.map { "-\($0)" }.joined(separator: ",")
            process.arguments = ["--bounding-set", bounding, "--", binary.path] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        }
        if let networkNamespace {
            // `ip netns exec` execs the binary: the pid stays the service's, and so do its signals.
            let command = process.executableURL?.path ?? binary.path
            process.executableURL = try NetworkLab.ipTool()
            process.arguments = ["netns", "exec", networkNamespace, command] + (process.arguments ?? [])
        }
        let store = try await Self.storeEnvironment(for: dataDirectory, overUnixSocket: networkNamespace != nil)
        process.environment = Self.childEnvironment(adding: store.merging(environment) { $1 })
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }  // the child holds its own duplicate of the descriptor
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do {
            try await Self.spawnWithDefaultSignalMask(process)
        } catch {
            throw ServiceProcessError("could not launch \(binary.path): \(error)", logFile: logFile)
        }

        var relay: FixtureScript?
        do {
            let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, startupTimeout) * 1000))
            let port = try await Self.waitForPort(in: portFile, of: process, deadline: deadline, log: logFile)
            let service: ServiceProcess
            if let networkNamespace {
                // The port file is in the shared file system; the port is the namespace's loopback's.
                let started = try await FixtureScript.startRelay(namespace: networkNamespace, targetPort: port)
                relay = started
                service = ServiceProcess(
                    process: process, port: started.port, dataDirectory: dataDirectory, logFile: logFile,
                    networkNamespace: networkNamespace, relay: started)
            } else {
                service = ServiceProcess(process: process, port: port, dataDirectory: dataDirectory, logFile: logFile)
            }
            try await service.waitUntilHealthy(deadline: deadline)
            return service
        } catch {
            relay?.stop()
            if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
            _ = await Self.waitForExit(of: process, seconds: 10)
            if error is ServiceProcessError || error is CancellationError { throw error }
            throw ServiceProcessError("startup failed: \(error)", logFile: logFile)
        }
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { self.process.isRunning }

    /// Sends SIGTERM and waits for a graceful exit.
    ///
    /// - Returns: The exit status; a child killed by signal N reports 128 + N, as a shell would.
    ///   A child that had already exited reports its status without a signal being sent.
    /// - Throws: ``ServiceProcessError`` when it has not exited after `timeout` seconds; it is then killed
    ///   with SIGKILL first, so nothing leaks.
    @discardableResult
    public func terminate(timeout: Double = 20) async throws -> Int32 {
        if self.process.isRunning { _ = kill(self.pid, SIGTERM) }
        guard await Self.waitForExit(of: self.process, seconds: timeout) else {
            await self.kill9()
            throw ServiceProcessError(
                "urlsessiond (pid \(self.pid)) ignored SIGTERM for \(timeout) s; killed it", logFile: self.logFile)
        }
        self.relay?.stop()
        try self.checkStatementsWereValid()
        return self.exitStatus
    }

    /// On PostgreSQL, a statement refused as invalid (SQLSTATE class 42: a syntax error, an unknown column
    /// or function) is a dialect bug of the store even where the service recovered from it (a housekeeping
    /// pass logs and goes on): it fails the test that ran it.
    func checkStatementsWereValid() throws {
        guard Self.testsPostgres else { return }
        let invalid = stderrText().split(separator: "\n").filter { $0.contains("PostgreSQL 42") }
        guard invalid.isEmpty else {
            throw ServiceProcessError("PostgreSQL refused statements as invalid: \(invalid.prefix(3).joined(separator: "\n"))")
        }
    }

    /// Sends SIGKILL, as a crash or power loss would, and waits (up to 10 s) for the child to be gone.
    /// A relay into its network namespace is ended too.
    public func kill9() async {
        if self.process.isRunning { _ = kill(self.pid, SIGKILL) }
        _ = await Self.waitForExit(of: self.process, seconds: 10)
        self.relay?.stop()
    }

    /// Everything the child wrote to stdout and stderr so far.
    public func stderrText() -> String {
        guard let data = FileManager.default.contents(atPath: self.logFile.path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    private var exitStatus: Int32 {
        switch self.process.terminationReason {
        case .exit: return self.process.terminationStatus
        case .uncaughtSignal: return 128 + self.process.terminationStatus
        @unknown default: return self.process.terminationStatus
        }
    }

    /// Polls every 20 ms for the port file the binary writes (atomically) once it accepts connections.
    private static func waitForPort(
        in portFile: URL, of process: Process, deadline: ContinuousClock.Instant, log: URL
    ) async throws -> Int {
        while ContinuousClock.now < deadline {  // bounded by the deadline; each turn sleeps 20 ms
            if let data = FileManager.default.contents(atPath: portFile.path),
                let port = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
                (1...65_535).contains(port)
            {
                return port
            }
            guard process.isRunning else {
                throw ServiceProcessError(
                    "urlsessiond exited with status \(process.terminationStatus) before writing its port file",
                    logFile: log)
            }
            try await Task.sleep(for: Self.pollInterval)
        }
        throw ServiceProcessError("urlsessiond wrote no port file to \(portFile.path) in time", logFile: log)
    }

    /// Polls `GET /healthz` every 20 ms until it answers 200.
    private func waitUntilHealthy(deadline: ContinuousClock.Instant) async throws {
        let client = HTTPClient()
        var last = "no attempt"
        while ContinuousClock.now < deadline {  // bounded by the deadline; each attempt has a 2 s limit
            guard self.process.isRunning else {
                throw ServiceProcessError(
                    "urlsessiond exited with status \(self.exitStatus) before /healthz answered", logFile: self.logFile)
            }
            do {
                let response = try await client.send(.init(method: "GET", url: "\(self.baseURL)/healthz", timeout: 2))
                if response.status == 200 { return }
                last = "status \(response.status): \(response.text.prefix(200))"
            } catch let error as HTTPClientError {
                last = error.description
            }
            try await Task.sleep(for: Self.pollInterval)
        }
        throw ServiceProcessError("GET /healthz never answered 200 (last: \(last))", logFile: self.logFile)
    }

    /// Polls every 20 ms until `process` has exited; false when `seconds` passed first.
    static func waitForExit(of process: Process, seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, seconds) * 1000))
        while process.isRunning {  // bounded by the deadline
            guard ContinuousClock.now < deadline else { return false }
            // Not `try await`: a cancelled test must still wait for its child instead of leaking it.
            try? await Task.sleep(for: Self.pollInterval)
            // Cancelled, the sleep returns at once; a short blocking pause keeps this from spinning.
            if Task.isCancelled { usleep(20_000) }
        }
        return true
    }
}
