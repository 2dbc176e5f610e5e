import Foundation
import TestSupport
import Testing

/// The egress policy: loopback, link-local and private addresses are refused at connect time (never
/// reached), unless `URLSESSIOND_EGRESS_ALLOW` lists them; redirects are checked too; only http(s) URLs.
@Suite("Tasks: egress")
struct TasksEgressTests {
    /// Expects the task to have failed with -1004 `egressPolicy`.
    static func expectEgressRefusal(_ task: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(task.state == "completed", sourceLocation: sourceLocation)
        #expect(task.errorCode == -1004, "\(task)", sourceLocation: sourceLocation)
        #expect(task.errorReason == "egressPolicy", "\(task)", sourceLocation: sourceLocation)
        #expect(task.errorObject?["domain"] as? String == "NSURLErrorDomain", sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(2)))
    func loopbackIsRefusedWithoutTheAllowList() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: TaskEnvironment.defaultEgress) { api, _ in
            let session = try await api.makeSession()
            let urls = [
                origin.url("/bytes/10"),
                "http://[::ffff:127.0.0.1]:\(origin.port)/bytes/10",
                "http://localhost:\(origin.port)/bytes/10",
                "http://2130706433:\(origin.port)/bytes/10",  // 127.0.0.1 as one decimal number
                "http://127.1:\(origin.port)/bytes/10",
                "http://[::1]:\(origin.port)/bytes/10",
                "http://[::ffff:7f00:1]:\(origin.port)/bytes/10",  // mapped loopback in hex
                "http://0.0.0.0:\(origin.port)/bytes/10",  // reaches loopback on Linux
            ]
            for url in urls {
                for kind in ["data", "download"] {
                    let task = try await api.runTask(session: session, ["kind": kind, "request": ["url": url]])
                    Self.expectEgressRefusal(task)
                    #expect(isNull(task["response"]), "\(url)")
                }
            }
            #expect(origin.acceptedConnections == 0, "a refused address was connected to")
            #expect(origin.requests.isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theAllowListOpensLoopback() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: TaskEnvironment.loopback) { api, _ in
            let session = try await api.makeSession()
            for url in [origin.url("/bytes/10?seed=1"), "http://[::ffff:127.0.0.1]:\(origin.port)/bytes/10?seed=1"] {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
                #expect(task.errorCode == nil, "\(url): \(task)")
                #expect(task.statusCode == 200)
                #expect(try await api.taskData(task.taskID).body == FixtureOrigin.bytes(count: 10, seed: 1))
            }
            #expect(origin.acceptedConnections >= 1)

            // What the allow list does not name stays refused.
            let refused = [
                "http://169.254.169.254/latest/meta-data/", "http://[::ffff:a9fe:a9fe]/", "http://10.0.0.1/",
                "http://[fe80::1]/", "http://0.0.0.0:\(origin.port)/bytes/10",
            ]
            let accepted = origin.acceptedConnections
            for url in refused {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
                Self.expectEgressRefusal(task)
            }
            #expect(origin.acceptedConnections == accepted, "0.0.0.0 reached the loopback origin")

            // A redirect to another scheme is not followed: nothing is read from the file system.
            let toFile = TasksRedirectTests.redirect(origin, code: 302, to: "file:///etc/passwd")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": toFile]])
            #expect(task.currentURL != "file:///etc/passwd")
            if task.errorCode == nil {
                #expect(task.statusCode == 302, "\(task)")
                #expect(try await api.taskData(task.taskID).text.contains("root:") == false)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aRedirectIntoAForbiddenRangeIsRefused() async throws {
        let allowed = try FixtureOrigin.start(host: "127.0.0.1")
        defer { allowed.stop() }
        let forbidden = try FixtureOrigin.start(host: "127.0.0.2")
        defer { forbidden.stop() }
        let environment = Tokens.environment.merging(["URLSESSIOND_EGRESS_ALLOW": "127.0.0.1/32"]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            // The forbidden origin is only forbidden by policy: it answers when asked directly.
            let direct = try await api.client.send(.get(forbidden.url("/bytes/1")))
            #expect(direct.status == 200)
            let before = forbidden.acceptedConnections

            let target = "http://127.0.0.2:\(forbidden.port)/echo"
            for code in [302, 307] {
                let url = TasksRedirectTests.redirect(allowed, code: code, to: target)
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
                Self.expectEgressRefusal(task)
            }
            #expect(allowed.requests(path: "/redirect/302").count == 1)
            #expect(forbidden.acceptedConnections == before, "the redirect reached 127.0.0.2")
            #expect(forbidden.requests(path: "/echo").isEmpty)

            // And directly, of course.
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": target]])
            Self.expectEgressRefusal(task)
            #expect(forbidden.acceptedConnections == before)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theMetadataAddressIsRefusedEvenWithLoopbackAllowed() async throws {
        try await withTaskService(environment: TaskEnvironment.loopback) { api, _ in
            let session = try await api.makeSession()
            let (task, seconds) = try await timed {
                try await api.runTask(
                    session: session, ["kind": "data", "request": ["url": "http://169.254.169.254/"]])
            }
            Self.expectEgressRefusal(task)
            #expect(seconds < 10, "a refusal needs no connect timeout")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func otherSchemesAreRefusedAtCreation() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            for url in ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/", "data:text/plain,hi"] {
                for kind in ["data", "download"] {
                    let response = try await api.postTask(session: session, ["kind": kind, "request": ["url": url]])
                    expectProblem(response, status: 422, slug: "invalid-value", field: "request.url")
                }
            }
            let tasks = try await api.get("/v1/sessions/\(session)/tasks")
            #expect((try tasks.json()["items"] as? [Any])?.isEmpty == true, "a refused request created a task")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func extraProtocolsOptInToOtherSchemes() async throws {
        let environment = TaskEnvironment.loopback.merging(["URLSESSIOND_EXTRA_PROTOCOLS": "ftp,file", "URLSESSIOND_FILE_ROOT": "/etc"]) {
            $1
        }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            for url in ["file:///etc/hostname", "ftp://127.0.0.1/x"] {
                let response = try await api.postTask(session: session, ["kind": "data", "request": ["url": url]])
                #expect(response.status == 201, "\(url): \(response.text)")
            }
            // Not listed: still refused.
            let gopher = try await api.postTask(
                session: session, ["kind": "data", "request": ["url": "gopher://127.0.0.1/"]])
            expectProblem(gopher, status: 422, slug: "invalid-value", field: "request.url")
        }
    }
}
