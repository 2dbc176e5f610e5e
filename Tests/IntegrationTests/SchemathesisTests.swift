import Foundation
import TestSupport
import Testing

/// Property-based checks of the served `openapi.yaml` against the running binary: every implemented
/// operation is fuzzed by schemathesis (from the venv `make test` creates); no 5xx, no response that
/// violates the schema, negative data rejected. The document keeps its rules across fields in `x-rules`
/// (so that code generators see every property); schemathesis reads the served document with them merged
/// back into their schemas (`Tests/Fixtures/openapi_rules.py`), so it still generates data that breaks
/// them and expects it refused.
@Suite("schemathesis against the served OpenAPI description")
struct SchemathesisTests {
    static var schemathesis: URL { venvProgram("schemathesis") }

    /// Per-operation settings, each for a behaviour that is by design:
    /// - the events and task long-polls hold their answers for `?wait=` seconds (up to 300), which would
    ///   only pit the clock against `--request-timeout`: those operations are fuzzed with `wait=0` (their
    ///   other parameters and responses are still checked; `wait` itself is covered by SessionEventsTests
    ///   and the task tests); a stream task's read is such a long-poll too (`timeout`, StreamTasksTests);
    /// - a POST replayed by its `Idempotency-Key` answers the first 201 again even when that blob
    ///   (or credential) was deleted since (WIRE-DECISIONS, "Idempotency-Key"), which
    ///   `ensure_resource_availability` reads as "created, then 404" when the stateful phase reuses the
    ///   example key;
    /// - what no schema can describe is checked by the server alone: a client identity's certificate and
    ///   key must open with OpenSSL, and resume data must be a token this service sealed, so a
    ///   schema-valid identity or token of random bytes is rightly a 422 (`createCredential`, `createTask`);
    /// - `DELETE /v1/sessions/{id}/cache` is `removeAllCachedResponses()`: it empties the cache, which stays
    ///   (its capacities and usage still answer 200), so "deleted, then still there" is by design;
    /// - a session configuration has rules across its fields that no schema says (a TLS maximum below the
    ///   minimum, and the like), each a 422 naming the field (`createSession`; SessionConfigurationTests and
    ///   RequestValidationTests check them); so has a stream read: `minBytes` over `maxBytes` is a 422 naming
    ///   `minBytes` (`streamTaskRead`; StreamTasksTests); and a rate limit's `timeZone` must name an IANA
    ///   zone, which no schema lists (`updateTask`, like `createSession` and `createTask`; BandwidthLimitTests);
    /// - list cursors are sealed per tenant and list: a cursor of the right form that this service did not
    ///   give is rightly a 400 `invalid-cursor` (the list operations);
    /// - a batch creation answers an invalid member with that member's problem inside a 200 or 201, by
    ///   design: the others are still created. The schema says so (a member is any JSON value,
    ///   `TaskBatchMember`), so negative data is only a batch of the wrong shape, refused with 400 or 422
    ///   (TaskBatchTests checks that invalid members create nothing);
    /// - a `url` query parameter of the maximum length, percent-encoded, is over the HTTP server's
    ///   request-line limit: its 414 is a rejection like any 4xx;
    /// - `GET /v1/tasks/{id}/socket` is a WebSocket upgrade, whose header fields are the protocol's and not
    ///   parameters of the operation: schemathesis' plain GETs of a task it made are rightly a 426
    ///   (WebSocketRelayTests checks the upgrades).
    static let configuration = """
        [[operations]]
        include-operation-id = "listSessionEvents"
        parameters = { "query.wait" = 0 }

        [[operations]]
        include-operation-id = "getTask"
        parameters = { "query.wait" = 0 }

        [[operations]]
        include-operation-id = "streamTaskRead"
        parameters = { "query.timeout" = 0 }
        checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

        [[operations]]
        include-operation-id = "getBlob"
        checks.ensure_resource_availability.enabled = false

        [[operations]]
        include-operation-id = "deleteBlob"
        checks.ensure_resource_availability.enabled = false

        [[operations]]
        include-operation-id = "deleteCredential"
        checks.ensure_resource_availability.enabled = false

        [[operations]]
        include-operation-id = "getCredential"
        checks.ensure_resource_availability.enabled = false

        [[operations]]
        include-operation-id = "createCredential"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

        [[operations]]
        include-operation-id = "deleteSessionCache"
        checks.use_after_free.enabled = false

        [[operations]]
        include-operation-id = "getSessionCache"
        checks.use_after_free.enabled = false

        [[operations]]
        include-operation-id = "createSession"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

        [[operations]]
        include-operation-id = "createTask"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

        [[operations]]
        include-operation-id = "updateTask"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

        [[operations]]
        include-operation-id = "relayWebSocketTask"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "426", "429"]
        checks.negative_data_rejection.expected-statuses = [
            "400", "401", "403", "404", "405", "406", "409", "414", "415", "422", "426", "428", "429",
        ]

        [[operations]]
        include-operation-id = "listSessions"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

        [[operations]]
        include-operation-id = "listSessionCookies"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

        [[operations]]
        include-operation-id = "listSessionTasks"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

        [[operations]]
        include-operation-id = "listCredentials"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

        [[operations]]
        include-operation-id = "listNetworks"
        checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]

        [checks.negative_data_rejection]
        expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "414", "415", "422", "428", "429"]
        """

