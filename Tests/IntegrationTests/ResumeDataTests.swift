import Foundation
import TestSupport
import Testing

/// `cancel(byProducingResumeData:)`, `downloadTask(withResumeData:)`, and the resume data a download of a
/// default session carries when the service restarted under it.
@Suite("Resume data")
struct ResumeDataTests {
    static let count = 1_500_000
    /// Paced so that a cancel or a kill lands well inside the transfer even on a loaded machine.
    static let path = "/bytes/\(count)?seed=21&rate=250000"

    /// Waits until part of the download is in, then `cancel` with `byProducingResumeData`.
    static func cancelProducingResumeData(_ api: API, session: String, origin: FixtureOrigin) async throws -> (String, String) {
        let created = try await api.createTask(
            session: session, ["kind": "download", "request": ["url": origin.url(path)], "resume": true])
        _ = try await api.task(created.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 200_000 }, within: 30)
        let cancelled = try await api.post("/v1/tasks/\(created.taskID)/cancel", json: #"{"byProducingResumeData": true}"#)
        #expect(cancelled.status == 200, "\(cancelled.text)")
        let answer = try cancelled.json()
        #expect(((answer["task"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int == -999, "\(answer)")
        return (created.taskID, try #require(answer["resumeData"] as? String, "\(answer)"))
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelledWithResumeDataANewTaskFinishesTheDownload() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (_, resumeData) = try await Self.cancelProducingResumeData(api, session: session, origin: origin)
            origin.clearRequests()
            let resumed = try await api.runTask(session: session, ["kind": "download", "resumeData": resumeData], within: 40)
            #expect(resumed.errorCode == nil, "\(resumed)")
            #expect(resumed.count("countOfBytesReceived") == Self.count)
            #expect(sha256Hex(try await api.taskFile(resumed.taskID).body) == fixtureSHA256(count: Self.count, seed: 21))
            let range = try #require(origin.requests.first?.header("Range"), "\(origin.requests.map(\.path))")
            let offset = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
            #expect(offset > 200_000)
            let events = try await api.allEvents("/v1/tasks/\(resumed.taskID)/events")
            let event = try #require(events.first { $0.eventType == "downloadTask.didResumeAtOffset" }?.eventData)
            #expect(int(event["fileOffset"]) == offset)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func tamperedOrForeignResumeDataIsRefused() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let (_, resumeData) = try await Self.cancelProducingResumeData(api, session: session, origin: origin)
            var tampered = Array(resumeData)
            tampered[5] = tampered[5] == "A" ? "B" : "A"
            for token in [String(tampered), "garbage", resumeData + "x"] {
                let refused = try await api.postTask(session: session, ["kind": "download", "resumeData": token])
                expectProblem(refused, status: 422, slug: "invalid-value", field: "resumeData")
            }
            // Another tenant cannot use it either.
            let other = api.as(Tokens.tenantB)
            let otherSession = try await other.makeSession()
            let foreign = try await other.postTask(session: otherSession, ["kind": "download", "resumeData": resumeData])
            expectProblem(foreign, status: 422, slug: "invalid-value", field: "resumeData")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aDefaultSessionDownloadInterruptedByARestartCarriesResumeData() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-resumedata")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession()
        let created = try await api.createTask(
            session: session, ["kind": "download", "request": ["url": origin.url(Self.path)], "resume": true])
        _ = try await api.task(created.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 200_000 }, within: 30)
        try await Task.sleep(for: .milliseconds(400))  // past a checkpoint
        await first.kill9()

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let lost = try await again.completedTask(created.taskID)
        #expect(lost.errorCode == -1005, "\(lost)")
        let resumeData = try #require(lost.errorObject?["userInfo"] as? [String: Any])["NSURLSessionDownloadTaskResumeData"] as? String
        let token = try #require(resumeData, "\(lost)")
        let finished = try await again.runTask(session: session, ["kind": "download", "resumeData": token], within: 40)
        #expect(finished.errorCode == nil, "\(finished)")
        #expect(sha256Hex(try await again.taskFile(finished.taskID).body) == fixtureSHA256(count: Self.count, seed: 21))
        #expect(origin.requests.contains { ($0.header("Range") ?? "bytes=0-") != "bytes=0-" })
        #expect(try await second.terminate() == 0)
    }
}
