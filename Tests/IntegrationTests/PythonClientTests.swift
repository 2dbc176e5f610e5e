import Foundation
import TestSupport
import Testing

/// The Python client of `clients/python`: its pytest suite against the real binary and the fixture origin,
/// and the check that the committed generated part is what openapi-python-client makes of `openapi.yaml`
/// today, without a warning (a warning is a schema or an operation left out).
@Suite("the Python client")
struct PythonClientTests {
    /// The package's root (`Tests/IntegrationTests/PythonClientTests.swift` → three levels up).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let clientDirectory = packageRoot.appendingPathComponent("clients/python")

    /// The test process's environment without proxies (everything here is on loopback), plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
            environment[name] = nil
        }
        return environment.merging(extra) { $1 }
    }

    @Test(.timeLimit(.minutes(3)))
    func itsTestsPassAgainstTheService() async throws {
        let python = venvProgram("python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "no venv at \(python.path): `make test` creates it")
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withRunningService(environment: TaskEnvironment.loopback) { service, _ in
            let environment = Self.environment([
                "URLSESSIOND_URL": service.baseURL, "URLSESSIOND_TOKEN": Tokens.tenantA, "URLSESSIOND_TEST_ORIGIN": origin.url(""),
                // The package is imported from its source tree, which must stay clean (no caches written into it).
                "PYTHONPATH": Self.clientDirectory.path, "PYTHONDONTWRITEBYTECODE": "1",
            ])
            let run = try await runProgram(
                python, arguments: ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], in: Self.clientDirectory,
                environment: environment, timeout: .seconds(150))
            #expect(run.status == 0, "pytest clients/python/tests failed:\n\(run.output)\n\(run.errors)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theCommittedClientIsWhatTheGeneratorMakesOfTheDocument() async throws {
        let generator = venvProgram("openapi-python-client")
        try #require(
            FileManager.default.isExecutableFile(atPath: generator.path), "no generator at \(generator.path): `make test-deps` installs it")
        let fresh = try TemporaryDirectory.make(prefix: "python-client")
        defer { fresh.remove() }
        let venv = generator.deletingLastPathComponent().deletingLastPathComponent()
        let generate = try await runProgram(
            URL(fileURLWithPath: "/bin/sh"), arguments: [Self.clientDirectory.appendingPathComponent("generate.sh").path, fresh.path],
            environment: Self.environment(["URLSESSIOND_TEST_VENV": venv.path]), timeout: .seconds(100))
        try #require(generate.status == 0, "openapi-python-client warned or failed:\n\(generate.output)\n\(generate.errors)")
        let diff = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/diff"),
            arguments: [
                "-r", "-u", "-x", "__pycache__", fresh.appending("urlsessiond_client").path,
                Self.clientDirectory.appendingPathComponent("urlsessiond_client").path,
            ],
            timeout: .seconds(30))
        #expect(
            diff.status == 0,
            "clients/python/urlsessiond_client differs from what openapi.yaml generates: run clients/python/generate.sh\n\(diff.output.prefix(20_000))"
        )
    }
}
