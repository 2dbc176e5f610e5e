import Foundation
import TestSupport
import Testing

/// `URLCredentialStorage` through the API and through challenges: stored credentials answer HTTP Basic
/// challenges by default, a delegate's credential is kept by its persistence, secrets never come back and
/// are sealed at rest, tenants never see each other's.
@Suite("Credentials")
struct CredentialsTests {
    static let password = "pa55-W0rd-never-shown"

    /// The fixture's `/basic-auth` protection space on `origin`.
    static func space(_ origin: FixtureOrigin, realm: String? = "fixture") -> [String: Any] {
        var space: [String: Any] = [
            "host": "127.0.0.1", "port": origin.port, "protocol": "http",
            "authenticationMethod": "NSURLAuthenticationMethodHTTPBasic",
        ]
        if let realm { space["realm"] = realm }
        return space
    }

    /// The database files (the SQLite file, its WAL and shared memory) in `directory` that hold `text`.
    static func databaseFiles(in directory: URL, holding text: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { file in
            guard file.hasPrefix("urlsessiond.sqlite") else { return false }
            return try Data(contentsOf: directory.appendingPathComponent(file)).range(of: Data(text.utf8)) != nil
        }
    }

    static func store(
        _ api: API, _ space: [String: Any], user: String = "ann", password: String = Self.password, _ extra: [String: Any] = [:]
    ) async throws -> [String: Any] {
        var body: [String: Any] = ["protectionSpace": space, "credential": ["user": user, "password": password]]
        body.merge(extra) { $1 }
        let response = try await api.post("/v1/credentials", json: try jsonText(body))
        try #require(response.status == 201, "\(response.status): \(response.text)")
        return try response.json()
    }

