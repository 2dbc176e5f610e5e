import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `urlsessionremote-probe`, a real client process the test can kill with SIGKILL and start again.
/// Its stdout is collected as lines; a probe still running when dropped is killed.
final class ProbeProcess: @unchecked Sendable {
    /// `@unchecked Sendable`: `output` is only touched under `lock`; `process` is only started and signalled.
    private let process = Process()
    private let lock = NSLock()
    private var output = Data()

    var lines: [String] {
        self.lock.withLock { String(decoding: self.output, as: UTF8.self) }.split(separator: "\n").map(String.init)
    }

    var isRunning: Bool { self.process.isRunning }

    init(arguments: [String]) throws {
        // Built beside the urlsessiond binary (same package, same build directory).
        let binary = try ServiceProcess.binaryURL().deletingLastPathComponent().appendingPathComponent("urlsessionremote-probe")
        self.process.executableURL = binary
        self.process.arguments = arguments
        let pipe = Pipe()
        self.process.standardOutput = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.output.append(data) }
        }
        try self.process.run()
    }

    deinit {
        if self.process.isRunning { kill(self.process.processIdentifier, SIGKILL) }
    }

    /// Waits (bounded) for a line starting with `prefix` and answers it.
    @discardableResult
    func line(startingWith prefix: String, within seconds: Double) async throws -> String {
        try await eventually(timeout: seconds) { self.lines.contains { $0.hasPrefix(prefix) } }
        return self.lines.first { $0.hasPrefix(prefix) } ?? ""
    }

    /// Waits (bounded) for the probe to exit on its own.
    func exit(within seconds: Double) async throws {
        try await eventually(timeout: seconds) { !self.process.isRunning }
        // The last bytes may still be in the pipe when the process is gone.
        try await Task.sleep(for: .milliseconds(100))
    }

    /// SIGKILL, as the system kills an app: no cleanup runs in the probe.
    func kill9(within seconds: Double = 10) async throws {
        kill(self.process.processIdentifier, SIGKILL)
        try await eventually(timeout: seconds) { !self.process.isRunning }
    }
}
