public import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

extension ServiceProcess {
    /// Variables never inherited by the child: its configuration must come from the test alone, and
    /// a proxy in the developer's shell must not reroute the service's own requests.
    static let proxyVariables: Set<String> = ["http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy"]

    /// The binary to run: `$URLSESSIOND_BINARY`, else `urlsessiond` beside the running test executable.
    ///
    /// Under `swift test` the test executable is `.build/<triple>/debug/urlsessiondPackageTests.xctest`
    /// and SwiftPM builds `urlsessiond` into the same directory.
    /// - Throws: ``ServiceProcessError`` naming every place looked at, when none holds an executable.
    public static func binaryURL() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["URLSESSIOND_BINARY"], !configured.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: configured) else {
                throw ServiceProcessError("URLSESSIOND_BINARY=\(configured) is not an executable file")
            }
            return URL(fileURLWithPath: configured)
        }
        var candidates: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        if let main = Bundle.main.executableURL {
            candidates.append(main.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first, first.contains("/") {
            candidates.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        var binaries: [URL] = []
        for directory in candidates where !binaries.contains(directory.appendingPathComponent("urlsessiond")) {
            binaries.append(directory.appendingPathComponent("urlsessiond"))
        }
        if let found = binaries.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw ServiceProcessError(
            "no urlsessiond executable at \(binaries.map(\.path)); build it (swift build --product urlsessiond) "
                + "or set URLSESSIOND_BINARY")
    }

    /// The parent's environment minus `URLSESSIOND_*` and proxy variables (any case), plus `extra`.
    public static func childEnvironment(adding extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { name, _ in
            !name.hasPrefix("URLSESSIOND_") && !Self.proxyVariables.contains(name.lowercased())
        }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `process.run()` on a new thread whose signal mask is empty.
    ///
    /// `posix_spawn` passes the calling thread's signal mask to the child, and Foundation's `Process` does not
    /// reset it. Called from the cooperative pool, whose threads block nearly every signal (SIGTERM among them),
    /// the service would start with SIGTERM blocked and never shut down gracefully. Ignored dispositions are
    /// still inherited (the test process ignores SIGPIPE, so the child does too, as servers want anyway).
    static func spawnWithDefaultSignalMask(_ process: Process) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                var empty = sigset_t()
                sigemptyset(&empty)
                let rc = pthread_sigmask(SIG_SETMASK, &empty, nil)
                guard rc == 0 else {
                    continuation.resume(throwing: ServiceProcessError("pthread_sigmask failed: \(rc)"))
                    return
                }
                continuation.resume(with: Result { try process.run() })
            }
            thread.name = "TestSupport.ServiceProcess.spawn"
            thread.start()
        }
    }

    /// Creates `<parent of data dir>/<data dir name>-<random>.log`; a restart on the same data directory
    /// gets a new file, so each ``ServiceProcess`` reads only its own child's output. A data directory made
    /// straight in the temporary directory (a ``TemporaryDirectory``) keeps its logs inside, as hidden
    /// files, so they go when it is removed rather than piling up in `/tmp` (about 80 a `make test`).
    static func makeLogFile(beside dataDirectory: URL) throws -> URL {
        let standardized = dataDirectory.standardizedFileURL
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        let parent = standardized.deletingLastPathComponent()
        let url =
            parent.path == FileManager.default.temporaryDirectory.standardizedFileURL.path
            ? standardized.appendingPathComponent(".urlsessiond-\(random).log")
            : parent.appendingPathComponent("\(standardized.lastPathComponent)-\(random).log")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ServiceProcessError("could not create the log file \(url.path)")
        }
        return url
    }
}

/// Starting, stopping or finding the `urlsessiond` binary failed.
///
/// The description ends with the last lines of the child's log when there is one, so a failing test shows
/// why the service did not come up.
public struct ServiceProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The child's log file, when the child was launched.
    public let logFile: URL?
    /// The last 40 lines of the log when the error was created.
    public let logTail: String

    /// Creates an error, reading the tail of `logFile` now (the file may be removed later).
    public init(_ message: String, logFile: URL? = nil) {
        self.message = message
        self.logFile = logFile
        if let logFile, let data = FileManager.default.contents(atPath: logFile.path) {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            self.logTail = lines.suffix(40).joined(separator: "\n")
        } else {
            self.logTail = ""
        }
    }

    public var description: String {
        guard let logFile else { return "ServiceProcessError: \(self.message)" }
        return "ServiceProcessError: \(self.message)\n--- tail of \(logFile.path) ---\n\(self.logTail)"
    }
}
