import Foundation

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
