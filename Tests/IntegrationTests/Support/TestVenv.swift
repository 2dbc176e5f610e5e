import Foundation
import TestSupport

/// A program of the Python venv `make test-deps` makes: `URLSESSIOND_TEST_VENV` (set by `make test`),
/// else the package's `.venv`.
func venvProgram(_ name: String) -> URL {
    if let venv = ProcessInfo.processInfo.environment["URLSESSIOND_TEST_VENV"], !venv.isEmpty {
        return URL(fileURLWithPath: venv).appendingPathComponent("bin/\(name)")
    }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return packageRoot.appendingPathComponent(".venv/bin/\(name)")
}

/// What a fixture script run to its end left: its exit status, its standard output and its standard error.
struct ScriptRun {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs `Tests/Fixtures/<script>` with the venv's Python and `arguments` to its end, killed after `timeout`.
func runFixtureScript(_ script: String, arguments: [String], timeout: Duration) async throws -> ScriptRun {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/\(script)")  // Tests/Fixtures
    return try await runProgram(venvProgram("python"), arguments: [path.path] + arguments, timeout: timeout)
}

/// Runs `program` with `arguments` to its end (in `directory`, with `environment` when given), killed
/// after `timeout`.
func runProgram(
    _ program: URL, arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil, timeout: Duration
) async throws -> ScriptRun {
    let files = try TemporaryDirectory.make(prefix: "run-\(program.lastPathComponent.prefix { $0 != "." })")
    defer { files.remove() }
    let (output, errors) = (files.appending("stdout"), files.appending("stderr"))
    for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    let (outputHandle, errorsHandle) = (try FileHandle(forWritingTo: output), try FileHandle(forWritingTo: errors))
    process.standardOutput = outputHandle
    process.standardError = errorsHandle
    try process.run()
    for handle in [outputHandle, errorsHandle] { try? handle.close() }  // the child holds its own descriptors
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
    }
    let read = { (file: URL) in String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self) }
    return ScriptRun(status: process.terminationStatus, output: read(output), errors: read(errors))
}
