import Foundation
import TestSupport
import Testing

/// `POST /v1/sessions/{id}/tasks/batch` on the real binary: members checked one by one as the single
/// create checks a body, the accepted ones created in one transaction, one item per member in order.
@Suite("Tasks: batch creation")
struct TaskBatchTests {
    static let unreachable = "http://127.0.0.1:9/never"

    static func dataTask(_ url: String = unreachable) -> [String: Any] { ["kind": "data", "request": ["url": url]] }

    @Test(.timeLimit(.minutes(2)))
    func validAndInvalidMembersAreAnsweredInOrderAndTheRefusedCreateNothing() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let members: [[String: Any]] = [
                Self.dataTask("http://127.0.0.1:9/a"),
                ["kind": "data", "request": ["url": "gopher://127.0.0.1/x"]],
                ["kind": "data", "request": ["url": "http://127.0.0.1:9/b", "bogus": 1]],
                ["kind": "data"],
                Self.dataTask("http://127.0.0.1:9/c"),
                ["kind": "download", "request": ["url": "http://127.0.0.1:9/d", "timeoutInterval": "soon"]],
                // PostgreSQL's text cannot hold a NUL: refused by name on either store (it failed the batch there).
                ["kind": "data", "request": ["url": "http://127.0.0.1:9/e"], "taskDescription": "a\u{0}b"],
            ]
            let response = try await api.postBatch(session: session, members)
            #expect(response.status == 201, "\(response.text)")
            #expect(response.header("Location") == nil)
            let items = try response.batchItems()
            try #require(items.count == 7, "\(response.text)")

            // Each problem names its field from the member's root, with the status its own create would get.
            Self.expectMemberProblem(items[1], status: 422, slug: "invalid-value", field: "request.url")
            Self.expectMemberProblem(items[2], status: 400, slug: "unknown-field", field: "request.bogus")
            Self.expectMemberProblem(items[3], status: 422, slug: "missing-field", field: "request")
            Self.expectMemberProblem(items[5], status: 400, slug: "type-mismatch", field: "request.timeoutInterval")
            Self.expectMemberProblem(items[6], status: 422, slug: "invalid-value", field: "taskDescription")

            let created = [items[0], items[4]]
            #expect(created.map(\.originalURL) == ["http://127.0.0.1:9/a", "http://127.0.0.1:9/c"])
            #expect(created.map { int($0["taskIdentifier"]) } == [1, 2], "refused members take no identifier")
            #expect(created.allSatisfy { $0.state == "suspended" })
            // The item is the task exactly as the single create (and a read) shows it.
            for task in created { expectSameJSON(try await api.task(task.taskID), task) }

