import Foundation
import TestSupport
import Testing

/// Bounds that are not per-tenant quotas: the largest download, the largest session configuration, API
/// connections per client address, and event watchers woken only by their own session.
@Suite("Bounds")
struct BoundsTests {
    @Test(.timeLimit(.minutes(2)), arguments: ["download", "data"])
    func aBodyPastTheMaximumDownloadSizeFailsWith1103AndLeavesNoFile(kind: String) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_MAX_DOWNLOAD_SIZE": "100000"]) { $1 }
        try await withTaskService(environment: environment) { api, service in
            let session = try await api.makeSession()
            // Announced (Content-Length: CURLOPT_MAXFILESIZE_LARGE), then chunked (the write callback).
            for path in ["/bytes/300000", "/bytes/300000?chunked=1"] {
                let task = try await api.runTask(session: session, ["kind": kind, "request": ["url": origin.url(path)]])
                #expect(task.errorCode == -1103, "\(path): \(task)")
                #expect(task.errorObject?["name"] as? String == "dataLengthExceedsMaximum", "\(task)")
                #expect(isNull(task["location"]), "\(task)")
                let userInfo = task.errorObject?["userInfo"] as? [String: Any]
                #expect(userInfo?["NSURLSessionDownloadTaskResumeData"] == nil, "nothing to resume: \(task)")
                let downloads = service.dataDirectory.appendingPathComponent("downloads")
                let left = try FileManager.default.contentsOfDirectory(atPath: downloads.path).filter { $0.contains(task.taskID) }
                #expect(left.isEmpty, "partial bytes of \(path) were kept: \(left)")
            }
            let small = try await api.runTask(session: session, ["kind": kind, "request": ["url": origin.url("/bytes/100000?chunked=1")]])
            #expect(small.errorCode == nil, "a body of exactly the maximum is fine: \(small)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aSessionConfigurationPastItsCapIsRefusedNamingIt() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_SESSION_CONFIGURATION": "1024"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let headers = ["X-Padding": String(repeating: "p", count: 1100)]
            let refused = try await api.post(
                "/v1/sessions", json: try jsonText(["configuration": ["httpAdditionalHeaders": headers]]))
            expectProblem(refused, status: 413, slug: "payload-too-large", field: "configuration")
            #expect(try await api.sessionIDs().isEmpty, "nothing was created")
            // Whitespace is not counted: the same small configuration, padded with spaces, is fine.
            let padded = "{\"configuration\": {" + String(repeating: " ", count: 2000) + "\"timeoutIntervalForRequest\": 5}}"
            _ = try await api.createSession(json: padded)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func connectionsPerAddressAreLimitedAndOtherClientsAreStillAnswered() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_CONNECTIONS_PER_IP": "3"]) { $1 }
        try await withTaskService(environment: environment) { _, service in
            // Three connections from 127.0.0.3, each answered once (so accepted) and kept open. (Not from
            // 127.0.0.1: the harness's own readiness probes come from there, and one still closing counted.)
            let address = "127.0.0.3"
            var held: [LoopbackConnection] = []
            for _ in 0..<3 {
                let connection = try LoopbackConnection(from: address, port: service.port)
                #expect(connection.get("/healthz") == 200)
                held.append(connection)
            }
            // A fourth from the same address is closed unanswered.
            let refused = try LoopbackConnection(from: address, port: service.port, timeout: 2)
            #expect(refused.get("/healthz") == nil, "a fourth connection from one address was answered")
            // Another address is answered meanwhile.
            let other = try LoopbackConnection(from: "127.0.0.2", port: service.port)
            #expect(other.get("/healthz") == 200)
            // Once one closes, the address gets a connection again.
            held.removeFirst()
            try await eventually(timeout: 10, interval: 0.1) {
                (try LoopbackConnection(from: address, port: service.port, timeout: 2)).get("/healthz") == 200
            }
            #expect(held.count == 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anEventStreamWakesOnlyForItsOwnSessionsEvents() async throws {
        try await withTaskService { api, _ in
            let watched = try await api.makeSession()
            let busy = try await api.makeSession()
            let recorder = EventStreamRecorder()
            let request: [String: Any] = ["kind": "data", "request": ["url": "http://127.0.0.1:9/"]]
            _ = try await api.createTask(session: watched, request)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await recorder.run(api.client, api.eventStreamRequest(session: watched)) }
                // The stream read the first event after subscribing: from here each hint is seen.
                _ = try await recorder.waitForEvents(count: 1, timeout: 10)
                _ = try await api.createTask(session: watched, request)
                _ = try await recorder.waitForEvents(count: 2, timeout: 10)
                try await eventually(timeout: 10) { try await Self.wakeups(api) >= 1 }
                let before = try await Self.wakeups(api)

                for _ in 0..<20 { _ = try await api.createTask(session: busy, request) }
                let busyEvents = try await api.get("/v1/sessions/\(busy)/events")
                #expect((try busyEvents.json()["items"] as? [Any])?.count == 20)
                // Hints reach a watcher in commit order: once its own third event's hint is counted, any
                // hint of the busy session would have been counted before it.
                _ = try await api.createTask(session: watched, request)
                _ = try await recorder.waitForEvents(count: 3, timeout: 10)
                try await eventually(timeout: 10) { try await Self.wakeups(api) >= before + 1 }
                let after = try await Self.wakeups(api)
                #expect(after == before + 1, "another session's 20 events woke the stream \(after - before - 1) times")
                group.cancelAll()
            }
        }
    }

    /// `urlsessiond_event_watcher_wakeups_total`.
    static func wakeups(_ api: API) async throws -> Double {
        let text = try await api.get("/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix("urlsessiond_event_watcher_wakeups_total ") }
        return try #require(line.flatMap { Double($0.split(separator: " ").last ?? "") }, "\(text)")
    }
}