    @Test(.timeLimit(.minutes(1)))
    func aStoredDefaultCredentialAnswersTheChallengeOnceAndNeverComesBack() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let stored = try await Self.store(api, Self.space(origin))
            #expect(stored["user"] as? String == "ann" && stored["isDefault"] as? Bool == true)
            #expect(!"\(stored)".contains(Self.password))
            let session = try await api.makeSession()
            let url = origin.url("/basic-auth/ann/\(Self.password)")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.statusCode == 200, "\(task)")

            let wrong = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/bob/other")]])
            #expect(wrong.statusCode == 401, "a failed default is not sent again: \(wrong)")
            #expect(origin.requests(path: "/basic-auth/bob/other").count == 2)

            let listed = try await api.get("/v1/credentials").json()
            #expect((listed["items"] as? [[String: Any]])?.count == 1)
            for answer in [listed.description, try await api.get("/v1/credentials/\(stored.taskID)").text] {
                #expect(!answer.contains(Self.password))
            }
            // The fixture's URL names the password; what must never show is the header that carried it.
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            let authorization = Data("ann:\(Self.password)".utf8).base64EncodedString()
            #expect(!"\(events)".contains(authorization))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aStoredDigestCredentialAnswersADigestChallenge() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            var space = Self.space(origin)
            space["authenticationMethod"] = "NSURLAuthenticationMethodHTTPDigest"
            _ = try await Self.store(api, space, user: "dee", password: "d1gest")
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/digest-auth/dee/d1gest")]])
            #expect(task.statusCode == 200, "\(task)")
            #expect(try await api.taskData(task.taskID).json()["scheme"] as? String == "digest")
            // A Basic credential for the same host is not a Digest one.
            let basicOnly = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/dee/d1gest")]])
            #expect(basicOnly.statusCode == 401)
        }
    }

    /// A standard server's Basic realm (nginx `auth_basic`): refused without a credential, answered by
    /// the stored default of its space, and by the URL's own `user:password` sent with the first request.
    @Test(.timeLimit(.minutes(1)))
    func nginxsBasicRealmIsAnsweredByTheStoredCredential() async throws {
        let origin = try await NginxOrigin.start(tls: false, files: ["report": Array("q3".utf8)], basicAuth: ("nightly", Self.password))
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/report")]]
            #expect(try await api.runTask(session: session, request).statusCode == 401)
            let space: [String: Any] = [
                "host": "127.0.0.1", "port": origin.port, "protocol": "http", "realm": "nginx",
                "authenticationMethod": "NSURLAuthenticationMethodHTTPBasic",
            ]
            _ = try await Self.store(api, space, user: "nightly", password: Self.password)
            let answered = try await api.runTask(session: session, request)
            #expect(answered.statusCode == 200, "\(answered)")
            #expect(try await api.taskData(answered.taskID).text == "q3")
            let inURL = origin.url("/report").replacingOccurrences(of: "http://", with: "http://nightly:\(Self.password)@")
            let other = try await api.makeSession(["urlCredentialStorage": "none"])
            #expect(try await api.runTask(session: other, ["kind": "data", "request": ["url": inURL]]).statusCode == 200)
        }
    }

    /// Default handling ends with the URL's own `user:password`: for Digest it can only be sent after the
    /// challenge, and a wrong one is sent once.
    @Test(.timeLimit(.minutes(1)))
    func theURLsUserAndPasswordAnswerADigestChallengeWhenNothingIsStored() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = origin.url("/digest-auth/dee/d1gest").replacingOccurrences(of: "http://", with: "http://dee:d1gest@")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.statusCode == 200, "\(task)")
            #expect(try await api.taskData(task.taskID).json()["scheme"] as? String == "digest")
            let wrong = origin.url("/digest-auth/dee/d1gest").replacingOccurrences(of: "http://", with: "http://dee:nope@")
            #expect(try await api.runTask(session: session, ["kind": "data", "request": ["url": wrong]]).statusCode == 401)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDelegatesCredentialWithoutPersistenceIsUsedForItsTaskOnly() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let answer = #"{"disposition": "useCredential", "credential": {"user": "ann", "password": "pw2"}}"#
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: "task.didReceiveChallenge") { _ in
                .json(answer)
            }
            let url = origin.url("/basic-auth/ann/pw2")
            for _ in 0..<2 {
                #expect(try await api.runTask(session: session, ["kind": "data", "request": ["url": url]]).statusCode == 200)
            }
            let asked = receiver.requests.filter { (try? $0.json())?["type"] as? String == "task.didReceiveChallenge" }
            #expect(asked.count == 2, "asked again: nothing was kept")
            #expect((try await api.get("/v1/credentials").json()["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func credentialsAreTheTenantsAndValidated() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let stored = try await Self.store(api, Self.space(origin))
            let tenantB = API(service, api.client, token: Tokens.tenantB)
            #expect(try await tenantB.get("/v1/credentials/\(stored.taskID)").status == 404)
            #expect(try await tenantB.delete("/v1/credentials/\(stored.taskID)").status == 404)
            let theirList = try await tenantB.get("/v1/credentials").json()["items"] as? [Any]
            #expect(theirList?.isEmpty == true)
            let theirs = try await tenantB.makeSession()
            let task = try await tenantB.runTask(
                session: theirs, ["kind": "data", "request": ["url": origin.url("/basic-auth/ann/\(Self.password)")]])
            #expect(task.statusCode == 401, "another tenant's credential is never used")

            var bad = Self.space(origin)
            bad["authenticationMethod"] = "NSURLAuthenticationMethodKerberosTicket"
            let refused = try await api.post(
                "/v1/credentials", json: try jsonText(["protectionSpace": bad, "credential": ["user": "a", "password": "b"]]))
            #expect(refused.status == 422 && refused.text.contains("protectionSpace.authenticationMethod"), "\(refused.text)")
            // A NUL can be neither sent (libcurl takes C strings) nor kept (PostgreSQL's text): refused by name.
            for (credential, field) in [
                (["user": "a\u{0}", "password": "b"], "credential.user"), (["user": "a", "password": "b\u{0}"], "credential.password"),
            ] {
                let withNUL = try await api.post(
                    "/v1/credentials", json: try jsonText(["protectionSpace": Self.space(origin), "credential": credential]))
                expectProblem(withNUL, status: 422, slug: "invalid-value", field: field)
            }
            let nulRealm = Self.space(origin, realm: "fix\u{0}ture")
            let realmRefused = try await api.post(
                "/v1/credentials", json: try jsonText(["protectionSpace": nulRealm, "credential": ["user": "a", "password": "b"]]))
            expectProblem(realmRefused, status: 422, slug: "invalid-value", field: "protectionSpace.realm")
            let shared = try await api.makeSession()
            let wrongScope = try await api.post(
                "/v1/credentials",
                json: try jsonText([
                    "protectionSpace": Self.space(origin), "credential": ["user": "a", "password": "b"], "sessionId": shared,
                ]))
            #expect(wrongScope.status == 409 && wrongScope.text.contains("urlCredentialStorage"), "\(wrongScope.text)")
            // Listed with that session: the storage it uses, the tenant's shared one.
            let used = try await api.get("/v1/credentials?sessionId=\(shared)")
            #expect(used.status == 200, "\(used.text)")
            let sharedItems = try #require(try await api.get("/v1/credentials").json()["items"] as? [[String: Any]])
            let usedItems = try #require(try used.json()["items"] as? [[String: Any]])
            #expect(usedItems.map(\.taskID) == sharedItems.map(\.taskID))

            let second = try await Self.store(api, Self.space(origin), user: "bob")
            #expect(second["isDefault"] as? Bool == false, "the space has a default already")
            let made = try await api.put("/v1/credentials/default", json: try jsonText(["id": second.taskID]))
            #expect(try made.status == 200 && made.json()["isDefault"] as? Bool == true, "\(made.text)")
            #expect(try await api.get("/v1/credentials/\(stored.taskID)").json()["isDefault"] as? Bool == false)
            #expect(try await api.delete("/v1/credentials/\(second.taskID)").status == 204)
            #expect(try await api.get("/v1/credentials/\(second.taskID)").status == 404)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDelegatesForSessionCredentialIsKeptUntilTheSessionIsInvalidated() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let answer = #"{"disposition": "useCredential", "credential": {"user": "ann", "password": "pw1", "persistence": "forSession"}}"#
            let session = try await TaskDecisionsTests.session(
                api, receiver: receiver, decision: "task.didReceiveChallenge", timeout: 5,
                configuration: ["urlCredentialStorage": "private"]
            ) { _ in .json(answer) }
            let url = origin.url("/basic-auth/ann/pw1")
            #expect(try await api.runTask(session: session, ["kind": "data", "request": ["url": url]]).statusCode == 200)
            let listed = try await api.get("/v1/credentials?sessionId=\(session)").json()["items"] as? [[String: Any]]
            #expect(listed?.count == 1 && listed?.first?["persistence"] as? String == "forSession", "\(String(describing: listed))")
            let sharedList = try await api.get("/v1/credentials").json()["items"] as? [Any]
            #expect(sharedList?.isEmpty == true, "private, not shared")

            // The next challenge proposes it and the delegate answers with the default handling: it is used.
            receiver.respond { request in
                (try? request.json())?["type"] as? String == "task.didReceiveChallenge"
                    ? .json(#"{"disposition": "performDefaultHandling"}"#) : .ok
            }
            let again = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(again.statusCode == 200, "\(again)")
            let asked = try await api.allEvents("/v1/tasks/\(again.taskID)/events").first { $0.eventType == "task.didReceiveChallenge" }
            let proposed = (asked?.eventData?["challenge"] as? [String: Any])?["proposedCredential"] as? [String: Any]
            #expect(proposed?["user"] as? String == "ann" && proposed?["password"] == nil, "\(String(describing: proposed))")

            #expect(try await api.post("/v1/sessions/\(session)/invalidateAndCancel").status == 200)
            let after = try await api.get("/v1/credentials?sessionId=\(session)").json()["items"] as? [Any]
            #expect(after?.isEmpty ?? true)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPermanentCredentialOutlivesARestartSealed() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-credentials")
        defer { directory.remove() }
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        _ = try await Self.store(
            API(first, client), Self.space(origin), ["credential": ["user": "ann", "password": Self.password, "persistence": "permanent"]])
        #expect(try await first.terminate() == 0)
        #expect(try Self.databaseFiles(in: directory.url, holding: Self.password).isEmpty, "the password is in clear")

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(second, client)
        let session = try await api.makeSession()
        let task = try await api.runTask(
            session: session, ["kind": "data", "request": ["url": origin.url("/basic-auth/ann/\(Self.password)")]])
        #expect(task.statusCode == 200, "\(task)")
        #expect(try await second.terminate() == 0)
        let log = try String(contentsOf: second.logFile, encoding: .utf8)
        #expect(!log.contains(Self.password), "the log never shows it")
    }

    /// A password in a URL and credential fields a client sets are sent, and never shown: not in the task,
    /// its events and metrics, nor in the session's configuration.
    @Test(.timeLimit(.minutes(1)))
    func credentialsInURLsAndHeadersAreSentButNeverShown() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["httpAdditionalHeaders": ["Proxy-Authorization": "Basic c2Vzc2lvbi1zZWNyZXQ="]])
            let url = "http://ann:url-secret@127.0.0.1:\(origin.port)/echo"
            let task = try await api.runTask(
                session: session,
                ["kind": "data", "request": ["url": url, "allHTTPHeaderFields": ["Authorization": "Bearer header-secret"]]])
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.headers["authorization"] == "Bearer header-secret", "sent as given")
            let shown = [
                try await api.get("/v1/tasks/\(task.taskID)").text, try await api.get("/v1/tasks/\(task.taskID)/metrics").text,
                try await api.get("/v1/sessions/\(session)/events").text, try await api.get("/v1/sessions/\(session)").text,
            ].joined()
            for secret in ["url-secret", "header-secret", "c2Vzc2lvbi1zZWNyZXQ="] { #expect(!shown.contains(secret), "\(secret) shown") }
            #expect(shown.contains("ann:*****@127.0.0.1") && shown.contains("Bearer *****"))
        }
    }

    /// A proxy's 407: default handling answers with the stored proxy credential (its space is the
    /// proxy's, `isProxy`); without one the 407 is the response; a delegate is asked with `isProxy`.
    @Test(.timeLimit(.minutes(1)))
    func aProxysChallengeIsAnsweredWithTheStoredProxyCredential() async throws {
        let origin = try FixtureOrigin.start()  // also the proxy: it serves absolute-form requests
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let proxy: [String: Any] = ["HTTPEnable": true, "HTTPProxy": "127.0.0.1", "HTTPPort": origin.port]
            let url = origin.url("/proxy-auth/pat/pr0xy")
            let session = try await api.makeSession(["connectionProxyDictionary": proxy])
            let refused = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(refused.statusCode == 407, "no credential: the 407 is the response")

            var space = Self.space(origin, realm: "proxy")
            space["isProxy"] = true
            _ = try await Self.store(api, space, user: "pat", password: "pr0xy")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            #expect(task.statusCode == 200, "\(task)")
            #expect(origin.requests(path: "/proxy-auth/pat/pr0xy").last?.target.hasPrefix("/proxy-auth") == true)

            let decides = try await TaskDecisionsTests.session(
                api, receiver: receiver, decision: "task.didReceiveChallenge", timeout: 5,
                configuration: ["connectionProxyDictionary": proxy]
            ) { _ in .json(#"{"disposition": "performDefaultHandling"}"#) }
            let decided = try await api.runTask(session: decides, ["kind": "data", "request": ["url": url]])
            #expect(decided.statusCode == 200, "the default handling after asking: \(decided)")
            let event = try await api.allEvents("/v1/tasks/\(decided.taskID)/events").first { $0.eventType == "task.didReceiveChallenge" }
            let protectionSpace = ((event?.eventData?["challenge"] as? [String: Any])?["protectionSpace"]) as? [String: Any]
            #expect(protectionSpace?["isProxy"] as? Bool == true && protectionSpace?["realm"] as? String == "proxy")
        }
    }

    /// `rejectProtectionSpace` moves to the next method the origin offered (Digest, then Basic here); when
    /// none is left, the 401 is the response.
    @Test(.timeLimit(.minutes(1)))
    func rejectingAProtectionSpaceMovesToTheNextOfferedMethod() async throws {
        let origin = try FixtureOrigin.start()
        let receiver = try WebhookReceiver.start()
        defer {
            origin.stop()
            receiver.stop()
        }
        try await withTaskService { api, _ in
            let session = try await TaskDecisionsTests.session(api, receiver: receiver, decision: "task.didReceiveChallenge") { event in
                let challenge = (event["data"] as? [String: Any])?["challenge"] as? [String: Any]
                let method = (challenge?["protectionSpace"] as? [String: Any])?["authenticationMethod"] as? String
                return method == "NSURLAuthenticationMethodHTTPBasic"
                    ? .json(#"{"disposition": "useCredential", "credential": {"user": "ann", "password": "either"}}"#)
                    : .json(#"{"disposition": "rejectProtectionSpace"}"#)
            }
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/any-auth/ann/either")]])
            #expect(task.statusCode == 200, "\(task)")
            let methods = try await api.allEvents("/v1/tasks/\(task.taskID)/events").filter { $0.eventType == "task.didReceiveChallenge" }
                .compactMap {
                    (($0.eventData?["challenge"] as? [String: Any])?["protectionSpace"] as? [String: Any])?["authenticationMethod"]
                        as? String
                }
            #expect(methods == ["NSURLAuthenticationMethodHTTPDigest", "NSURLAuthenticationMethodHTTPBasic"])

            let digestOnly = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/digest-auth/ann/x")]])
            #expect(digestOnly.statusCode == 401, "the only method rejected: the 401 stands")
        }
    }
}
