import Foundation
import TestSupport
import Testing

/// webSocket tasks through the real service against a real WebSocket server (`WebSocketEchoOrigin`, the
/// `websockets` library): messages both ways, pings, each close, `maximumMessageSize`, the handshake's
/// cookies and credentials, the egress guard, a refused upgrade, and the requests refused.
@Suite("Tasks: webSocket")
struct WebSocketTasksTests {
    /// Creates a resumed webSocket task and waits for its `webSocketTask.didOpenWithProtocol`.
    static func openTask(
        _ api: API, session: String, url: String, _ extra: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (task: String, protocol: Any?) {
        var body: [String: Any] = ["kind": "webSocket", "request": ["url": url], "resume": true]
        body.merge(extra) { $1 }
        let task = try await api.createTask(session: session, body, sourceLocation: sourceLocation).taskID
        var opened: [String: Any]?
        try await eventually(timeout: 10, interval: 0.05) {
            opened = try await api.allEvents("/v1/tasks/\(task)/events").first { $0.eventType == "webSocketTask.didOpenWithProtocol" }
            return opened != nil
        }
        return (task, opened?.eventData?["protocol"])
    }

    /// Reads messages until `count` arrived after `after` (long-polls of at most 5 s, 10 s in all).
    static func receive(_ api: API, _ task: String, count: Int, after: Int = 0) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor = after
        let deadline = ContinuousClock.now + .seconds(10)
        while items.count < count, ContinuousClock.now < deadline {
            let page = try await api.get("/v1/tasks/\(task)/messages?after=\(cursor)&wait=5").json()
            items += page["items"] as? [[String: Any]] ?? []
            guard let next = (page["nextCursor"] as? String).flatMap(Int.init) else { break }
            cursor = next
        }
        return items
    }

    static func send(_ api: API, _ task: String, _ message: [String: Any]) async throws -> TestHTTPResponse {
        try await api.post("/v1/tasks/\(task)/messages", json: try jsonText(message))
    }

    /// URLSession queues a `send` or a `sendPing` made between `resume()` and the open: here they wait for
    /// the connection instead of a 409 (a suspended task's are still refused).
    @Test(.timeLimit(.minutes(1)))
    func aSendOrPingRightAfterResumeWaitsForTheConnection() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let body: [String: Any] = ["kind": "webSocket", "request": ["url": origin.url("/echo")], "resume": true]
            let task = try await api.createTask(session: session, body).taskID
            #expect(try await Self.send(api, task, ["string": "early"]).status == 204)
            #expect(try await api.post("/v1/tasks/\(task)/ping").status == 204)
            #expect(try await Self.receive(api, task, count: 1).first?["string"] as? String == "early")

            let suspended = try await api.createTask(session: session, ["kind": "webSocket", "request": ["url": origin.url("/echo")]])
            expectProblem(try await Self.send(api, suspended.taskID, ["string": "never"]), status: 409, slug: "conflict")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func messagesGoBothWaysWithPingsAndACloseCodeFromTheClient() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (task, chosen) = try await Self.openTask(
                api, session: session, url: origin.url("/echo"), ["protocols": ["superchat", "chat"]])
            #expect(chosen as? String == "superchat")
            #expect(try await api.task(task).state == "running")

            let binary: [UInt8] = [0, 1, 2, 254, 255]
            #expect(try await Self.send(api, task, ["string": "héllo"]).status == 204)
            #expect(try await Self.send(api, task, ["data": Data(binary).base64EncodedString()]).status == 204)
            #expect(try await Self.send(api, task, ["string": "fragments 4 a message sent in four fragments"]).status == 204)
            let received = try await Self.receive(api, task, count: 3)
            #expect(received.map { int($0["sequence"]) } == [1, 2, 3])
            #expect(received.first?["string"] as? String == "héllo")
            #expect(received.dropFirst().first?["data"] as? String == Data(binary).base64EncodedString())
            #expect(received.last?["string"] as? String == "a message sent in four fragments")
            // `after` acknowledged them: nothing is left.
            let empty = try await api.get("/v1/tasks/\(task)/messages?after=3").json()
            #expect((empty["items"] as? [Any])?.isEmpty == true && empty["nextCursor"] as? String == "3")
            // The counts move while the socket is open (payload bytes, as URLSession counts them).
            let live = try await api.task(task, until: { int($0["countOfBytesSent"]) ?? 0 > 0 && int($0["countOfBytesReceived"]) ?? 0 > 0 })
            #expect(live.state == "running", "\(live)")

            #expect(try await api.post("/v1/tasks/\(task)/ping").status == 204)

