import Foundation
import TestSupport
import Testing

/// `uploadTask(withStreamedRequest:)`: an upload task with `uploadSource.stream` takes its body through
/// `PUT /v1/tasks/{id}/body` while it runs, passed to the origin as it arrives.
@Suite("Streamed uploads")
struct StreamedUploadsTests {
    /// What `Tests/Fixtures/stream_put.py` reports.
    struct Sent {
        var status: Int?
        var bytes: Int
        var sha256: String
    }

    /// Sends `mebibytes` MiB to the task's `/body` with the stdlib client (chunked unless `sized`),
    /// stopping after `stopAfter` MiB when given.
    static func put(
        _ api: API, _ service: ServiceProcess, task id: String, mebibytes: Int, sized: Bool = false, stopAfter: Int? = nil,
        halfClose: Bool = false
    ) async throws -> Sent {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/stream_put.py")
        var arguments = [script.path, "\(service.baseURL)/v1/tasks/\(id)/body", api.token ?? "", "\(mebibytes)"]
        if sized { arguments.append("--length") }
        if let stopAfter { arguments += ["--stop-after", "\(stopAfter)"] }
        if halfClose { arguments.append("--half-close") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = try await Task.detached { try output.fileHandleForReading.readToEnd() ?? Data() }.value
        process.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        return Sent(status: json["status"] as? Int, bytes: json["sent"] as? Int ?? -1, sha256: json["sha256"] as? String ?? "")
    }

    /// Peak resident memory of the service (VmHWM), in MiB.
    static func peakMemory(of service: ServiceProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(service.pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    static func streamedTask(_ api: API, session: String, url: String) async throws -> String {
        let created = try await api.createTask(
            session: session, ["kind": "upload", "request": ["url": url, "httpMethod": "PUT"], "uploadSource": ["stream": true]])
        #expect(created.state == "suspended")
        #expect(created.count("countOfBytesExpectedToSend") == -1, "unknown until sent")
        return created.taskID
    }

    /// A streamed upload task, resumed.
    static func resumedStreamedTask(_ api: API, session: String, url: String) async throws -> String {
        let id = try await streamedTask(api, session: session, url: url)
        #expect(try await api.taskAction(id, "resume").status == 200)
        return id
    }

    /// 1 GiB, chunked, reaches the origin whole while the service's peak memory stays under 100 MiB.
    @Test(.timeLimit(.minutes(3)))
    func aGibibyteStreamsThroughWithBoundedMemory() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let id = try await Self.resumedStreamedTask(api, session: session, url: origin.url("/upload"))
            let sent = try await Self.put(api, service, task: id, mebibytes: 1024)
            #expect(sent.status == 204)
            let task = try await api.completedTask(id, within: 120)
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.count("countOfBytesSent") == 1 << 30)
            let echo = try await api.echo(of: id)
            #expect(echo.bodySize == 1 << 30 && echo.bodySHA256 == sent.sha256)
            #expect(echo.headers["transfer-encoding"] == "chunked")
            let peak = try Self.peakMemory(of: service)
            #expect(peak < 100, "peak RSS \(peak) MiB")
        }
    }

