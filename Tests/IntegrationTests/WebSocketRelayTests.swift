import Foundation
import TestSupport
import Testing

/// The relay (`GET /v1/tasks/{id}/socket`) through the real service: a real WebSocket client (the
/// `websockets` library, `Tests/Fixtures/websocket_relay_client.py`) talks through it to a real origin
/// (`WebSocketEchoOrigin`); messages both ways, fragments, pings, each end's close, backpressure, one relay
/// at a time, and the upgrades refused.
@Suite("Tasks: webSocket relay")
struct WebSocketRelayTests {
    /// Runs a scenario of the relay client against task `task` and returns what it printed (killed after 90 s).
    static func client(
        _ scenario: String, _ api: API, task: String, protocols: [String] = [], readyFile: String? = nil
    ) async throws -> [String: Any] {
        let url = api.base.replacingOccurrences(of: "http://", with: "ws://") + "/v1/tasks/\(task)/socket"
        var arguments = [scenario, url, api.token ?? ""] + protocols.flatMap { ["--protocol", $0] }
        if let readyFile { arguments += ["--ready-file", readyFile] }
        let run = try await runFixtureScript("websocket_relay_client.py", arguments: arguments, timeout: .seconds(90))
        #expect(run.status == 0, "the relay client \(scenario) failed: \(run.output)\(run.errors)")
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any] ?? [:]
    }

    /// The fields of a valid upgrade (RFC 6455's sample key).
    static let upgrade = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ]

    @Test(.timeLimit(.minutes(2)))
    func messagesFragmentsAndPingsGoThroughAndTheCallersCloseEndsTheTask() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (task, chosen) = try await WebSocketTasksTests.openTask(
                api, session: session, url: origin.url("/echo"), ["protocols": ["superchat", "chat"]])
            #expect(chosen as? String == "superchat")
            let result = try await Self.client("echo", api, task: task, protocols: ["superchat"])
            #expect(result["subprotocol"] as? String == "superchat", "the origin's choice, which the caller offered")
            for check in ["text", "binary", "fragmented", "pong", "ordered"] {
                #expect(result[check] as? Bool == true, "\(check): \(result)")
            }
            #expect(int(result["closeCode"]) == 4001 && result["closeReason"] as? String == "bye relay", "the close echoed: \(result)")
            let done = try await api.completedTask(task)
            #expect(isNull(done["error"]) && int(done["closeCode"]) == 4001 && done["closeReason"] as? String == "bye relay", "\(done)")
            #expect(int(done["countOfBytesSent"]) ?? 0 > 600_000)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theOriginsCloseReachesTheCallerAndACallerWhoLeavesClosesTheTask() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (closed, _) = try await WebSocketTasksTests.openTask(api, session: session, url: origin.url("/echo"))
            let result = try await Self.client("origin-close", api, task: closed)
            #expect(int(result["closeCode"]) == 4003 && result["closeReason"] as? String == "origin says bye", "\(result)")
            let done = try await api.completedTask(closed)
            #expect(isNull(done["error"]) && int(done["closeCode"]) == 4003, "\(done)")

            // A caller that goes without a close frame: the task closes going away (a proxy's client left).
            let (left, _) = try await WebSocketTasksTests.openTask(api, session: session, url: origin.url("/echo"))
            #expect(try await Self.client("drop", api, task: left)["echoed"] as? Bool == true)
            let ended = try await api.completedTask(left)
            #expect(isNull(ended["error"]) && int(ended["closeCode"]) == 1001, "\(ended)")
            #expect(ended["closeReason"] as? String == "the relayed client left")
        }
    }

    /// One relay at a time, and it alone reads the task's messages; 3,000 messages of 4 KiB (12 MiB, three
    /// times the task's buffer) sent while the caller reads nothing all come back, in order: the caller's
    /// slowness held the origin back instead of dropping or piling up messages.
    @Test(.timeLimit(.minutes(2)))
    func oneRelayAtATimeAndASlowCallerHoldsTheOriginBack() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (task, _) = try await WebSocketTasksTests.openTask(api, session: session, url: origin.url("/echo"))
            let result = try await Self.client("conflict", api, task: task)
            #expect(result["echoed"] as? Bool == true)
            #expect(int(result["second"]) == 409 && int(result["messages"]) == 409, "\(result)")
            #expect(int(result["closeCode"]) == 1000)
            _ = try await api.completedTask(task)

            let (slow, _) = try await WebSocketTasksTests.openTask(api, session: session, url: origin.url("/echo"))
            #expect(try await Self.client("backpressure", api, task: slow)["ordered"] as? Bool == true)
            #expect(int(try await api.completedTask(slow)["closeCode"]) == 1000)
        }
    }

    /// Graceful shutdown: an open relay's caller gets a going-away close frame, and the service exits
    /// cleanly (the upgraded socket is given back to MHD before the daemon stops).
    @Test(.timeLimit(.minutes(2)))
    func shutdownClosesTheRelayGoingAway() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let (task, _) = try await WebSocketTasksTests.openTask(api, session: session, url: origin.url("/echo"))
            let directory = try TemporaryDirectory.make()
            defer { directory.remove() }
            let ready = directory.path + "/echoed"
            async let held = Self.client("hold", api, task: task, readyFile: ready)
            // The client has its echo (so the relay carried a message both ways) before the service stops:
            // stopped earlier, the going-away close could overtake the echo.
            try await eventually(timeout: 20, interval: 0.05) { FileManager.default.fileExists(atPath: ready) }
            #expect(try await service.terminate() == 0)
            let result = try await held
            #expect(result["echoed"] as? Bool == true)
            #expect(int(result["closeCode"]) == 1001 && result["closeReason"] as? String == "the service is stopping", "\(result)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func requestsThatAreNotAValidUpgradeOrNotTheTenantsAreRefused() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (task, _) = try await WebSocketTasksTests.openTask(api, session: session, url: origin.url("/echo"))
            let plain = try await api.get("/v1/tasks/\(task)/socket")
            expectProblem(plain, status: 426, slug: "upgrade-required", field: "Upgrade")
            #expect(plain.header("Upgrade") == "websocket" && plain.header("Sec-WebSocket-Version") == "13")

            let badKey = try await api.get(
                "/v1/tasks/\(task)/socket", headers: Self.upgrade.dropLast() + [("Sec-WebSocket-Key", "c2hvcnQ=")])
            expectProblem(badKey, status: 400, slug: "invalid-upgrade", field: "Sec-WebSocket-Key")
            let oldVersion = try await api.get(
                "/v1/tasks/\(task)/socket",
                headers: Self.upgrade.filter { $0.0 != "Sec-WebSocket-Version" } + [("Sec-WebSocket-Version", "8")])
            expectProblem(oldVersion, status: 426, slug: "upgrade-required", field: "Sec-WebSocket-Version")

            expectProblem(
                try await api.as(Tokens.tenantB).get("/v1/tasks/\(task)/socket", headers: Self.upgrade), status: 404, slug: "not-found")
            expectProblem(try await api.get("/v1/tasks/nosuchtask/socket", headers: Self.upgrade), status: 404, slug: "not-found")
            #expect(try await api.as(nil).get("/v1/tasks/\(task)/socket", headers: Self.upgrade).status == 401)

            let data = try await api.createTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:\(origin.port)/"]])
                .taskID
            expectProblem(try await api.get("/v1/tasks/\(data)/socket", headers: Self.upgrade), status: 409, slug: "conflict")
            _ = try await api.post("/v1/tasks/\(task)/cancel", json: #"{"closeCode": 1000}"#)
            _ = try await api.completedTask(task)
            expectProblem(try await api.get("/v1/tasks/\(task)/socket", headers: Self.upgrade), status: 409, slug: "conflict")
        }
    }
}
