import Foundation
import TestSupport
import Testing

/// The task object and its metrics as a URLSession user reads them.
@Suite("Tasks: task JSON and metrics")
struct TasksJSONTests {
    /// `URLSessionTask`'s properties, on every task.
    static let commonKeys: Set<String> = [
        "id", "sessionId", "taskIdentifier", "kind", "state", "priority", "taskDescription", "earliestBeginDate",
        "originalRequest", "currentRequest", "response", "countOfBytesSent", "countOfBytesExpectedToSend",
        "countOfBytesReceived", "countOfBytesExpectedToReceive", "progress", "error", "createdAt", "startedAt", "completedAt",
    ]
    /// Data, download and upload tasks' (beyond URLSession): their bandwidth limit.
    static let transferKeys = commonKeys.union(["rateLimit"])
    /// A download task's: the subclass's own only for its kind.
    static let taskKeys = transferKeys.union(["location", "segments"])

    /// Each kind has `URLSessionTask`'s properties and its own subclass's, not another's: no `location` on a
    /// data task, no `closeCode` on a download, no `hostName` on a webSocket task.
    @Test(.timeLimit(.minutes(2)))
    func eachKindCarriesItsOwnPropertiesOnly() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = ["url": "http://127.0.0.1:9/"]
            let expected: [(body: [String: Any], keys: Set<String>)] = [
                (["kind": "data", "request": url], Self.transferKeys),
                (["kind": "upload", "request": url, "uploadSource": ["data": ["text": "x"]]], Self.transferKeys),
                (["kind": "download", "request": url], Self.taskKeys),
                (
                    ["kind": "webSocket", "request": ["url": "ws://127.0.0.1:9/"]],
                    Self.commonKeys.union(["protocols", "maximumMessageSize", "closeCode", "closeReason"])
                ),
                (["kind": "stream", "hostName": "127.0.0.1", "port": 9], Self.commonKeys.union(["hostName", "port"])),
            ]
            for (body, keys) in expected {
                let created = try await api.createTask(session: session, body)
                #expect(Set(created.keys) == keys, "\(body["kind"] ?? ""): \(created.keys.sorted())")
                let listed = try await api.get("/v1/tasks/\(created.taskID)").json()
                #expect(Set(listed.keys) == keys)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aCompletedDownloadDescribesItsResponseAndFile() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let count = 5000
            let url = origin.url("/bytes/\(count)?seed=2")
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": url], "taskDescription": "five thousand"])
            #expect(Set(created.keys) == Self.taskKeys)
            #expect(created.state == "suspended")
            #expect(int(created["taskIdentifier"]) == 1)
            #expect(created["sessionId"] as? String == session)
            #expect(isNull(created["response"]))
            #expect(isNull(created["startedAt"]))
            #expect(isNull(created["location"]))
            #expect(created.count("countOfBytesExpectedToReceive") == -1)

            #expect(try await api.taskAction(created.taskID, "resume").status == 200)
            let task = try await api.completedTask(created.taskID)
            #expect(Set(task.keys) == Self.taskKeys)
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.keys.contains("error") && isNull(task["error"]))
            #expect(task["kind"] as? String == "download")
            #expect(task["taskDescription"] as? String == "five thousand")
            #expect(task["location"] as? String == "/v1/tasks/\(task.taskID)/file")
            #expect(task.count("countOfBytesReceived") == count)
            #expect(task.count("countOfBytesExpectedToReceive") == count)
            #expect(task.count("countOfBytesSent") == 0)
            #expect(task["startedAt"] is String)
            #expect(task["completedAt"] is String)
            #expect(number((task["progress"] as? [String: Any])?["fractionCompleted"]) == 1)

            let response = try #require(task.responseObject)
            #expect(response["url"] as? String == url)
            #expect(int(response["statusCode"]) == 200)
            #expect(response["mimeType"] as? String == "application/octet-stream")
            #expect(int(response["expectedContentLength"]) == count)
            #expect(response["suggestedFilename"] as? String == "\(count)")
            #expect(isNull(response["textEncodingName"]))
            #expect(task.responseHeader("ETag") == "\"bytes-\(count)-2\"")
            #expect(task.responseHeader("Content-Length") == "\(count)")

            let file = try await api.taskFile(task.taskID)
            #expect(file.header("Content-Disposition")?.contains("filename=\"\(count)\"") == true)

            // The next task of the session is number 2.
            let second = try await api.createTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(int(second["taskIdentifier"]) == 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aChunkedBodyHasAnUnknownExpectedLength() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/70000?seed=3&chunked=1")]])
            #expect(task.errorCode == nil, "\(task)")
            #expect(int(task.responseObject?["expectedContentLength"]) == -1)
            #expect(task.count("countOfBytesExpectedToReceive") == -1)
            #expect(task.count("countOfBytesReceived") == 70000)
            #expect(sha256Hex(try await api.taskFile(task.taskID).body) == fixtureSHA256(count: 70000, seed: 3))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aContentDispositionNamesTheSuggestedFilename() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // The fixture's redirect sets no Content-Disposition; the name comes from the final URL's path.
            let task = try await api.runTask(
                session: session,
                [
                    "kind": "download",
                    "request": ["url": TasksRedirectTests.redirect(origin, code: 302, to: "/bytes/64")],
                ])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.responseObject?["suggestedFilename"] as? String == "64")
            #expect(task.responseObject?["url"] as? String == origin.url("/bytes/64"))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func metricsHaveOneTransactionPerRequestRedirectsIncluded() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = origin.url("/redirect-chain/3")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.errorCode == nil, "\(task)")
            let metrics = try await api.taskMetrics(task.taskID)
            #expect(Set(metrics.keys) == ["taskInterval", "redirectCount", "transactionMetrics"])
            #expect(int(metrics["redirectCount"]) == 3)
            let interval = try #require(metrics["taskInterval"] as? [String: Any])
            #expect(interval["start"] is String)
            #expect((number(interval["duration"]) ?? -1) >= 0)

