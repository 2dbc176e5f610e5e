import Foundation
import TestSupport
import Testing

/// Transfer failures are `NSURLErrorDomain` errors on a completed task; origin statuses are responses.
@Suite("Tasks: transfer errors")
struct TasksErrorsTests {
    @Test(.timeLimit(.minutes(2)))
    func aClosedPortCannotConnect() async throws {
        // A port that was just listening and is now closed.
        let closed = try FixtureOrigin.start()
        let url = closed.url("/bytes/10")
        closed.stop()
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.state == "completed")
            #expect(task.errorCode == -1004, "\(task)")
            #expect(task.errorObject?["name"] as? String == "cannotConnectToHost")
            #expect(task.errorReason == nil, "a refused connection is not the egress policy: \(task)")
            let underlying = task.errorObject?["underlying"] as? [String: Any]
            #expect(underlying?["domain"] as? String == "libcurl")
            #expect(int(underlying?["code"]) == 7)
            #expect(isNull(task["response"]))
        }
    }

    /// A malformed answer is the server's fault, -1011 `badServerResponse`, as URLSession (and
    /// swift-corelibs-foundation's `HTTP/1.1 Gomorrah` test) report it, not -1002 `unsupportedURL`, which
    /// libcurl's CURLE_UNSUPPORTED_PROTOCOL for the same answers would suggest.
    @Test(.timeLimit(.minutes(2)), arguments: ["/status-line?text=HTTP/1.1%20Gomorrah", "/status-line?text=HTTP/1.1", "/garbage"])
    func aMalformedAnswerIsABadServerResponse(path: String) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url(path)]])
            #expect(task.errorCode == -1011, "\(task)")
            #expect(task.errorObject?["name"] as? String == "badServerResponse")
            #expect(int((task.errorObject?["underlying"] as? [String: Any])?["code"]) == 1, "libcurl's code is kept: \(task)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anUnresolvableHostCannotBeFound() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = "http://nonexistent.invalid/"
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.errorCode == -1003, "\(task)")
            #expect(task.errorObject?["name"] as? String == "cannotFindHost")
            #expect((task.errorObject?["userInfo"] as? [String: Any])?["NSErrorFailingURLStringKey"] as? String == url)
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: ["data", "download"])
    func aBodyShorterThanItsContentLengthLosesTheConnection(kind: String) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": kind, "request": ["url": origin.url("/truncated?length=10000&send=4000")]])
            #expect(task.errorCode == -1005, "\(task)")
            #expect(task.errorObject?["name"] as? String == "networkConnectionLost")
            #expect(task.statusCode == 200, "the head had arrived: \(task)")
            #expect(isNull(task["location"]))

            // A connection closed before any response is lost too.
            let closed = try await api.runTask(
                session: session, ["kind": kind, "request": ["url": origin.url("/close")]])
            #expect(closed.errorCode == -1005, "\(closed)")
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: ["gzip", "br", "zstd", "deflate"])
    func contentCodingsAreDecoded(coding: String) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let size = 200_000
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/encoded/\(coding)?size=\(size)")]])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.statusCode == 200, "\(task)")
            let decodedDigest = try #require(task.responseHeader("X-Decoded-SHA256"))
            #expect(task.responseHeader("Content-Encoding") == coding)
            #expect(task.count("countOfBytesExpectedToReceive") == -1, "an encoded body's decoded size is unknown")
            #expect(task.count("countOfBytesReceived") == size)

            let body = try await api.taskData(task.taskID)
            #expect(body.status == 200)
            #expect(body.body.count == size)
            #expect(sha256Hex(body.body) == decodedDigest)
            #expect(body.body == FixtureOrigin.text(count: size))

            let metrics = try await api.taskMetrics(task.taskID)
            let transaction = try #require((metrics["transactionMetrics"] as? [[String: Any]])?.last)
            let wire = try #require(int(transaction["countOfResponseBodyBytesReceived"]))
            let decoded = try #require(int(transaction["countOfResponseBodyBytesAfterDecoding"]))
            #expect(decoded == size)
            #expect(wire > 0 && wire < decoded, "wire \(wire) bytes, decoded \(decoded)")
            #expect(wire == Int(task.responseHeader("Content-Length") ?? ""), "the wire count is the encoded length")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func anEncodedDownloadIsDecodedToTheFile() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/encoded/gzip?size=300000")]])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.count("countOfBytesExpectedToReceive") == -1)
            let file = try await api.taskFile(task.taskID)
            #expect(file.status == 200)
            #expect(sha256Hex(file.body) == task.responseHeader("X-Decoded-SHA256"))
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: [404, 500])
    func anErrorStatusIsAResponseNotAnError(code: Int) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            for kind in ["data", "download"] {
                let task = try await api.runTask(
                    session: session, ["kind": kind, "request": ["url": origin.url("/status/\(code)")]])
                #expect(task.state == "completed")
                #expect(task.keys.contains("error") && isNull(task["error"]), "\(kind): \(task)")
                #expect(task.statusCode == code)
                let body = kind == "data" ? try await api.taskData(task.taskID) : try await api.taskFile(task.taskID)
                #expect(body.status == 200)
                #expect(body.text == "\(code)")
            }
        }
    }
}
