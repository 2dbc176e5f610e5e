import Foundation
import TestSupport
import Testing

/// The delegate events a transfer produces, in URLSession's order, read back through
/// `GET /v1/tasks/{id}/events`: responses, coalesced progress with final totals, redirects, the
/// downloaded file, and the completion-handler form.
@Suite("Tasks: delegate events")
struct TaskDelegateEventsTests {
    /// A delegate that nobody listens to (port 9, discard): the events are read by polling here.
    static func session(_ api: API, _ configuration: [String: Any] = [:]) async throws -> String {
        let delegate: [String: Any] = ["url": "http://127.0.0.1:9/hooks", "progressInterval": 0.5]
        let body: [String: Any] = ["configuration": configuration, "delegate": delegate]
        let session = try await api.createSession(json: try jsonText(body))
        return try #require(session["id"] as? String)
    }

    @Test(.timeLimit(.minutes(1)))
    func aDataTaskReportsItsResponseDataMetricsAndCompletionInOrder() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api)
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/5000")]])
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            let types = events.compactMap(\.eventType)
            #expect(types.first == "task.didCreateTask")
            #expect(types.dropFirst().first == "dataTask.didReceiveResponse", "\(types)")
            #expect(Array(types.suffix(2)) == ["task.didFinishCollectingMetrics", "task.didCompleteWithError"], "\(types)")
            let data = events.filter { $0.eventType == "dataTask.didReceiveData" }
            #expect(!data.isEmpty, "\(types)")
            #expect(int(data.last?.eventData?["totalBytesReceived"]) == 5000)
            #expect(data.compactMap { int($0.eventData?["length"]) }.reduce(0, +) == 5000)
            let response = try #require(events[1].eventData?["response"] as? [String: Any])
            #expect(int(response["statusCode"]) == 200)
            #expect((events[1].eventData?["task"] as? [String: Any])?["id"] as? String == task.taskID)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func progressOfASlowDownloadIsCoalescedAndEndsWithTheFinalTotals() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api)
            let count = 600_000
            let started = ContinuousClock.now
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(count)?seed=4&rate=300000")]])
            let seconds = Double((ContinuousClock.now - started).components.seconds) + 1
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            let types = events.compactMap(\.eventType)
            let progress = events.filter { $0.eventType == "downloadTask.didWriteData" }
            // At most one per progressInterval (0.5 s), plus the first and the final one.
            #expect(progress.count >= 2 && Double(progress.count) <= seconds / 0.5 + 2, "\(progress.count) in \(seconds) s")
            #expect(int(progress.last?.eventData?["totalBytesWritten"]) == count)
            #expect(int(progress.last?.eventData?["totalBytesExpectedToWrite"]) == count)
            #expect(progress.compactMap { int($0.eventData?["bytesWritten"]) }.reduce(0, +) == count)
            // Downloads have no didReceiveResponse; the file comes before the metrics and the completion.
            #expect(!types.contains("dataTask.didReceiveResponse"))
            #expect(
                Array(types.suffix(3)) == [
                    "downloadTask.didFinishDownloadingTo", "task.didFinishCollectingMetrics", "task.didCompleteWithError",
                ], "\(types)")
            let finished = events[events.count - 3]
            #expect(finished.eventData?["location"] as? String == "/v1/tasks/\(task.taskID)/file")
        }
    }

    /// With no interval, the default `progressStep` (0.05) alone coalesces a download of known length: the
    /// first event as bytes move, then one per twentieth of the total, the last with the final totals, out
    /// of about 40 reports of the engine (one per 100 ms for 4 s): a 100 s download sends about 21, not 200.
    @Test(.timeLimit(.minutes(1)))
    func progressOfAKnownLengthIsCoalescedByStepsOfItsTotal() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let delegate: [String: Any] = ["url": "http://127.0.0.1:9/hooks", "progressInterval": 0]
            let created = try await api.createSession(json: try jsonText(["delegate": delegate]))
            let session = try #require(created["id"] as? String)
            #expect(number((created["delegate"] as? [String: Any])?["progressStep"]) == 0.05)
            let count = 2_000_000
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(count)?seed=5&rate=500000")]])
            let progress = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
                .filter { $0.eventType == "downloadTask.didWriteData" }
            let written = progress.compactMap { int($0.eventData?["bytesWritten"]) }
            #expect(progress.count >= 2 && progress.count <= 22, "\(progress.count) events")
            // Every event between the first and the last moved at least a twentieth of the total.
            #expect(written.dropFirst().dropLast().allSatisfy { $0 >= count / 20 }, "\(written)")
            #expect(written.reduce(0, +) == count)
            #expect(int(progress.last?.eventData?["totalBytesWritten"]) == count)

            // progressStep 0 turns the step off: the interval (0 here) alone decides, one per report.
            let patch = #"{"delegate": {"progressStep": 0}}"#
            let patched = try await api.client.send(.patch(api.base + "/v1/sessions/\(session)", json: patch, token: api.token))
            #expect(patched.status == 200, "\(patched.text)")
            let everyReport = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(count)?seed=5&rate=500000")]])
            let uncoalesced = try await api.allEvents("/v1/tasks/\(everyReport.taskID)/events")
                .filter { $0.eventType == "downloadTask.didWriteData" }
            #expect(uncoalesced.count > 22, "\(uncoalesced.count) events")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func redirectsAreReportedExceptInBackgroundSessions() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let url = origin.url("/redirect-chain/2")
            let regular = try await Self.session(api)
            let followed = try await api.runTask(session: regular, ["kind": "data", "request": ["url": url]])
            let redirects = try await api.allEvents("/v1/tasks/\(followed.taskID)/events")
                .filter { $0.eventType == "task.willPerformHTTPRedirection" }
            #expect(redirects.count == 2)
            let first = try #require(redirects.first?.eventData)
            #expect(int((first["response"] as? [String: Any])?["statusCode"]) == 302)
            #expect(((first["request"] as? [String: Any])?["url"] as? String)?.contains("/redirect-chain/1") == true, "\(first)")

            let background = try await Self.session(api, ["kind": "background", "identifier": "events.redirects"])
            let quiet = try await api.runTask(session: background, ["kind": "data", "request": ["url": url]])
            let types = try await api.allEvents("/v1/tasks/\(quiet.taskID)/events").compactMap(\.eventType)
            #expect(!types.contains("task.willPerformHTTPRedirection"), "\(types)")
            #expect(types.last == "task.didCompleteWithError")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anUploadReportsTheBytesItSent() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api)
            let body = Data((0..<20_000).map { UInt8($0 % 251) }).base64EncodedString()
            let task = try await api.runTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"],
                    "uploadSource": ["data": ["base64": body]],
                ])
            #expect(isNull(task["error"]), "\(task)")
            let sent = try await api.allEvents("/v1/tasks/\(task.taskID)/events").filter { $0.eventType == "task.didSendBodyData" }
            #expect(int(sent.last?.eventData?["totalBytesSent"]) == 20_000)
            #expect(int(sent.last?.eventData?["totalBytesExpectedToSend"]) == 20_000)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theCompletionHandlerFormSendsOneCompletionAndNoResponseOrDataEvents() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await Self.session(api)
            let task = try await api.runTask(
                session: session,
                [
                    "kind": "data", "request": ["url": origin.url("/bytes/300?seed=2")],
                    "completion": ["url": "http://127.0.0.1:9/done"],
                ])
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            let types = events.compactMap(\.eventType)
            #expect(!types.contains("dataTask.didReceiveResponse") && !types.contains("dataTask.didReceiveData"), "\(types)")
            #expect(types.filter { $0 == "task.completion" }.count == 1, "\(types)")
            #expect(types.last == "task.completion", "\(types)")
            let completion = try #require(events.last?.eventData)
            #expect(isNull(completion["error"]))
            #expect(int((completion["response"] as? [String: Any])?["statusCode"]) == 200)
            let data = try #require((completion["data"] as? String).flatMap { Data(base64Encoded: $0) })
            #expect(sha256Hex(data) == fixtureSHA256(count: 300, seed: 2))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCompletionHandlerWithNothingToSignWithGetsAGeneratedSecretOnce() async throws {
        try await withTaskService { api, _ in
            let body: [String: Any] = [
                "kind": "data", "request": ["url": "http://127.0.0.1:9/x"], "completion": ["url": "http://127.0.0.1:9/done"],
            ]
            // The shared session has no delegate, so no secret to sign the completion with: one is made,
            // returned in the 201 and never again.
            let created = try await api.postTask(session: "shared", body)
            #expect(created.status == 201, "\(created.text)")
            let secret = try created.json()["completionSecret"] as? String
            #expect(secret?.hasPrefix("whsec_") == true, "\(created.text)")
            let id = try #require(try created.json()["id"] as? String)
            #expect(try await api.task(id)["completionSecret"] == nil, "shown once")
            var signed = body
            signed["completion"] = [
                "url": "http://127.0.0.1:9/done", "secret": "whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
            ]
            #expect(try await api.postTask(session: "shared", signed).status == 201)
        }
    }
}
