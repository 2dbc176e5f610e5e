import Foundation
import TestSupport
import Testing

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.yaml`, and `X-Request-Id` on every answer.
@Suite("Operations")
struct OperationsTests {
    @Test(.timeLimit(.minutes(1)))
    func probesNeedNoToken() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            for path in ["/healthz", "/readyz"] {
                for token in [nil, "not-a-token"] {
                    let response = try await client.send(.get(service.baseURL + path, token: token))
                    #expect(response.status == 200, "\(path): \(response.text)")
                    #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                    #expect(try response.json()["status"] is String)
                }
            }
            let head = try await client.send(.head(service.baseURL + "/healthz"))
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func metricsCountRequests() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let id = try #require(try await api.createSession()["id"] as? String)
            _ = try await api.get("/v1/sessions/\(id)")
            _ = try await api.get("/v1/sessions")
            _ = try await api.get("/v1/nothing-here")
            try await eventually(timeout: 10, interval: 0.05) {
                let metrics = try await client.send(.get(service.baseURL + "/metrics"))
                guard metrics.status == 200 else { return false }
                let text = metrics.text
                return text.contains("urlsessiond_http_requests_total")
                    && text.split(separator: "\n").contains { $0.hasPrefix("urlsessiond_http_requests_total{") && $0.contains("201") }
            }
            let metrics = try await client.send(.get(service.baseURL + "/metrics"))
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
            let lines = metrics.text.split(separator: "\n").filter { $0.hasPrefix("urlsessiond_http_requests_total{") }
            #expect(lines.contains { $0.contains(#""/v1/sessions""#) && $0.contains(#""POST""#) && $0.contains(#""201""#) })
            // Ids never become label values.
            #expect(!metrics.text.contains(id))
            // The store's statements are counted (the session's creation ran some at least).
            let statements = metrics.text.split(separator: "\n").first { $0.hasPrefix("urlsessiond_store_statements_total ") }
            #expect((statements?.split(separator: " ").last.flatMap { Double($0) } ?? 0) > 0, "\(statements ?? "none")")
            // Every series says what it is: a `# HELP` line before each `# TYPE` line.
            let exposition = metrics.text.split(separator: "\n")
            for (index, line) in exposition.enumerated() where line.hasPrefix("# TYPE ") {
                let name = line.split(separator: " ")[2]
                #expect(index > 0 && exposition[index - 1].hasPrefix("# HELP \(name) "), "no # HELP for \(name)")
            }
        }
    }

    /// An operator sees transfers: `/metrics` counts tasks created and completed (by outcome and code)
    /// and their bytes, with `# HELP`, and shows the engine's running and queued transfers; the `info` log
    /// has each task's start and end with its ids.
    @Test(.timeLimit(.minutes(1)))
    func metricsAndTheLogShowEachTransfer() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try #require(try await api.createSession()["id"] as? String)
            let fetched = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1000")]])
            #expect(fetched.errorCode == nil, "\(fetched)")
            // A private address the default policy refuses: a failure with its code.
            let refused = try await api.runTask(session: session, ["kind": "download", "request": ["url": "http://10.255.255.1/x"]])
            #expect(refused.errorCode == -1004, "\(refused)")

            // The engine's gauges are published as its loop's turn ends, just after the transfer's end.
            var text = ""
            try await eventually(timeout: 5, interval: 0.05) {
                text = try await api.client.send(.get(service.baseURL + "/metrics")).text
                return text.contains("\nurlsessiond_transfers_running 0.0\n")
            }
            let lines = text.split(separator: "\n").map(String.init)
            func value(_ name: String, _ labels: [String]) -> Double? {
                lines.first { $0.hasPrefix(name + "{") && labels.allSatisfy($0.contains) }?.split(separator: " ").last.flatMap {
                    Double($0)
                }
            }
            #expect(value("urlsessiond_tasks_created_total", [#"kind="data""#]) == 1, "\(text)")
            #expect(value("urlsessiond_tasks_created_total", [#"kind="download""#]) == 1)
            #expect(value("urlsessiond_tasks_completed_total", [#"kind="data""#, #"outcome="success""#, #"code="0""#]) == 1)
            #expect(value("urlsessiond_tasks_completed_total", [#"kind="download""#, #"outcome="failed""#, #"code="-1004""#]) == 1)
            #expect((value("urlsessiond_task_bytes_received_total", []) ?? 0) >= 1000)
            #expect(lines.contains { $0.hasPrefix("urlsessiond_transfers_queued ") })
            #expect(lines.contains { $0.hasPrefix("# HELP urlsessiond_tasks_completed_total ") })
            #expect(!text.contains(session), "ids never become label values")

            let fetchedID = try #require(fetched["id"] as? String)
            let log = service.stderrText().split(separator: "\n").filter { $0.contains(fetchedID) }
            #expect(log.contains { $0.contains("Task started") && $0.contains("127.0.0.1") }, "\(log)")
            #expect(
                log.contains { $0.contains("Task completed") && $0.contains("success") && $0.contains("session.id=\(session)") }, "\(log)")
            #expect(!service.stderrText().contains("/bytes/1000"), "no URL is logged, only its host")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func openAPIDocumentIsServedAsYAML() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let response = try await client.send(.get(service.baseURL + "/openapi.yaml"))
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("application/yaml") == true)
            #expect(response.text.hasPrefix("openapi: 3.1"), "\(response.text.prefix(80))")
        }
    }

    /// `URLSESSIOND_LOG_FORMAT=json`: every line of the log is one JSON object with `time`, `level`, `logger`,
    /// `message` and the metadata's keys; at `debug`, each answered request names its tenant and task.
    @Test(.timeLimit(.minutes(1)))
    func theLogCanBeJSONLinesWithTheIdsAsFields() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_LOG_FORMAT": "json", "URLSESSIOND_LOG_LEVEL": "debug"]) { $1 }
        try await withTaskService(environment: environment) { api, service in
            let session = try #require(try await api.createSession()["id"] as? String)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            _ = try await api.get("/v1/tasks/\(task.taskID)")
            // The request's line is written once its answer went out, so after the GET returned: it is waited for.
            func logObjects() -> [[String: Any]] {
                let text = service.stderrText()
                let complete = text.hasSuffix("\n") ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
                return complete.split(separator: "\n").map {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? ["unparsed": String($0)]
                }
            }
            var objects: [[String: Any]] = []
            try await eventually(timeout: 10, interval: 0.05) {
                objects = logObjects()
                return objects.contains { $0["message"] as? String == "Request answered" && $0["task.id"] as? String == task.taskID }
                    && objects.contains { $0["message"] as? String == "Task completed" && $0["task.id"] as? String == task.taskID }
            }
            #expect(!objects.contains { $0["unparsed"] != nil }, "not JSON objects: \(objects.filter { $0["unparsed"] != nil })")
            #expect(
                objects.allSatisfy { ($0["time"] as? String)?.hasSuffix("Z") == true && $0["level"] is String && $0["message"] is String })
            let completed = objects.first { $0["message"] as? String == "Task completed" && $0["task.id"] as? String == task.taskID }
            #expect(completed?["session.id"] as? String == session, "\(objects.suffix(5))")
            #expect(completed?["level"] as? String == "info")
            let answered = objects.first {
                $0["message"] as? String == "Request answered" && $0["task.id"] as? String == task.taskID
                    && $0["http.method"] as? String == "GET"
            }
            #expect(answered?["tenant"] as? String == "tenantA", "\(objects.suffix(5))")
            #expect(answered?["http.path"] as? String == "/v1/tasks/{id}")
        }
    }

    /// `urlsessiond --version`: the API's version (`info.version` of the document it serves) and libcurl's.
    @Test(.timeLimit(.minutes(1)))
    func versionNamesTheAPIAndLibcurl() async throws {
        let run = try await runProgram(try ServiceProcess.binaryURL(), arguments: ["--version"], timeout: .seconds(20))
        #expect(run.status == 0, "\(run.errors)")
        let document = try String(
            contentsOf: ReadmeWalkthrough.readmeURL.deletingLastPathComponent().appendingPathComponent("openapi.yaml"), encoding: .utf8)
        let version = try #require(document.split(separator: "\n").first { $0.hasPrefix("  version: ") }?.dropFirst("  version: ".count))
        #expect(run.output.hasPrefix("urlsessiond \(version) (libcurl 7."), "\(run.output)")
    }

    @Test(.timeLimit(.minutes(1)))
    func everyAnswerCarriesARequestId() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_JSON_BODY": "1024"]) { $1 }
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            let id = try #require(try await api.createSession()["id"] as? String)
            let big = #"{"sessionDescription":""# + String(repeating: "x", count: 2000) + #""}"#
            let requests: [(Int, TestHTTPRequest)] = [
                (200, .get(service.baseURL + "/healthz")),
                (200, .get(service.baseURL + "/metrics")),
                (200, .get(service.baseURL + "/openapi.yaml")),
                (200, .get(service.baseURL + "/v1/sessions/\(id)", token: Tokens.tenantA)),
                (201, .post(service.baseURL + "/v1/sessions", json: "{}", token: Tokens.tenantA)),
                (
                    204,
                    TestHTTPRequest(
                        method: "POST", url: service.baseURL + "/v1/sessions/\(id)/flush",
                        headers: [("Authorization", "Bearer \(Tokens.tenantA)")])
                ),
                (400, .post(service.baseURL + "/v1/sessions", json: "{", token: Tokens.tenantA)),
                (401, .get(service.baseURL + "/v1/sessions")),
                (404, .get(service.baseURL + "/v1/nothing", token: Tokens.tenantA)),
                (405, .delete(service.baseURL + "/v1/sessions", token: Tokens.tenantA)),
                (413, .post(service.baseURL + "/v1/sessions", json: big, token: Tokens.tenantA)),
                (422, .get(service.baseURL + "/v1/sessions?limit=0", token: Tokens.tenantA)),
            ]
            var generated: Set<String> = []
            for (status, request) in requests {
                let plain = try await client.send(request)
                #expect(plain.status == status, "\(request.method) \(request.url): \(plain.text)")
                let given = try #require(plain.header("X-Request-Id"), "\(request.method) \(request.url)")
                #expect(!given.isEmpty)
                generated.insert(given)

                var tagged = request
                tagged.headers.append(("X-Request-Id", "trace-\(status)-abc"))
                let echoed = try await client.send(tagged)
                #expect(echoed.status == status)
                #expect(echoed.header("X-Request-Id") == "trace-\(status)-abc", "\(request.method) \(request.url)")
            }
            #expect(generated.count == requests.count, "generated request ids must differ")

            // An unusable client id (too long, or with spaces) is replaced, not echoed.
            for bad in [String(repeating: "r", count: 200), "has space"] {
                let response = try await client.send(.get(service.baseURL + "/healthz", headers: [("X-Request-Id", bad)]))
                let value = try #require(response.header("X-Request-Id"))
                #expect(value != bad && !value.isEmpty)
            }
        }
    }
}
