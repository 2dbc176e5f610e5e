import Foundation
import TestSupport
import Testing

/// Request bodies (blob and inline uploads), response bodies (`/data`, `/file` with ranges), and the
/// header fields the origin receives.
@Suite("Tasks: bodies and headers")
struct TasksBodiesTests {
    @Test(.timeLimit(.minutes(2)))
    func anUploadFromABlobReachesTheOriginIntact() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let bytes = FixtureOrigin.bytes(count: 2_500_000, seed: 11)
            let blob = try await api.makeBlob(bytes)
            let body: [String: Any] = [
                "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"],
                "uploadSource": ["blob": blob],
            ]
            let created = try await api.createTask(session: session, body)
            #expect(created.state == "suspended")
            #expect(created.count("countOfBytesExpectedToSend") == bytes.count, "known before the first byte")
            #expect(try await api.taskAction(created.taskID, "resume").status == 200)
            let task = try await api.completedTask(created.taskID)
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.statusCode == 200)
            #expect(task.count("countOfBytesSent") == bytes.count)
            #expect(task.count("countOfBytesExpectedToSend") == bytes.count)
            #expect(number((task["progress"] as? [String: Any])?["fractionCompleted"]) == 1)

            let echo = try await api.echo(of: task.taskID)
            #expect(echo.method == "PUT")
            #expect(echo.bodySize == bytes.count)
            #expect(echo.bodySHA256 == sha256Hex(bytes))
            let recorded = try #require(origin.requests(path: "/upload").first)
            #expect(recorded.bodyComplete)
            #expect(recorded.header("Content-Length") == "\(bytes.count)")
            #expect(recorded.header("Expect") == nil)

            let metrics = try await api.taskMetrics(task.taskID)
            let transaction = try #require((metrics["transactionMetrics"] as? [[String: Any]])?.last)
            #expect(int(transaction["countOfRequestBodyBytesSent"]) == bytes.count)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anUploadFromInlineDataReachesTheOriginIntact() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let bytes = FixtureOrigin.bytes(count: 300_000, seed: 12)
            let task = try await api.runTask(
                session: session,
                [
                    "kind": "upload",
                    "request": [
                        "url": origin.url("/upload"),
                        "allHTTPHeaderFields": ["Content-Type": "application/octet-stream"],
                    ],
                    "uploadSource": ["data": ["base64": Data(bytes).base64EncodedString()]],
                ])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.count("countOfBytesSent") == bytes.count)
            #expect(task.count("countOfBytesExpectedToSend") == bytes.count)
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.method == "POST", "an upload without httpMethod is a POST")
            #expect(echo.bodySize == bytes.count)
            #expect(echo.bodySHA256 == sha256Hex(bytes))
            #expect(echo.headers["content-type"] == "application/octet-stream")

            // A text body, and a JSON body that implies its Content-Type.
            let text = try await api.runTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PATCH"],
                    "uploadSource": ["data": ["text": "héllo wörld"]],
                ])
            let textEcho = try await api.echo(of: text.taskID)
            #expect(textEcho.method == "PATCH")
            #expect(textEcho.bodySHA256 == sha256Hex(Array("héllo wörld".utf8)))
            // A body without a type of its own goes as URLSession sends it.
            #expect(textEcho.headers["content-type"] == "application/x-www-form-urlencoded")
            #expect(text.count("countOfBytesSent") == "héllo wörld".utf8.count)

            let json = try await api.runTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/upload")],
                    "uploadSource": ["data": ["json": ["a": 1]]],
                ])
            let jsonEcho = try await api.echo(of: json.taskID)
            #expect(jsonEcho.headers["content-type"] == "application/json")
            #expect(jsonEcho.bodySize > 0)
        }
    }

    /// URLSession fails a GET that carries a body with -1103 `dataLengthExceedsMaximum` before sending
    /// anything (swift-corelibs-foundation's tests expect the same); the origin never hears of it.
    @Test(.timeLimit(.minutes(2)))
    func aGetWithABodyFailsBeforeSendingAnything() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session,
                ["kind": "data", "request": ["url": origin.url("/echo"), "httpMethod": "GET", "httpBody": ["text": "a body"]]])
            #expect(task.errorCode == -1103, "\(task)")
            #expect(task.errorObject?["name"] as? String == "dataLengthExceedsMaximum")
            #expect(isNull(task["response"]))
            #expect(origin.requests.isEmpty, "the origin got \(origin.requests.count) request(s)")
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: [307, 308])
    func aBlobBodyIsSentAgainAfterARedirectThatKeepsIt(code: Int) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let bytes = FixtureOrigin.bytes(count: 500_000, seed: 13)
            let blob = try await api.makeBlob(bytes)
            let task = try await api.runTask(
                session: session,
                [
                    "kind": "upload",
                    "request": ["url": origin.url("/redirect/\(code)?to=%2Fupload"), "httpMethod": "PUT"],
                    "uploadSource": ["blob": blob],
                ])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.responseObject?["url"] as? String == origin.url("/upload"))
            #expect(task.count("countOfBytesSent") == bytes.count)
            #expect(task.count("countOfBytesExpectedToSend") == bytes.count)
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.method == "PUT")
            #expect(echo.bodySize == bytes.count)
            #expect(echo.bodySHA256 == sha256Hex(bytes))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aDataBodyComesBackWithTheOriginsContentType() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let json = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/echo")]])
            let body = try await api.taskData(json.taskID)
            #expect(body.status == 200)
            #expect(body.header("Content-Type") == "application/json")
            #expect(json.responseObject?["mimeType"] as? String == "application/json")
            #expect(isNull(json.responseObject?["textEncodingName"]))
            #expect(try Echo(body).method == "GET")

            let text = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/status/201")]])
            let textBody = try await api.taskData(text.taskID)
            #expect(textBody.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(textBody.text == "201")
            #expect(text.responseObject?["mimeType"] as? String == "text/plain")
            #expect(text.responseObject?["textEncodingName"] as? String == "utf-8")

            // An empty body is an empty 200.
            let empty = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/0")]])
            let emptyBody = try await api.taskData(empty.taskID)
            #expect(emptyBody.status == 200)
            #expect(emptyBody.body.isEmpty)

            // A data task has no file.
            expectProblem(try await api.taskFile(json.taskID), status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aDataBodyLargerThanOneMebibyteComesBackIntact() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            for count in [1 << 20, (1 << 20) + 1, 3_000_000] {
                let task = try await api.runTask(
                    session: session, ["kind": "data", "request": ["url": origin.url("/bytes/\(count)?seed=5")]])
                #expect(task.errorCode == nil, "\(task)")
                #expect(task.count("countOfBytesReceived") == count)
                #expect(task.count("countOfBytesExpectedToReceive") == count)
                let body = try await api.taskData(task.taskID)
                #expect(body.status == 200)
                #expect(body.header("Content-Type") == "application/octet-stream")
                #expect(body.body.count == count)
                #expect(sha256Hex(body.body) == fixtureSHA256(count: count, seed: 5), "\(count) bytes")
            }
        }
    }

    /// 100,000 bytes are a file in `downloads`; 10,000 stay in the store (no file is created for a small
    /// download) and are served the same way.
    @Test(.timeLimit(.minutes(2)), arguments: [100_000, 10_000])
    func aDownloadedFileIsServedWholeAndByRangeUntilDeleted(count: Int) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let bytes = FixtureOrigin.bytes(count: count, seed: 7)
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(count)?seed=7")]])
            #expect(task.errorCode == nil, "\(task)")
            let id = task.taskID
            #expect(task["location"] as? String == "/v1/tasks/\(id)/file")
            let downloads = service.dataDirectory.appendingPathComponent("downloads").path
            let files = (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []
            #expect(files.contains { $0.hasPrefix(id) } == (count > 64 * 1024), "files: \(files)")

            let whole = try await api.taskFile(id)
            #expect(whole.status == 200)
            #expect(whole.body == bytes)
            #expect(whole.header("Content-Type") == "application/octet-stream")
            #expect(whole.header("Accept-Ranges") == "bytes")

            let middle = try await api.taskFile(id, headers: [("Range", "bytes=1000-1999")])
            #expect(middle.status == 206)
            #expect(middle.header("Content-Range") == "bytes 1000-1999/\(count)")
            #expect(middle.body == Array(bytes[1000..<2000]))

            let suffix = try await api.taskFile(id, headers: [("Range", "bytes=-100")])
            #expect(suffix.status == 206)
            #expect(suffix.body == Array(bytes[(count - 100)...]))

            let open = try await api.taskFile(id, headers: [("Range", "bytes=\(count - 10)-")])
            #expect(open.status == 206)
            #expect(open.header("Content-Range") == "bytes \(count - 10)-\(count - 1)/\(count)")
            #expect(open.body == Array(bytes[(count - 10)...]))

            let beyond = try await api.taskFile(id, headers: [("Range", "bytes=200000-")])
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */\(count)")
            #expect(beyond.headers(named: "Content-Type") == ["application/problem+json"], "one Content-Type: the problem's")

            // A download has no /data.
            #expect(try await api.taskData(id).status == 404)

            let deleted = try await api.delete("/v1/tasks/\(id)/file")
            #expect(deleted.status == 204, "\(deleted.text)")
            expectProblem(try await api.taskFile(id), status: 404, slug: "not-found")
            expectProblem(try await api.delete("/v1/tasks/\(id)/file"), status: 404, slug: "not-found")
            let after = try await api.task(id)
            #expect(isNull(after["location"]), "location must go with the file: \(after["location"] ?? "absent")")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []
            #expect(!left.contains { $0.hasPrefix(id) }, "files left: \(left)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func sessionHeadersAreMergedUnderTheRequestsOwn() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession([
                "httpAdditionalHeaders": [
                    "X-Session-Only": "session", "X-Both": "session", "Accept-Language": "fr",
                    "User-Agent": "session-agent/1",
                ]
            ])
            let task = try await api.runTask(
                session: session,
                [
                    "kind": "data",
                    "request": [
                        "url": origin.url("/echo"),
                        "allHTTPHeaderFields": ["x-both": "request", "ACCEPT-LANGUAGE": "en", "X-Request-Only": "r"],
                    ],
                ])
            #expect(task.errorCode == nil, "\(task)")
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.headers["x-session-only"] == "session")
            #expect(echo.headers["x-request-only"] == "r")
            #expect(echo.headers["x-both"] == "request", "the request's field wins, once: \(echo.headers)")
            #expect(echo.headers["accept-language"] == "en", "names compare without case: \(echo.headers)")
            #expect(echo.headers["user-agent"] == "session-agent/1")
            let recorded = try #require(origin.requests(path: "/echo").first)
            #expect(recorded.headers.filter { $0.name.lowercased() == "x-both" }.count == 1)
            #expect(recorded.headers.filter { $0.name.lowercased() == "accept-language" }.count == 1)
            // The request as reported is the client's own; the session's fields are added at send time.
            let original = try #require(task["originalRequest"] as? [String: Any])
            #expect((original["allHTTPHeaderFields"] as? [String: String])?["x-both"] == "request")
        }
    }
}