            let cancelled = try await api.post("/v1/tasks/\(task)/cancel", json: #"{"closeCode": 4002, "reason": "bye now"}"#)
            #expect(cancelled.status == 200, "\(cancelled.text)")
            let done = try await api.completedTask(task)
            #expect(isNull(done["error"]), "\(done)")
            #expect(int(done["closeCode"]) == 4002 && done["closeReason"] as? String == "bye now")
            #expect(int(done["countOfBytesReceived"]) ?? 0 > 0)
            let types = try await api.allEvents("/v1/tasks/\(task)/events").compactMap(\.eventType)
            #expect(
                types.suffix(3) == ["webSocketTask.didCloseWith", "task.didFinishCollectingMetrics", "task.didCompleteWithError"],
                "\(types)")
            #expect(try await Self.send(api, task, ["string": "late"]).status == 409)
            // The messages received stay readable after the end; the cursor then says nothing more comes.
            let last = try await api.get("/v1/tasks/\(task)/messages?after=3").json()
            #expect(isNull(last["nextCursor"]))
        }
    }

    /// wss: nginx terminates TLS in front of the server. A session whose `serverTrust.anchors` name its
    /// certificate opens the socket (the handshake over HTTP/1.1, though nginx offers h2 too); a session
    /// without them fails the task with a server-trust error.
    @Test(.timeLimit(.minutes(1)))
    func overTLSTheSessionsTrustDecides() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let nginx = try await NginxOrigin.start(tls: true, webSocketUpstream: origin.port)
        defer { nginx.stop() }
        let certificate = try String(contentsOfFile: try #require(nginx.certificatePath), encoding: .utf8)
        let url = "wss://127.0.0.1:\(nginx.port)/echo"
        try await withTaskService { api, _ in
            let anchored = try await api.makeSession(["serverTrust": ["anchors": [certificate]]])
            let (task, chosen) = try await Self.openTask(api, session: anchored, url: url, ["protocols": ["chat"]])
            #expect(chosen as? String == "chat")
            #expect(try await Self.send(api, task, ["string": "over TLS"]).status == 204)
            #expect(try await Self.receive(api, task, count: 1).first?["string"] as? String == "over TLS")
            #expect(try await api.post("/v1/tasks/\(task)/cancel", json: #"{"closeCode": 1000}"#).status == 200)
            let done = try await api.completedTask(task)
            #expect(isNull(done["error"]) && int(done["closeCode"]) == 1000, "\(done)")

            let untrusted = try await api.runTask(session: try await api.makeSession(), ["kind": "webSocket", "request": ["url": url]])
            #expect(untrusted.errorCode == -1202, "\(untrusted)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theServersCloseAndADroppedConnectionEndTheTask() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (asked, _) = try await Self.openTask(api, session: session, url: origin.url("/echo"))
            #expect(try await Self.send(api, asked, ["string": "close 4001 finished"]).status == 204)
            let closed = try await api.completedTask(asked)
            #expect(isNull(closed["error"]) && int(closed["closeCode"]) == 4001 && closed["closeReason"] as? String == "finished")
            let close = try await api.allEvents("/v1/tasks/\(asked)/events").first { $0.eventType == "webSocketTask.didCloseWith" }
            #expect(int(close?.eventData?["closeCode"]) == 4001 && close?.eventData?["reason"] as? String == "finished")

            let now = try await api.runTask(session: session, ["kind": "webSocket", "request": ["url": origin.url("/close-now")]])
            #expect(isNull(now["error"]) && int(now["closeCode"]) == 4000 && now["closeReason"] as? String == "bye")

            // The server goes away without a close frame: -1005, as URLSession reports a lost connection.
            let (dropped, _) = try await Self.openTask(api, session: session, url: origin.url("/echo"))
            #expect(try await Self.send(api, dropped, ["string": "drop"]).status == 204)
            let lost = try await api.completedTask(dropped)
            #expect(lost.errorCode == -1005, "\(lost)")
            #expect(int(lost["closeCode"]) == 1006)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aMessageOverTheMaximumSizeFailsTheTaskAsURLSessionDoes() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (echo, _) = try await Self.openTask(api, session: session, url: origin.url("/echo"), ["maximumMessageSize": 16])
            let tooLarge = try await Self.send(api, echo, ["string": String(repeating: "x", count: 17)])
            expectProblem(tooLarge, status: 413, slug: "payload-too-large", field: "string")
            #expect(try await Self.send(api, echo, ["string": String(repeating: "x", count: 16)]).status == 204)
            #expect(try await Self.receive(api, echo, count: 1).count == 1, "a message of exactly the maximum size is taken")
            _ = try await api.post("/v1/tasks/\(echo)/cancel", json: #"{"closeCode": 1000}"#)

            // `/headers` first sends the handshake's fields, far more than 16 bytes: the task fails.
            let task = try await api.createTask(
                session: session,
                ["kind": "webSocket", "request": ["url": origin.url("/headers")], "maximumMessageSize": 16, "resume": true]
            ).taskID
            let failed = try await api.completedTask(task)
            let error = try #require(failed.errorObject)
            #expect(error["domain"] as? String == "NSPOSIXErrorDomain" && int(error["code"]) == 40, "\(error)")
            #expect(int(failed["closeCode"]) == 1009)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theHandshakeCarriesTheSessionsCookiesAndStoredCredential() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let cookies = try await api.post(
                "/v1/sessions/\(session)/cookies",
                json: try jsonText(["url": "http://127.0.0.1:\(origin.port)/", "cookies": [["name": "flavour", "value": "oat"]]]))
            #expect(cookies.status == 200 || cookies.status == 201, "\(cookies.text)")
            let space: [String: Any] = [
                "host": "127.0.0.1", "port": origin.port, "protocol": "http",
                "authenticationMethod": "NSURLAuthenticationMethodHTTPBasic",
            ]
            let stored = try await api.post(
                "/v1/credentials",
                json: try jsonText(["protectionSpace": space, "credential": ["user": "ann", "password": "s3cret"]]))
            #expect(stored.status == 201, "\(stored.text)")

            let (task, _) = try await Self.openTask(
                api, session: session, url: origin.url("/headers?x=1"),
                ["request": ["url": origin.url("/headers?x=1"), "allHTTPHeaderFields": ["X-Trace": "t1"]]])
            let first = try #require(try await Self.receive(api, task, count: 1).first?["string"] as? String)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: String])
            #expect(fields["Cookie"] == "flavour=oat", "\(fields)")
            #expect(fields["Authorization"] == "Basic " + Data("ann:s3cret".utf8).base64EncodedString())
            #expect(fields["X-Trace"] == "t1")
            _ = try await api.post("/v1/tasks/\(task)/cancel", json: #"{"closeCode": 1000}"#)
            #expect(isNull(try await api.completedTask(task)["error"]))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeniedAddressAndARefusedUpgradeFailTheTask() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: TaskEnvironment.defaultEgress) { api, _ in
            let session = try await api.makeSession()
            let denied = try await api.runTask(session: session, ["kind": "webSocket", "request": ["url": origin.url("/echo")]])
            TasksEgressTests.expectEgressRefusal(denied)
            #expect(int(denied["closeCode"]) == 0)
        }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let refused = try await api.runTask(session: session, ["kind": "webSocket", "request": ["url": origin.url("/nowhere")]])
            #expect(refused.errorCode == -1011, "\(refused)")
            #expect(refused.statusCode == 404)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidRequestsAreRefusedNamingTheField() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let cases: [([String: Any], String)] = [
                (["kind": "data", "request": ["url": "ws://127.0.0.1:1/"]], "request.url"),
                (["kind": "webSocket", "request": ["url": "http://127.0.0.1:1/"]], "request.url"),
                (["kind": "webSocket", "request": ["url": "ws://127.0.0.1:1/"], "maximumMessageSize": 0], "maximumMessageSize"),
                (["kind": "webSocket", "request": ["url": "ws://127.0.0.1:1/"], "protocols": ["a b"]], "protocols[0]"),
                (["kind": "webSocket", "request": ["url": "ws://127.0.0.1:1/", "httpMethod": "POST"]], "request.httpMethod"),
                (["kind": "data", "request": ["url": "http://127.0.0.1:1/"], "protocols": ["chat"]], "protocols"),
            ]
            for (body, field) in cases {
                expectProblem(try await api.postTask(session: session, body), status: 422, slug: "invalid-value", field: field)
            }
            let background = try await api.makeSession(["kind": "background", "identifier": "ws.background"])
            expectProblem(
                try await api.postTask(session: background, ["kind": "webSocket", "request": ["url": "ws://127.0.0.1:1/"]]),
                status: 422, slug: "invalid-value", field: "kind")

            let task = try await api.createTask(session: session, ["kind": "webSocket", "request": ["url": "ws://127.0.0.1:1/"]])
            #expect(int(task["closeCode"]) == 0 && int(task["maximumMessageSize"]) == 1_048_576 && isNull(task["closeReason"]))
            expectProblem(
                try await Self.send(api, task.taskID, ["string": "a", "data": "YQ=="]), status: 422, slug: "invalid-value", field: "string")
            expectProblem(try await Self.send(api, task.taskID, ["string": "not open"]), status: 409, slug: "conflict")
            expectProblem(try await api.post("/v1/tasks/\(task.taskID)/ping"), status: 409, slug: "conflict")
            expectProblem(
                try await api.post("/v1/tasks/\(task.taskID)/cancel", json: #"{"closeCode": 1005}"#), status: 422, slug: "invalid-value",
                field: "closeCode")
            let data = try await api.createTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:1/"]])
            expectProblem(try await api.get("/v1/tasks/\(data.taskID)/messages"), status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aWebSocketOpenWhenTheServiceDiedCompletesWithConnectionLostAtTheNextStart() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-ws-restart")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession()
        let (task, _) = try await Self.openTask(api, session: session, url: origin.url("/echo"))
        await first.kill9()

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let lost = try await again.completedTask(task)
        #expect(lost.errorCode == -1005 && lost.errorReason == "serviceRestarted", "\(lost)")
        #expect(int(lost["closeCode"]) == 0)
        #expect(try await second.terminate() == 0)
    }
}
