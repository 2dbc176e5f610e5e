import Foundation
import TestSupport
import Testing

/// A background session's download survives the service: killed (-9) or stopped (SIGTERM) in the middle,
/// the next start continues it from its partial file with `Range` + `If-Range`.
@Suite("Background downloads across restarts")
struct BackgroundResumeTests {
    static let count = 2_000_000

    /// Starts a rate-limited download in a background session, stops the service once part of it is on
    /// disk (`stop`), starts it again on the same data directory and checks the task completes intact.
    static func downloadAcrossARestart(
        path: String = "/bytes/\(count)?seed=11&rate=700000", expectsContinuation: Bool = true,
        prepare: (FixtureOrigin) -> Void = { _ in }, between: (FixtureOrigin) -> Void = { _ in },
        stop: (ServiceProcess) async throws -> Void
    ) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        prepare(origin)
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-resume")
        defer { directory.remove() }
        let client = HTTPClient()
        let environment = TaskEnvironment.loopback
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: environment)
        let api = API(first, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "resume.test"])
        let created = try await api.createTask(
            session: session, ["kind": "download", "request": ["url": origin.url(path)], "resume": true])
        let id = created.taskID
        _ = try await api.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 300_000 }, within: 30)
        try await Task.sleep(for: .milliseconds(400))  // past a checkpoint of the partial file
        try await stop(first)
        between(origin)

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: environment)
        let again = API(second, client)
        let done = try await again.completedTask(id, within: 60)
        #expect(done.errorCode == nil, "\(done)")
        #expect(done.count("countOfBytesReceived") == count)
        let file = try await again.taskFile(id)
        #expect(sha256Hex(file.body) == fixtureSHA256(count: count, seed: 11))

        let ranges = origin.requests.compactMap { $0.header("Range") }
        let events = try await again.allEvents("/v1/sessions/\(session)/events")
        #expect(events.compactMap(\.sequence) == Array(1...events.count), "gap-free across the restart")
        let resumed = try #require(events.first { $0.eventType == "downloadTask.didResumeAtOffset" }?.eventData)
        if expectsContinuation {
            let offset = try #require(ranges.first.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) }, "\(ranges)")
            #expect(offset > 0)
            #expect(int(resumed["fileOffset"]) == offset)
            #expect(int(resumed["expectedTotalBytes"]) == count)
        } else {
            #expect(int(resumed["fileOffset"]) == 0, "a changed validator starts again: \(resumed)")
        }
        #expect(try await second.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func killedInTheMiddleItContinuesFromThePartialFile() async throws {
        try await Self.downloadAcrossARestart { service in await service.kill9() }
    }

    @Test(.timeLimit(.minutes(2)))
    func stoppedGracefullyItContinuesFromThePartialFile() async throws {
        try await Self.downloadAcrossARestart { service in
            let status = try await service.terminate()
            #expect(status == 0)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aChangedValidatorStartsAgainFromZero() async throws {
        // The same bytes under a new ETag while the service is down: If-Range fails, the origin sends 200.
        let body = FixtureOrigin.bytes(count: Self.count, seed: 11)
        try await Self.downloadAcrossARestart(
            path: "/resource/big?rate=700000", expectsContinuation: false,
            prepare: { $0.setResource("big", body: body, etag: "\"v1\"", lastModified: nil) },
            between: { $0.setResource("big", body: body, etag: "\"v2\"", lastModified: nil) }
        ) { service in await service.kill9() }
    }
}

/// Background sessions ride out network failures: the transfer is tried again until the origin answers.
@Suite("Background retries")
struct BackgroundRetryTests {
    @Test(.timeLimit(.minutes(1)))
    func anOriginThatRefusesConnectionsForAWhileIsTriedAgain() async throws {
        // A port held but not listening: connections are refused until the origin comes back on it.
        let refusing = try RefusingPort()
        let port = refusing.port
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "background", "identifier": "retry.test"])
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "http://127.0.0.1:\(port)/bytes/50000?seed=5"], "resume": true,
                ])
            try await Task.sleep(for: .seconds(2))
            #expect(try await api.task(created.taskID).state == "running", "a background task waits out refused connections")
            refusing.release()
            let back = try FixtureOrigin.start(port: port)
            defer { back.stop() }
            let done = try await api.completedTask(created.taskID, within: 40)
            #expect(done.errorCode == nil, "\(done)")
            #expect(sha256Hex(try await api.taskFile(created.taskID).body) == fixtureSHA256(count: 50000, seed: 5))

            // A default session does not retry: a refused connection is the task's error.
            let plain = try await api.makeSession()
            let refusingToo = try RefusingPort()
            defer { refusingToo.release() }
            let failed = try await api.runTask(plain, port: refusingToo.port)
            #expect(failed.errorCode == -1004, "\(failed)")
        }
    }
}