    /// A 307 keeps the body: `task.needNewBodyStream` asks for it again and the second PUT is what the
    /// redirected request sends; a declared length goes as `Content-Length`.
    @Test(.timeLimit(.minutes(2)))
    func aRedirectAsksForANewBodyStream() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let id = try await Self.resumedStreamedTask(api, session: session, url: origin.url("/redirect/307?to=/upload"))
            let first = try await Self.put(api, service, task: id, mebibytes: 1)
            #expect(first.status == 204)
            try await eventually(timeout: 20, interval: 0.05) {
                try await api.allEvents("/v1/sessions/\(session)/events").contains { $0["type"] as? String == "task.needNewBodyStream" }
            }
            let second = try await Self.put(api, service, task: id, mebibytes: 3, sized: true)
            #expect(second.status == 204)
            let task = try await api.completedTask(id)
            #expect(task.errorCode == nil, "\(task)")
            let echo = try await api.echo(of: id)
            #expect(echo.bodySize == 3 << 20 && echo.bodySHA256 == second.sha256)
        }
    }

    /// A `PUT` that comes while the resumed task's attempt has not started yet (here: its
    /// `earliestBeginDate` is a second away) waits for it instead of being refused.
    @Test(.timeLimit(.minutes(2)))
    func aBodySentBeforeTheAttemptStartsWaitsForIt() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"],
                    "uploadSource": ["stream": true], "earliestBeginDate": formatter.string(from: Date().addingTimeInterval(1)),
                    "resume": true,
                ])
            let sent = try await Self.put(api, service, task: created.taskID, mebibytes: 2)
            #expect(sent.status == 204)
            let task = try await api.completedTask(created.taskID)
            #expect(task.errorCode == nil, "\(task)")
            let echo = try await api.echo(of: created.taskID)
            #expect(echo.bodySize == 2 << 20 && echo.bodySHA256 == sent.sha256)
        }
    }

    /// A client that leaves mid-body fails the task with -1021, however its end reaches the service: MHD
    /// can miss an end of stream that came with the last bytes (see `ClientHangupWatch`).
    @Test(.timeLimit(.minutes(2)))
    func aClientLeavingMidBodyFailsTheTaskWithMinus1021() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let id = try await Self.resumedStreamedTask(api, session: session, url: origin.url("/upload"))
            let sent = try await Self.put(api, service, task: id, mebibytes: 8, stopAfter: 2)
            #expect(sent.status == nil && sent.bytes == 2 << 20)
            let task = try await api.completedTask(id)
            #expect(task.errorCode == -1021, "\(task)")

            // A client that leaves before any byte of the body, while its PUT waits for the attempt to
            // start (`earliestBeginDate`): the attempt fails as soon as it starts.
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let later = try await api.createTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"],
                    "uploadSource": ["stream": true], "earliestBeginDate": formatter.string(from: Date().addingTimeInterval(1)),
                    "resume": true,
                ])
            let gone = try await Self.put(api, service, task: later.taskID, mebibytes: 1, stopAfter: 0)
            #expect(gone.status == nil && gone.bytes == 0)
            let ended = try await api.completedTask(later.taskID)
            #expect(ended.errorCode == -1021, "\(ended)")
        }
    }

    /// A client that shuts its sending side after the whole body (chunked, then sized) still gets its
    /// answer, and the origin the whole body: the hang-up watch tells such an end from a client leaving.
    @Test(.timeLimit(.minutes(2)))
    func aClientThatHalfClosesAfterItsBodyGetsItsAnswer() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            for sized in [false, true] {
                let id = try await Self.resumedStreamedTask(api, session: session, url: origin.url("/upload"))
                let sent = try await Self.put(api, service, task: id, mebibytes: 4, sized: sized, halfClose: true)
                #expect(sent.status == 204, "sized: \(sized)")
                let task = try await api.completedTask(id)
                #expect(task.errorCode == nil, "\(task)")
                let echo = try await api.echo(of: id)
                #expect(echo.bodySize == 4 << 20 && echo.bodySHA256 == sent.sha256)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func streamsAreRefusedWhereURLSessionRefusesThem() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let background = try await api.makeSession(["kind": "background", "identifier": "streams"])
            let upload: [String: Any] = ["kind": "upload", "request": ["url": origin.url("/upload")], "uploadSource": ["stream": true]]
            expectProblem(
                try await api.postTask(session: background, upload), status: 422, slug: "invalid-value", field: "uploadSource.stream")
            let session = try await api.makeSession()
            var notTrue = upload
            notTrue["uploadSource"] = ["stream": false]
            expectProblem(
                try await api.postTask(session: session, notTrue), status: 422, slug: "invalid-value", field: "uploadSource.stream")
            var both = upload
            both["uploadSource"] = ["stream": true, "data": ["text": "x"]]
            expectProblem(try await api.postTask(session: session, both), status: 422, slug: "invalid-value", field: "uploadSource")

            // A body is taken only while a streamed upload runs.
            let suspended = try await Self.streamedTask(api, session: session, url: origin.url("/upload"))
            let early = try await api.client.send(
                .put(api.base + "/v1/tasks/\(suspended)/body", body: [1, 2, 3], contentType: "application/octet-stream", token: api.token))
            expectProblem(early, status: 409, slug: "conflict")
            let unknown = try await api.client.send(
                .put(
                    api.base + "/v1/tasks/tsk_0000000000000000000000/body", body: [1], contentType: "application/octet-stream",
                    token: api.token))
            expectProblem(unknown, status: 404, slug: "not-found")
            _ = service
        }
    }
}