            let listed = try await api.get("/v1/sessions/\(session)/tasks")
            #expect((try listed.json()["items"] as? [[String: Any]])?.map(\.taskID) == created.map(\.taskID))
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            #expect(events.map(\.eventType) == ["task.didCreateTask", "task.didCreateTask"])
            #expect(events.map(\.eventTaskID) == created.map(\.taskID), "events follow the members' order")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func whenEveryMemberIsRefusedTheAnswerIs200AndNothingExists() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let response = try await api.postBatch(session: session, [["kind": "data"], 7])
            #expect(response.status == 200, "\(response.text)")
            let items = try response.batchItems()
            try #require(items.count == 2)
            Self.expectMemberProblem(items[0], status: 422, slug: "missing-field", field: "request")
            Self.expectMemberProblem(items[1], status: 400, slug: "malformed-json", field: nil)
            #expect(try await api.allEvents("/v1/sessions/\(session)/events").isEmpty)
        }
    }

    /// A thousand members commit in one transaction: a reader polling the list meanwhile sees none of
    /// them or all of them, never a part.
    @Test(.timeLimit(.minutes(3)))
    func aThousandMembersAppearTogether() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let members = (0..<1000).map { Self.dataTask("http://127.0.0.1:9/\($0)") }
            var seen: Set<Int> = []
            async let response = api.postBatch(session: session, members)
            let deadline = ContinuousClock.now + .seconds(60)
            while !seen.contains(1000), ContinuousClock.now < deadline {
                let listed = try await api.get("/v1/sessions/\(session)/tasks?limit=1000")
                seen.insert((try listed.json()["items"] as? [Any])?.count ?? -1)
            }
            let answer = try await response
            #expect(answer.status == 201)
            let items = try answer.batchItems()
            #expect(items.map { int($0["taskIdentifier"]) } == (1...1000).map { $0 })
            #expect(items.map(\.originalURL) == (0..<1000).map { "http://127.0.0.1:9/\($0)" })
            #expect(seen.isSubset(of: [0, 1000]) && seen.contains(1000), "the list saw \(seen.sorted())")
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            #expect(events.map(\.eventTaskID) == items.map(\.taskID))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anIdempotencyKeyReplaysTheWholeBatch() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let members: [[String: Any]] = [Self.dataTask(), ["kind": "data"], Self.dataTask()]
            let key = [("Idempotency-Key", "batch-1")]
            let first = try await api.postBatch(session: session, members, headers: key)
            #expect(first.status == 201, "\(first.text)")
            #expect(first.header("Idempotent-Replayed") == nil)

            let again = try await api.postBatch(session: session, members, headers: key)
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.body == first.body)
            let listed = try await api.get("/v1/sessions/\(session)/tasks")
            #expect((try listed.json()["items"] as? [Any])?.count == 2, "nothing created twice: \(listed.text)")

            // The key covers the batch: another body under it is refused, as for a single create.
            let other = try await api.postBatch(session: session, [Self.dataTask()], headers: key)
            expectProblem(other, status: 409, slug: "idempotency-key-reused")
            #expect(try await api.allEvents("/v1/sessions/\(session)/events").count == 2)
        }
    }

    /// On the shared session (no delegate secret), each completion-handler member gets a secret made for
    /// it, answered once in its own item, as the single create answers it.
    @Test(.timeLimit(.minutes(2)))
    func completionHandlerMembersGetTheirOwnSecrets() async throws {
        try await withTaskService { api, _ in
            let handler: [String: Any] = [
                "kind": "data", "request": ["url": Self.unreachable], "completion": ["url": "http://127.0.0.1:9/done"],
            ]
            let response = try await api.postBatch(session: "shared", [handler, Self.dataTask(), handler])
            #expect(response.status == 201, "\(response.text)")
            let items = try response.batchItems()
            let secrets = items.map { $0["completionSecret"] as? String }
            #expect(secrets[0]?.hasPrefix("whsec_") == true && secrets[2]?.hasPrefix("whsec_") == true, "\(secrets)")
            #expect(secrets[0] != secrets[2] && secrets[1] == nil)
            #expect(try await api.task(items[0].taskID)["completionSecret"] == nil, "shown once")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theTasksQuotaRefusesOnlyTheMembersPastIt() async throws {
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_QUOTA_TASKS": "3"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            _ = try await api.createTask(session: session, Self.dataTask())
            let response = try await api.postBatch(session: session, (0..<4).map { _ in Self.dataTask() })
            #expect(response.status == 201, "\(response.text)")
            let items = try response.batchItems()
            try #require(items.count == 4)
            #expect(items[0...1].map { int($0["taskIdentifier"]) } == [2, 3])
            for item in items[2...] {
                Self.expectMemberProblem(item, status: 429, slug: "quota-exceeded", field: nil)
                let problem = item["problem"] as? [String: Any]
                #expect(problem?["quota"] as? String == "tasks", "\(item)")
                #expect(int(problem?["limit"]) == 3 && int(problem?["usage"]) == 3, "\(item)")
            }
            #expect(try await api.allEvents("/v1/sessions/\(session)/events").count == 3)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anInvalidatedOrUnknownSessionRefusesTheWholeBatch() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            #expect(try await api.post("/v1/sessions/\(session)/finishTasksAndInvalidate").status == 200)
            let refused = try await api.postBatch(session: session, [Self.dataTask()])
            expectProblem(refused, status: 409, slug: "conflict")
            let unknown = try await api.postBatch(session: "ses_0123456789ABCDEFGHIJKL", [Self.dataTask()])
            expectProblem(unknown, status: 404, slug: "not-found")
            let otherTenant = try await api.as(Tokens.tenantB).postBatch(session: try await api.makeSession(), [Self.dataTask()])
            expectProblem(otherTenant, status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aBodyWithoutOneToAThousandMembersIsRefusedWhole() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let path = "/v1/sessions/\(session)/tasks/batch"
            expectProblem(try await api.post(path, json: #"{"tasks": []}"#), status: 422, slug: "invalid-value", field: "tasks")
            let tooMany = try jsonText(["tasks": (0..<1001).map { _ in Self.dataTask() }])
            expectProblem(try await api.post(path, json: tooMany), status: 422, slug: "invalid-value", field: "tasks")
            expectProblem(try await api.post(path, json: "{}"), status: 422, slug: "missing-field", field: "tasks")
            expectProblem(try await api.post(path, json: #"{"tasks": {}}"#), status: 400, slug: "type-mismatch", field: "tasks")
            expectProblem(try await api.post(path, json: #"{"tasks": [], "x": 1}"#), status: 400, slug: "unknown-field", field: "x")
            expectProblem(try await api.post(path, json: #"[{"kind": "data"}]"#), status: 400, slug: "malformed-json")
            expectProblem(try await api.post(path, json: #"{"tasks": ["#), status: 400, slug: "malformed-json")
            let waiting = try await api.post(path + "?wait=5", json: try jsonText(["tasks": [Self.dataTask()]]))
            expectProblem(waiting, status: 422, slug: "invalid-value", field: "wait")
            #expect(try await api.allEvents("/v1/sessions/\(session)/events").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func resumedMembersRunToCompletion() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let sizes = [1_000, 20_000, 300_000]
            var members: [[String: Any]] = sizes.enumerated().map { seed, size in
                ["kind": "download", "request": ["url": origin.url("/bytes/\(size)?seed=\(seed)")], "resume": true]
            }
            members.append(["kind": "data", "request": ["url": origin.url("/bytes/10?seed=9")]])  // stays suspended
            let response = try await api.postBatch(session: session, members)
            #expect(response.status == 201, "\(response.text)")
            let items = try response.batchItems()
            try #require(items.count == 4)
            #expect(items[3].state == "suspended")
            for (seed, size) in sizes.enumerated() {
                let done = try await api.completedTask(items[seed].taskID)
                #expect(done.errorCode == nil && done.statusCode == 200, "\(done)")
                let file = try await api.taskFile(items[seed].taskID)
                #expect(sha256Hex(file.body) == fixtureSHA256(count: size, seed: UInt64(seed)))
            }
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            let creations = events.filter { $0.eventType == "task.didCreateTask" }
            #expect(creations.map(\.eventTaskID) == items.map(\.taskID), "created in the members' order")
            let completions = events.filter { $0.eventType == "task.didCompleteWithError" }.compactMap(\.eventTaskID)
            #expect(Set(completions) == Set(items[0...2].map(\.taskID)))
        }
    }

    /// A member's problem: `{"problem": {...}}` with the status, type and field (nil: none) expected.
    static func expectMemberProblem(
        _ item: [String: Any], status: Int, slug: String, field: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(item.keys.sorted() == ["problem"], "\(item)", sourceLocation: sourceLocation)
        let problem = item["problem"] as? [String: Any] ?? [:]
        #expect(problem["type"] as? String == "urn:urlsessiond:problem:\(slug)", "\(problem)", sourceLocation: sourceLocation)
        #expect(int(problem["status"]) == status, "\(problem)", sourceLocation: sourceLocation)
        #expect(problem["field"] as? String == field, "\(problem)", sourceLocation: sourceLocation)
        #expect((problem["title"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(problem["detail"] is String, sourceLocation: sourceLocation)
    }
}

extension API {
    /// `POST /v1/sessions/{id}/tasks/batch` with these members, the raw answer.
    func postBatch(session: String, _ members: [Any], headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        var request = TestHTTPRequest.post(
            base + "/v1/sessions/\(session)/tasks/batch", json: try jsonText(["tasks": members]), token: token, headers: headers)
        request.timeout = 60
        return try await client.send(request)
    }
}

extension TestHTTPResponse {
    /// The `items` of a batch answer.
    func batchItems(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try #require(try json()["items"] as? [[String: Any]], "\(text)", sourceLocation: sourceLocation)
    }
}