/// An upload from inline data in a background session: the bytes are kept in the store, so the upload
/// survives a kill -9 and starts again from the beginning of its body.
@Suite("Background uploads across restarts")
struct BackgroundUploadTests {
    @Test(.timeLimit(.minutes(2)))
    func anInlineUploadWaitingForItsOriginSurvivesAKillAndArrivesIntact() async throws {
        let refusing = try RefusingPort()  // connections are refused: the upload waits between retries
        defer { refusing.release() }
        let port = refusing.port
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-upload")
        defer { directory.remove() }
        let client = HTTPClient()
        let bytes = FixtureOrigin.bytes(count: 200_000, seed: 31)
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "upload.test"])
        let created = try await api.createTask(
            session: session,
            [
                "kind": "upload", "request": ["url": "http://127.0.0.1:\(port)/upload", "httpMethod": "PUT"],
                "uploadSource": ["data": ["base64": Data(bytes).base64EncodedString()]], "resume": true,
            ])
        try await Task.sleep(for: .seconds(1))
        #expect(try await api.task(created.taskID).state == "running")
        await first.kill9()

        refusing.release()
        let back = try FixtureOrigin.start(port: port)
        defer { back.stop() }
        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let done = try await again.completedTask(created.taskID, within: 60)
        #expect(done.errorCode == nil, "\(done)")
        #expect(done.count("countOfBytesSent") == bytes.count)
        let echo = try await again.echo(of: created.taskID)
        #expect(echo.method == "PUT")
        #expect(echo.bodySize == bytes.count)
        #expect(echo.bodySHA256 == sha256Hex(bytes))
        #expect(try await second.terminate() == 0)
    }
}

extension API {
    fileprivate func runTask(_ session: String, port: Int) async throws -> [String: Any] {
        try await runTask(session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:\(port)/bytes/10"]])
    }
}

/// `isDiscretionary`: such tasks run only while the engine has spare capacity, after the others.
@Suite("Discretionary tasks")
struct DiscretionaryTests {
    @Test(.timeLimit(.minutes(1)))
    func discretionaryTasksYieldToNormalOnes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_MAX_TRANSFERS": "2", "URLSESSIOND_TENANT_MAX_TRANSFERS": "2"]) {
            $1
        }
        try await withTaskService(environment: environment) { api, _ in
            let discretionary = try await api.makeSession(["kind": "background", "identifier": "later", "isDiscretionary": true])
            let normal = try await api.makeSession()
            // Two slow normal downloads fill the engine; the discretionary one, created in between, waits.
            let first = try await api.createTask(
                session: normal,
                [
                    "kind": "download", "request": ["url": origin.url("/bytes/300000?seed=1&rate=300000")], "resume": true,
                ])
            let waiting = try await api.createTask(
                session: discretionary,
                [
                    "kind": "data", "request": ["url": origin.url("/bytes/10?seed=9")], "resume": true,
                ])
            let second = try await api.createTask(
                session: normal,
                [
                    "kind": "download", "request": ["url": origin.url("/bytes/300000?seed=2&rate=300000")], "resume": true,
                ])
            let done = try await api.completedTask(waiting.taskID, within: 30)
            #expect(isNull(done["error"]), "\(done)")
            let late = try #require(origin.requests.first { $0.path == "/bytes/10" })
            for normalTask in [first.taskID, second.taskID] {
                let finished = try await api.completedTask(normalTask, within: 30)
                let completedAt = try #require(
                    (finished["completedAt"] as? String).flatMap { ISO8601DateFormatter.withMilliseconds.date(from: $0) })
                #expect(late.receivedAt >= completedAt.addingTimeInterval(-0.05), "started only once the engine was idle")
            }
        }
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withMilliseconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