            let transactions = try #require(metrics["transactionMetrics"] as? [[String: Any]])
            try #require(transactions.count == 4, "\(transactions.count) transactions")
            let expectedURLs = [
                url, origin.url("/redirect-chain/2?hops=1"), origin.url("/redirect-chain/1?hops=2"),
                origin.url("/redirect-chain/0?hops=3"),
            ]
            for (index, transaction) in transactions.enumerated() {
                let request = transaction["request"] as? [String: Any]
                #expect(request?["url"] as? String == expectedURLs[index], "transaction \(index)")
                #expect(request?["httpMethod"] as? String == "GET")
                let response = transaction["response"] as? [String: Any]
                #expect(int(response?["statusCode"]) == (index < 3 ? 302 : 200), "transaction \(index): \(transaction)")
                #expect(transaction["resourceFetchType"] as? String == "networkLoad")
                #expect(transaction["networkProtocolName"] as? String == "http/1.1")
                #expect(transaction["fetchStartDate"] is String)
                #expect(transaction["responseEndDate"] is String)
                #expect(transaction["remoteAddress"] as? String == "127.0.0.1")
                #expect(int(transaction["remotePort"]) == origin.port)
                #expect(isNull(transaction["secureConnectionStartDate"]), "plain http has no TLS")
                #expect((int(transaction["countOfResponseHeaderBytesReceived"]) ?? 0) > 0)
            }
            // One keep-alive connection carries the whole chain.
            #expect(transactions.dropFirst().allSatisfy { bool($0["isReusedConnection"]) == true })
            #expect(bool(transactions[0]["isReusedConnection"]) == false)
            #expect(Set(origin.requests.map(\.connectionID)).count == 1)
            let last = transactions[3]
            #expect(
                int(last["countOfResponseBodyBytesReceived"]) == Int(task.responseHeader("Content-Length") ?? ""),
                "\(task.responseObject ?? [:])")

            // Each transaction's request is the one sent: a 303 turns the POST into a GET without a body.
            let post = try await api.runTask(
                session: session,
                [
                    "kind": "data",
                    "request": [
                        "url": TasksRedirectTests.redirect(origin, code: 303, to: "/echo"), "httpMethod": "POST",
                        "httpBody": ["text": "a=1"],
                    ],
                ])
            #expect(post.errorCode == nil, "\(post)")
            let postTransactions = try #require(
                try await api.taskMetrics(post.taskID)["transactionMetrics"] as? [[String: Any]])
            try #require(postTransactions.count == 2)
            let sent = postTransactions.map { $0["request"] as? [String: Any] ?? [:] }
            #expect(sent[0]["httpMethod"] as? String == "POST")
            #expect(sent[0]["httpBody"] != nil)
            #expect(sent[1]["httpMethod"] as? String == "GET")
            #expect(sent[1]["url"] as? String == origin.url("/echo"))
            #expect(sent[1]["httpBody"] == nil, "the GET after a 303 has no body: \(sent[1])")
            #expect(int(postTransactions[0]["countOfRequestBodyBytesSent"]) == 3)
            #expect(int(postTransactions[1]["countOfRequestBodyBytesSent"]) == 0)

            // Metrics exist once the task completes: a suspended task has none yet.
            let suspended = try await api.createTask(session: session, ["kind": "data", "request": ["url": url]])
            let early = try await api.get("/v1/tasks/\(suspended.taskID)/metrics")
            #expect(early.status == 409, "\(early.status): \(early.text)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func bodiesAreConflictsUntilTheTaskCompletes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let data = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1")]])
            expectProblem(try await api.taskData(data.taskID), status: 409, slug: "conflict")
            let download = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/1")]])
            expectProblem(try await api.taskFile(download.taskID), status: 409, slug: "conflict")
            let unknown = "tsk_" + String(repeating: "A", count: 22)
            expectProblem(try await api.getTask(unknown), status: 404, slug: "not-found")
            expectProblem(try await api.taskData(unknown), status: 404, slug: "not-found")
            expectProblem(try await api.taskAction(unknown, "resume"), status: 404, slug: "not-found")
            // Another tenant sees none of it.
            let other = api.as(Tokens.tenantB)
            expectProblem(try await other.getTask(data.taskID), status: 404, slug: "not-found")
            expectProblem(try await other.taskAction(data.taskID, "resume"), status: 404, slug: "not-found")
            #expect(try await api.task(data.taskID).state == "suspended")
        }
    }
}
