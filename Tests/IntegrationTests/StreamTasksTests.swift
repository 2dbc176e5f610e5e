import Foundation
import TestSupport
import Testing

/// stream tasks through the real service against a real TCP echo server (`TCPEchoOrigin`): bytes both ways
/// with `minBytes`, `maxBytes` and timeouts, each side's close and its event, TLS begun after plain bytes
/// (trusted by the session's anchors, or refused -1202), the egress guard, a restart, and the requests
/// refused.
@Suite("Tasks: stream")
struct StreamTasksTests {
    /// Creates a resumed stream task to `port` on loopback; its id.
    static func openTask(_ api: API, session: String, port: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> String
    {
        try await api.createTask(
            session: session, ["kind": "stream", "hostName": "127.0.0.1", "port": port, "resume": true],
            sourceLocation: sourceLocation
        ).taskID
    }

    static func write(_ api: API, _ task: String, _ text: String, timeout: Double? = nil) async throws -> TestHTTPResponse {
        var body: [String: Any] = ["data": Data(text.utf8).base64EncodedString()]
        if let timeout { body["timeout"] = timeout }
        return try await api.post("/v1/tasks/\(task)/write", json: try jsonText(body))
    }

    /// `GET .../read`: the answer's bytes as text, `atEOF`, and its error's code (nil when none).
    static func read(_ api: API, _ task: String, _ query: String = "", sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> (text: String, atEOF: Bool, errorCode: Int?)
    {
        let response = try await api.get("/v1/tasks/\(task)/read?\(query)")
        try #require(response.status == 200, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        let answer = try response.json()
        let bytes = try #require(Data(base64Encoded: answer["data"] as? String ?? "-"), sourceLocation: sourceLocation)
        return (String(decoding: bytes, as: UTF8.self), answer["atEOF"] as? Bool ?? false, int(answer.errorObject?["code"]))
    }

    @Test(.timeLimit(.minutes(1)))
    func bytesGoBothWaysAndClosingTheWriteSideEndsTheTask() async throws {
        let origin = try await TCPEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await Self.openTask(api, session: session, port: origin.port)
            let created = try await api.task(task)
            #expect(created["hostName"] as? String == "127.0.0.1" && int(created["port"]) == origin.port, "\(created)")
            #expect(isNull(created["originalRequest"]))

            let written = try await Self.write(api, task, "hello world")
            #expect(try written.status == 200 && isNull(written.json()["error"]), "\(written.text)")
            // maxBytes cuts; minBytes waits for the rest (the echo may come in pieces).
            #expect(try await Self.read(api, task, "minBytes=5&maxBytes=5&timeout=10").text == "hello")
            #expect(try await Self.read(api, task, "minBytes=6&timeout=10").text == " world")

            // A raw body is written as it is.
            let raw = try await api.post(
                "/v1/tasks/\(task)/write?timeout=10", bytes: Array("abc".utf8), contentType: "application/octet-stream")
            #expect(raw.status == 200, "\(raw.text)")
            #expect(try await Self.read(api, task, "minBytes=3&timeout=10").text == "abc")

            // A read waits for its minBytes while they arrive in two writes.
            async let waiting = Self.read(api, task, "minBytes=8&timeout=10")
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.write(api, task, "1234").status == 200)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.write(api, task, "5678").status == 200)
            #expect(try await waiting.text == "12345678")

            // Nothing comes: the read times out with -1001, as URLSession's; the task goes on.
            let quiet = try await Self.read(api, task, "timeout=0.3")
            #expect(quiet.errorCode == -1001 && quiet.text.isEmpty && !quiet.atEOF, "\(quiet)")
            #expect(try await api.task(task).state == "running")
            // The counts move while the connection is open.
            let live = try await api.task(task, until: { int($0["countOfBytesReceived"]) ?? 0 >= 8 })
            #expect(live.state == "running" && int(live["countOfBytesSent"]) ?? 0 >= 8, "\(live)")

            // The write side ends: the echo server reads its end and closes; the read side ends too, and the
            // task completes without an error.
            #expect(try await api.post("/v1/tasks/\(task)/closeWrite").status == 204)
            let end = try await Self.read(api, task, "timeout=10")
            #expect(end.atEOF && end.text.isEmpty && end.errorCode == nil, "\(end)")
            let done = try await api.completedTask(task)
            #expect(isNull(done["error"]), "\(done)")
            #expect(int(done["countOfBytesSent"]) == 22 && int(done["countOfBytesReceived"]) == 22, "\(done)")
            let types = try await api.allEvents("/v1/tasks/\(task)/events").compactMap(\.eventType)
            #expect(types.contains("streamTask.writeClosed") && types.contains("streamTask.readClosed"), "\(types)")
            #expect(types.suffix(2) == ["task.didFinishCollectingMetrics", "task.didCompleteWithError"], "\(types)")
            expectProblem(try await Self.write(api, task, "late"), status: 409, slug: "conflict")
        }
    }

    /// STARTTLS: plain bytes, then TLS on the same connection. The session's anchors trust the server's
    /// certificate; a session without them fails the task with -1202, as URLSession's.
    @Test(.timeLimit(.minutes(1)))
    func startSecureConnectionUpgradesAfterPlainBytesUnderTheSessionsTrust() async throws {
        let origin = try await TCPEchoOrigin.start(starttls: true)
        defer { origin.stop() }
        let certificate = try #require(origin.certificatePEM)
        try await withTaskService { api, _ in
            let anchored = try await api.makeSession(["serverTrust": ["anchors": [certificate]]])
            let task = try await Self.openTask(api, session: anchored, port: origin.port)
            #expect(try await Self.write(api, task, "STARTTLS\r\n").status == 200)
            #expect(try await Self.read(api, task, "minBytes=4&timeout=10").text == "OK\r\n")
            #expect(try await api.post("/v1/tasks/\(task)/startSecureConnection").status == 204)
            #expect(try await Self.write(api, task, "over TLS").status == 200)
            #expect(try await Self.read(api, task, "minBytes=8&timeout=10").text == "over TLS")
            #expect(try await api.post("/v1/tasks/\(task)/closeWrite").status == 204)
            #expect(try await Self.read(api, task, "timeout=10").atEOF)
            let done = try await api.completedTask(task)
            #expect(isNull(done["error"]), "\(done)")

            let untrusted = try await Self.openTask(api, session: try await api.makeSession(), port: origin.port)
            #expect(try await Self.write(api, untrusted, "STARTTLS\r\n").status == 200)
            #expect(try await Self.read(api, untrusted, "minBytes=4&timeout=10").text == "OK\r\n")
            #expect(try await api.post("/v1/tasks/\(untrusted)/startSecureConnection").status == 204)
            let refused = try await api.completedTask(untrusted)
            #expect(refused.errorCode == -1202, "\(refused)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theEgressGuardRefusesADeniedAddress() async throws {
        let origin = try await TCPEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: TaskEnvironment.defaultEgress) { api, _ in
            let denied = try await api.runTask(
                session: try await api.makeSession(), ["kind": "stream", "hostName": "127.0.0.1", "port": origin.port])
            TasksEgressTests.expectEgressRefusal(denied)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidRequestsAreRefusedNamingTheField() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let cases: [([String: Any], String, String)] = [
                (["kind": "stream", "port": 7], "hostName", "missing-field"),
                (["kind": "stream", "hostName": "127.0.0.1"], "port", "missing-field"),
                (["kind": "stream", "hostName": "127.0.0.1", "port": 0], "port", "invalid-value"),
                (["kind": "stream", "hostName": "127.0.0.1", "port": 65536], "port", "invalid-value"),
                (["kind": "stream", "hostName": "a host", "port": 7], "hostName", "invalid-value"),
                (["kind": "stream", "hostName": "-bad.example", "port": 7], "hostName", "invalid-value"),
                (
                    ["kind": "stream", "hostName": "127.0.0.1", "port": 7, "request": ["url": "http://127.0.0.1:7/"]], "request",
                    "invalid-value"
                ),
                (["kind": "data", "request": ["url": "http://127.0.0.1:1/"], "hostName": "127.0.0.1"], "hostName", "invalid-value"),
                (["kind": "data", "request": ["url": "http://127.0.0.1:1/"], "port": 7], "port", "invalid-value"),
            ]
            for (body, field, slug) in cases {
                expectProblem(try await api.postTask(session: session, body), status: 422, slug: slug, field: field)
            }
            let background = try await api.makeSession(["kind": "background", "identifier": "stream.background"])
            expectProblem(
                try await api.postTask(session: background, ["kind": "stream", "hostName": "127.0.0.1", "port": 7]),
                status: 422, slug: "invalid-value", field: "kind")

            // A task that never ran has no connection; another tenant's task and another kind do not exist here.
            let task = try await api.createTask(session: session, ["kind": "stream", "hostName": "::1", "port": 7]).taskID
            expectProblem(try await api.get("/v1/tasks/\(task)/read?timeout=1"), status: 409, slug: "conflict")
            expectProblem(try await Self.write(api, task, "x"), status: 409, slug: "conflict")
            expectProblem(
                try await api.get("/v1/tasks/\(task)/read?minBytes=9&maxBytes=8"), status: 422, slug: "invalid-value", field: "minBytes")
            expectProblem(try await api.get("/v1/tasks/\(task)/read?timeout=301"), status: 422, slug: "invalid-value", field: "timeout")
            expectProblem(
                try await api.post("/v1/tasks/\(task)/write", json: #"{"data": "not base64!"}"#), status: 422, slug: "invalid-value",
                field: "data")
            let other = api.as(Tokens.tenantB)
            expectProblem(try await other.get("/v1/tasks/\(task)/read"), status: 404, slug: "not-found")
            expectProblem(try await other.post("/v1/tasks/\(task)/closeWrite"), status: 404, slug: "not-found")
            let data = try await api.createTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:1/"]])
            expectProblem(try await api.get("/v1/tasks/\(data.taskID)/read"), status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aRunningStreamCannotBeSuspendedAndCancelEndsIt() async throws {
        let origin = try await TCPEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let task = try await Self.openTask(api, session: try await api.makeSession(), port: origin.port)
            #expect(try await Self.write(api, task, "ping").status == 200)
            #expect(try await Self.read(api, task, "minBytes=4&timeout=10").text == "ping")
            expectProblem(try await api.taskAction(task, "suspend"), status: 409, slug: "conflict")
            #expect(try await api.taskAction(task, "cancel").status == 200)
            let cancelled = try await api.completedTask(task)
            #expect(cancelled.errorCode == -999, "\(cancelled)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aStreamOpenWhenTheServiceDiedCompletesWithConnectionLostAtTheNextStart() async throws {
        let origin = try await TCPEchoOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-stream-restart")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let task = try await Self.openTask(api, session: try await api.makeSession(), port: origin.port)
        #expect(try await Self.write(api, task, "before").status == 200)
        await first.kill9()

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let lost = try await API(second, client).completedTask(task)
        #expect(lost.errorCode == -1005 && lost.errorReason == "serviceRestarted", "\(lost)")
        #expect(try await second.terminate() == 0)
    }
}
