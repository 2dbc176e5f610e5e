import Foundation

/// A temporary directory to run the `openssl` command line in, removed when the body returns: the tests compare
/// the module with what the reference tool prints, on material it generated moments before.
struct Scratch {
    struct CommandFailed: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let stderr: String
        var description: String { "`\(command)` exited with \(status): \(stderr)" }
    }

    let directory: URL

    static func withDirectory<T>(_ body: (Scratch) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certificates-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(Scratch(directory: directory))
    }

    /// One `openssl` pipeline over `input` (written to `in.pem`, which the command names), returning what it printed.
    static func openssl(_ command: String, input: String) throws -> String {
        try withDirectory { scratch in
            try scratch.write("in.pem", input)
            return try scratch.sh(command)
        }
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    func text(_ name: String) throws -> String {
        try String(decoding: Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
    }

    func bytes(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Runs `command` with /bin/sh in the directory. Standard error goes to a file, so neither pipe can fill up
    /// while the other is read.
    @discardableResult
    func sh(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "set -e; \(command)"]
        process.currentDirectoryURL = directory
        // The command line finds its own providers even when this process runs with OPENSSL_MODULES pointing
        // elsewhere, which is how a machine without the legacy provider is simulated.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "OPENSSL_MODULES" }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardInput = FileHandle.nullDevice
        let stderrFile = directory.appendingPathComponent(".stderr")
        try Data().write(to: stderrFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailed(command: command, status: process.terminationStatus, stderr: (try? text(".stderr")) ?? "")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