    /// One run, schemathesis' default: every check on, with the per-operation exceptions above. (A second
    /// run, `--checks all` without the two checks those exceptions turn off, was dropped: with the same seed
    /// it generated the same data, its checks are a subset of these, and it cost about 130 s of CPU.)
    @Test(.timeLimit(.minutes(6)))
    func implementedOperationsConformToTheSchema() async throws {
        let tool = Self.schemathesis
        try #require(
            FileManager.default.isExecutableFile(atPath: tool.path),
            "schemathesis is missing at \(tool.path): `make test` creates the venv")
        let token = "schemathesis-token-0123456789"
        try await withRunningService(environment: ["URLSESSIOND_TOKENS": "\(token):fuzz:admin"]) { service, _ in
            let reports = try TemporaryDirectory.make(prefix: "schemathesis")
            defer { reports.remove() }
            // schemathesis reads `schemathesis.toml` from its working directory (see `configuration`).
            try Data(Self.configuration.utf8).write(to: reports.appending("schemathesis.toml"))
            let document = reports.appending("openapi.yaml")
            let rules = try await runFixtureScript(
                "openapi_rules.py", arguments: ["--url", "\(service.baseURL)/openapi.yaml", "--output", document.path],
                timeout: .seconds(60))
            try #require(rules.status == 0, "openapi_rules.py failed:\n\(rules.errors)")
            let result = try await runProcess(
                tool,
                arguments: [
                    "run", document.path, "--url", service.baseURL,
                    "-H", "Authorization: Bearer \(token)",
                    "--include-by", "/x-implemented == true",
                ] + [
                    // One worker: hypothesis' lambda-source cache is not thread-safe on Python 3.11.
                    "--max-examples", "30", "--seed", "1", "--workers", "1",
                    "--phases", "examples,coverage,fuzzing,stateful",
                    "--suppress-health-check", "all",
                    "--request-timeout", "10", "--no-color",
                    "--report-dir", reports.path,
                    "--generation-database", "none",
                ],
                workingDirectory: reports.url, timeout: 300)
            #expect(result.status == 0, "schemathesis found problems:\n\(result.output)")
        }
    }
}

/// Runs `tool` with a bounded wait, capturing stdout and stderr together.
func runProcess(
    _ tool: URL, arguments: [String], workingDirectory: URL, timeout: Double
) async throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = tool
    process.currentDirectoryURL = workingDirectory  // schemathesis writes its cache into the working directory
    process.arguments = arguments
    let output = try TemporaryDirectory.make(prefix: "process-output")
    defer { output.remove() }
    let logURL = output.appending("output.txt")
    _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    let log = try FileHandle(forWritingTo: logURL)
    process.standardOutput = log
    process.standardError = log
    var environment = ProcessInfo.processInfo.environment
    for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] {
        environment[name] = nil
    }
    process.environment = environment
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline {
        try await Task.sleep(for: .milliseconds(100))
    }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
    }
    try log.close()
    let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
    return (process.isRunning ? -1 : process.terminationStatus, text)
}
