import Foundation
import TestSupport
import Testing

/// Per-tenant quotas on the real binary: each refusal is a `quota-exceeded` problem naming the quota, its
/// limit and the usage, and creates nothing; usage follows creations and deletions; tenants are independent.
@Suite("Quotas")
struct QuotaTests {
    static func environment(_ quotas: [String: String]) -> [String: String] {
        TaskEnvironment.loopback.merging(quotas) { $1 }
    }

    @Test(.timeLimit(.minutes(2)))
    func sessionsQuotaRefusesWith429AndCountsOnlyLiveSessions() async throws {
        try await withTaskService(environment: Self.environment(["URLSESSIOND_QUOTA_SESSIONS": "2"])) { api, _ in
            let first = try await api.makeSession()
            _ = try await api.makeSession()
            _ = try await api.get("/v1/sessions/shared")  // the shared session is not counted
            let refused = try await api.post("/v1/sessions", json: #"{"configuration": {}}"#)
            expectQuota(refused, status: 429, quota: "sessions", limit: 2, usage: 2)
            #expect(try await api.sessionIDs().count == 3, "two sessions and the shared one, nothing more")
            #expect(try await Self.usage(api)["sessions"]?["usage"].flatMap(int) == 2)

            // Another tenant has its own quota.
            let tenantB = api.as(Tokens.tenantB)
            _ = try await tenantB.makeSession()
            _ = try await tenantB.makeSession()

            // An invalidated session no longer counts.
            let invalidated = try await api.post("/v1/sessions/\(first)/finishTasksAndInvalidate")
            #expect(invalidated.status == 200, "\(invalidated.text)")
            #expect(try await Self.usage(api)["sessions"]?["usage"].flatMap(int) == 1)
            _ = try await api.makeSession()
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func tasksQuotaCountsTasksNotCompletedAndRefusedOnesLeaveNoTrace() async throws {
        try await withTaskService(environment: Self.environment(["URLSESSIOND_QUOTA_TASKS": "2"])) { api, _ in
            let session = try await api.makeSession()
            let request: [String: Any] = ["kind": "data", "request": ["url": "http://127.0.0.1:9/never"]]
            let first = try await api.createTask(session: session, request)
            _ = try await api.createTask(session: session, request)
            let refused = try await api.postTask(session: session, request)
            expectQuota(refused, status: 429, quota: "tasks", limit: 2, usage: 2)
            let listed = try await api.get("/v1/sessions/\(session)/tasks")
            #expect((try listed.json()["items"] as? [Any])?.count == 2, "\(listed.text)")
            let events = try await api.get("/v1/sessions/\(session)/events")
            #expect((try events.json()["items"] as? [Any])?.count == 2, "one didCreateTask per task: \(events.text)")

            // Tenant B is not held back by A's tasks.
            let tenantB = api.as(Tokens.tenantB)
            _ = try await tenantB.createTask(session: try await tenantB.makeSession(), request)

            // A completed task no longer counts; the refused one took no taskIdentifier.
            let cancelled = try await api.taskAction(first.taskID, "cancel")
            #expect(cancelled.status == 200, "\(cancelled.text)")
            _ = try await api.completedTask(first.taskID)
            #expect(try await Self.usage(api)["tasks"]?["usage"].flatMap(int) == 1)
            let third = try await api.createTask(session: session, request)
            #expect(int(third["taskIdentifier"]) == 3, "\(third)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func blobQuotasRefuseBytesWith507AndCountWith429LeavingNoFile() async throws {
        let quotas = ["URLSESSIOND_QUOTA_BLOB_BYTES": "1000", "URLSESSIOND_QUOTA_BLOB_COUNT": "2"]
        try await withTaskService(environment: Self.environment(quotas)) { api, service in
            let blobs = service.dataDirectory.appendingPathComponent("blobs")
            let first = try await api.makeBlob(Array(repeating: 1, count: 600))
            let tooLarge = try await api.post("/v1/blobs", bytes: Array(repeating: 2, count: 600), contentType: "application/octet-stream")
            expectQuota(tooLarge, status: 507, quota: "blobBytes", limit: 1000, usage: 600)
            #expect(try Self.files(in: blobs) == [first], "the refused upload left no file")

            _ = try await api.makeBlob(Array(repeating: 3, count: 300))
            let tooMany = try await api.post("/v1/blobs", bytes: [4], contentType: "application/octet-stream")
            expectQuota(tooMany, status: 429, quota: "blobCount", limit: 2, usage: 2)
            #expect(try Self.files(in: blobs).count == 2)

            let usage = try await Self.usage(api)
            #expect(usage["blobBytes"]?["usage"].flatMap(int) == 900, "\(usage)")
            #expect(usage["blobCount"]?["usage"].flatMap(int) == 2, "\(usage)")
            _ = try await api.as(Tokens.tenantB).makeBlob(Array(repeating: 5, count: 900))

            // A chunked upload (no length announced) is stopped as it passes the quota, its spool removed.
            let chunk = String(repeating: "x", count: 500)
            let chunked =
                "POST /v1/blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Tokens.tenantB)\r\n"
                + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(repeating: "1f4\r\n\(chunk)\r\n", count: 4) + "0\r\n\r\n"
            let answer = String(decoding: try await api.client.sendRaw(port: service.port, bytes: Array(chunked.utf8)), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 507"), "\(answer)")
            #expect(answer.contains(#""quota":"blobBytes""#), "\(answer)")
            #expect(try Self.files(in: blobs).count == 3, "A's two blobs and B's one, no spool left")

            // Deleting gives the room back.
            #expect(try await api.delete("/v1/blobs/\(first)").status == 204)
            #expect(try await Self.usage(api)["blobBytes"]?["usage"].flatMap(int) == 300)
            _ = try await api.makeBlob(Array(repeating: 6, count: 700))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func storedBytesAreCheckedWhenATaskIsCreatedOrResumed() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.environment(["URLSESSIOND_QUOTA_STORED_BYTES": "100000"])) { api, _ in
            // No URL cache: a cached copy of the download's body counts too, once the cache is persisted
            // (on its own schedule), and the figures below would depend on when.
            let session = try await api.makeSession(["urlCache": NSNull()])
            let waiting = try await api.createTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            // Checked at creation: a download already running may go past the limit.
            let download = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/150000")]])
            #expect(download.errorCode == nil, "\(download)")
            #expect(try await Self.usage(api)["storedBytes"]?["usage"].flatMap(int) == 150_000)

            let refused = try await api.postTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1")]])
            expectQuota(refused, status: 507, quota: "storedBytes", limit: 100_000, usage: 150_000)
            let resumed = try await api.taskAction(waiting.taskID, "resume")
            expectQuota(resumed, status: 507, quota: "storedBytes", limit: 100_000, usage: 150_000)
            #expect(try await api.task(waiting.taskID).state == "suspended")

            // Tenant B stores on; deleting A's file gives A the room back.
            _ = try await api.as(Tokens.tenantB).runTask(
                session: "shared", ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            #expect(try await api.delete("/v1/tasks/\(download.taskID)/file").status == 204)
            #expect(try await Self.usage(api)["storedBytes"]?["usage"].flatMap(int) == 0)
            let data = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/20")]])
            #expect(data.errorCode == nil, "\(data)")
            #expect(try await Self.usage(api)["storedBytes"]?["usage"].flatMap(int) == 20, "a kept data body counts")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func streamsQuotaBoundsEventStreamsAndLongPollsTogether() async throws {
        try await withTaskService(environment: Self.environment(["URLSESSIOND_QUOTA_STREAMS": "1"])) { api, _ in
            let session = try await api.makeSession()
            let recorder = EventStreamRecorder()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await recorder.run(api.client, api.eventStreamRequest(session: session)) }
                try await eventually(timeout: 10) {
                    try await Self.usage(api)["streams"]?["usage"].flatMap(int) == 1
                }
                let poll = try await api.get("/v1/sessions/\(session)/events?wait=1")
                expectQuota(poll, status: 429, quota: "streams", limit: 1, usage: 1)
                let waited = try await api.postTask(
                    session: session, ["kind": "data", "request": ["url": "http://127.0.0.1:9/"], "resume": true], wait: 1)
                expectQuota(waited, status: 429, quota: "streams", limit: 1, usage: 1)
                let tasks = try await api.get("/v1/sessions/\(session)/tasks")
                #expect((try tasks.json()["items"] as? [Any])?.isEmpty == true, "the refused wait created no task: \(tasks.text)")

                // Tenant B long-polls while A's stream is open.
                let tenantB = api.as(Tokens.tenantB)
                let other = try await tenantB.get("/v1/sessions/\(try await tenantB.makeSession())/events?wait=0.2")
                #expect(other.status == 200, "\(other.text)")
                group.cancelAll()
            }
            try await eventually(timeout: 10) {
                try await api.get("/v1/sessions/\(session)/events?wait=0.1").status == 200
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func usageIsTheTenantsOwnAndMetricsShowItByTenant() async throws {
        try await withTaskService(environment: Self.environment(["URLSESSIOND_QUOTA_SESSIONS": "1"])) { api, _ in
            _ = try await api.makeSession()
            _ = try await api.post("/v1/sessions", json: "{}")  // refused: counted in the metrics
            let report = try await api.get("/v1/usage")
            #expect(report.status == 200, "\(report.text)")
            let body = try report.json()
            #expect(body["tenant"] as? String == "tenantA")
            let quotas = try #require(body["quotas"] as? [String: [String: Any]])
            #expect(Set(quotas.keys) == ["sessions", "tasks", "blobBytes", "blobCount", "storedBytes", "streams"])
            #expect(int(quotas["sessions"]?["limit"]) == 1 && int(quotas["sessions"]?["usage"]) == 1, "\(quotas)")
            #expect(int(quotas["tasks"]?["limit"]) == 10_000, "the default: \(quotas)")

            let forbidden = try await api.get("/v1/usage?tenant=tenantB")
            expectProblem(forbidden, status: 403, slug: "forbidden")
            let asAdmin = try await api.as(Tokens.admin).get("/v1/usage?tenant=tenantB")
            #expect(asAdmin.status == 200, "\(asAdmin.text)")
            #expect(try asAdmin.json()["tenant"] as? String == "tenantB")
            #expect(try Self.quotas(asAdmin)["sessions"]?["usage"].flatMap(int) == 0)

            let metrics = try await api.get("/metrics").text
            #expect(metrics.contains(#"urlsessiond_tenant_usage{tenant="tenantA",quota="sessions"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"urlsessiond_tenant_quota{tenant="tenantA",quota="sessions"} 1"#))
            #expect(metrics.contains(#"urlsessiond_quota_exceeded_total{tenant="tenantA",quota="sessions"} 1"#))
        }
    }

    // MARK: Helpers

    static func usage(_ api: API) async throws -> [String: [String: Any]] {
        let response = try await api.get("/v1/usage")
        try #require(response.status == 200, "\(response.text)")
        return try quotas(response)
    }

    static func quotas(_ response: TestHTTPResponse) throws -> [String: [String: Any]] {
        try #require(try response.json()["quotas"] as? [String: [String: Any]])
    }

    static func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
    }
}

/// Expects a `quota-exceeded` problem naming `quota`, its limit and the usage.
func expectQuota(
    _ response: TestHTTPResponse, status: Int, quota: String, limit: Int, usage: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectProblem(response, status: status, slug: "quota-exceeded", sourceLocation: sourceLocation)
    let problem = (try? response.json()) ?? [:]
    #expect(problem["quota"] as? String == quota, "\(problem)", sourceLocation: sourceLocation)
    #expect(int(problem["limit"]) == limit, "\(problem)", sourceLocation: sourceLocation)
    #expect(int(problem["usage"]) == usage, "\(problem)", sourceLocation: sourceLocation)
}
