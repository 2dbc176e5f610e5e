import Foundation
import TestSupport
import Testing

/// Credentials a client puts in requests (a session's `httpAdditionalHeaders`, a URL's password, a task's
/// `Proxy-Authorization`) are sealed in the database, and still sent as given by the next service, which
/// reads them back from it.
@Suite("Request credentials across a restart")
struct RequestSecretsRestartTests {
    static let sessionSecret = "session-bearer-7Qx2"
    static let urlSecret = "url-password-9Kd4"
    static let proxySecret = "proxy-basic-3Zm8"
    static let all = [sessionSecret, urlSecret, proxySecret]

    /// The request the origin received for `/status/200?step=<step>`. The origin's record, not an `/echo`
    /// answer: an echoed body (the fields it received) is the task's response, kept in the store.
    static func received(_ origin: FixtureOrigin, step: String) throws -> RecordedRequest {
        try #require(origin.requests(path: "/status/200").first { $0.query == "step=\(step)" }, "no request for \(step)")
    }

    /// What the origin must receive: the session's field and the task's own field, or (in a session
    /// without an `Authorization` to hide it) the URL's user and password.
    static func expectReal(_ request: RecordedRequest, urlCredential: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        if urlCredential {
            let basic = "Basic " + Data("ann:\(urlSecret)".utf8).base64EncodedString()
            #expect(request.header("Authorization") == basic, "\(request.headers)", sourceLocation: sourceLocation)
        } else {
            #expect(request.header("Authorization") == "Bearer \(sessionSecret)", "\(request.headers)", sourceLocation: sourceLocation)
            #expect(request.header("Proxy-Authorization") == "Basic \(proxySecret)", "\(request.headers)", sourceLocation: sourceLocation)
        }
    }

    static func expectNoSecret(in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for secret in all {
            let files = try CredentialsTests.databaseFiles(in: directory, holding: secret)
            #expect(files.isEmpty, "\(secret) in clear in \(files)", sourceLocation: sourceLocation)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func credentialsInRequestsAreSealedAtRestAndStillSentAfterARestart() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-request-secrets")
        defer { directory.remove() }
        let client = HTTPClient()
        func task(_ step: String, fields: [String: String] = [:]) -> [String: Any] {
            let url = "http://ann:\(Self.urlSecret)@127.0.0.1:\(origin.port)/status/200?step=\(step)"
            return ["kind": "data", "request": ["url": url, "allHTTPHeaderFields": fields]]
        }
        let proxyField = ["Proxy-Authorization": "Basic \(Self.proxySecret)"]
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        // With the default (shared) URL cache: a response to a URL with a password is never stored there.
        let background = try await api.makeSession([
            "kind": "background", "identifier": "sealed.credentials",
            "httpAdditionalHeaders": ["Authorization": "Bearer \(Self.sessionSecret)"],
        ])
        // The session's `Authorization` hides the URL's credential (a request field wins over it), so a
        // session without one shows that the URL's password is sent.
        let plain = try await api.makeSession()

        _ = try await api.runTask(session: background, task("before", fields: proxyField))
        Self.expectReal(try Self.received(origin, step: "before"), urlCredential: false)
        _ = try await api.runTask(session: plain, task("before-url"))
        Self.expectReal(try Self.received(origin, step: "before-url"), urlCredential: true)
        // Created, not resumed: after the restart they run from their rows and their sessions' rows.
        let waiting = try await api.createTask(session: background, task("after", fields: proxyField)).taskID
        let waitingPlain = try await api.createTask(session: plain, task("after-url")).taskID
        await first.kill9()  // no checkpoint: the WAL keeps every page written
        try Self.expectNoSecret(in: directory.url)

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        for id in [waiting, waitingPlain] {
            let resumed = try await again.taskAction(id, "resume")
            #expect(resumed.status == 200, "\(resumed.text)")
            let done = try await again.completedTask(id)
            #expect(done.statusCode == 200, "\(done)")
        }
        Self.expectReal(try Self.received(origin, step: "after"), urlCredential: false)
        Self.expectReal(try Self.received(origin, step: "after-url"), urlCredential: true)
        let shown = try await again.get("/v1/sessions/\(background)").text + (try await again.get("/v1/tasks/\(waiting)").text)
        #expect(shown.contains("Bearer *****") && shown.contains("ann:*****@127.0.0.1"), "still masked: \(shown)")
        #expect(try await second.terminate() == 0)
        try Self.expectNoSecret(in: directory.url)
    }
}
