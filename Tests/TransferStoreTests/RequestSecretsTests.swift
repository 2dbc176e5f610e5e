import Foundation
import GRDB
import JSONCodec
import TestSupport
import Testing
import TransferModels
import TransferStore

/// Credentials a client puts in requests (a URL's password, `Authorization`, `Proxy-Authorization`) are
/// sealed in task and session rows and in resume data, and read back as they were given.
@Suite("Request credentials sealed at rest")
struct RequestSecretsTests {
    static let secrets = [
        "session-secret-1", "url-secret-2", "header-secret-3", "proxy-secret-4", "main-secret-5", "redirect-secret-6",
    ]

    /// The SQLite file and its WAL (and shared memory) that hold one of `secrets`, with the secret.
    static func leaks(in fixture: StoreFixture) async throws -> [String] {
        var found: [String] = []
        for secret in secrets where try await fixture.holds(secret) { found.append(secret) }
        return found
    }

    static func session(_ store: TransferStore) async throws -> SessionRecord {
        let json = #"""
            {"configuration": {"kind": "background", "identifier": "sealed.test",
             "httpAdditionalHeaders": {"Authorization": "Bearer session-secret-1", "X-Visible": "plain"}}}
            """#
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
        guard case .created(let record) = try await store.sessions.createSession(tenant: "t1", request: request, secret: nil) else {
            throw CancellationError()
        }
        return record
    }

    static func task(_ store: TransferStore, session: SessionRecord) async throws -> TaskRecord {
        let json = #"""
            {"kind": "download", "resume": true, "request": {"url": "https://ann:url-secret-2@o.example/p?q=1",
             "allHTTPHeaderFields": {"Authorization": "Bearer header-secret-3", "proxy-authorization": "Basic proxy-secret-4"},
             "mainDocumentURL": "https://ann:main-secret-5@o.example/"}}
            """#
        let request = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: session.configuration)
        return try await store.tasks.createTask(tenant: "t1", sessionId: session.id, request: request)
    }

    @Test(.timeLimit(.minutes(1)))
    func taskAndSessionRowsHoldNoCredentialInClearAndReadBackEqual() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let session = try await Self.session(store)
        #expect(session.configuration.httpAdditionalHeaders["Authorization"] == "Bearer session-secret-1")
        let created = try await Self.task(store, session: session)
        #expect(created.originalRequest?.url == "https://ann:url-secret-2@o.example/p?q=1")
        #expect(created.currentRequest == created.originalRequest)

        // A redirect (a new current request) and its response, whose URL carries the password too.
        var redirected = try #require(created.originalRequest)
        redirected.allHTTPHeaderFields["Authorization"] = "Bearer redirect-secret-6"
        let response = HTTPResponseSnapshot(url: redirected.url, statusCode: 200, allHeaderFields: ["ETag": "\"v1\""])
        let recorded = try await store.tasks.recordResponse(id: created.id, response: response, currentRequest: redirected)
        #expect(recorded.currentRequest == redirected && recorded.response == response)
        let token = try store.token(
            for: ResumeData(tenant: "t1", sourceTaskId: created.id, request: redirected, path: "/p", offset: 1, validator: "\"v1\""))
        #expect(store.resumeData(from: token, tenant: "t1")?.request == redirected)
        let payload = try #require(Data(base64Encoded: Self.base64(String(token.prefix { $0 != "." }))))
        #expect(!Self.secrets.contains { payload.range(of: Data($0.utf8)) != nil }, "resume data seals the request")
        let suspended = try await store.tasks.suspendTask(id: created.id).0
        #expect(suspended.originalRequest == created.originalRequest && suspended.currentRequest == redirected)

        // Open: the WAL holds every page written so far.
        #expect(try await Self.leaks(in: fixture) == [])
        #expect(try await store.tasks.task(id: created.id).map(Self.requests) == Self.requests(suspended))
        #expect(try await store.sessions.session(id: session.id, tenant: "t1")?.configuration == session.configuration)
        try store.close()
        #expect(try await Self.leaks(in: fixture) == [])

        let reopened = try await fixture.open()  // a fresh session cache: read from the rows
        defer { try? reopened.close() }
        #expect(try await reopened.sessions.session(id: session.id, tenant: "t1")?.configuration == session.configuration)
        #expect(try await reopened.sessions.sessions(tenant: "t1", after: nil, limit: 10).map(\.configuration) == [session.configuration])
        #expect(try await reopened.tasks.unfinishedTasks().map(Self.requests) == [Self.requests(suspended)])
        #expect(
            try await reopened.tasks.tasks(sessionId: session.id, after: nil, limit: 10).map(Self.requests) == [Self.requests(suspended)])
        let completed = try await reopened.tasks.completeTask(
            id: created.id, error: nil, response: HTTPResponseSnapshot(url: redirected.url, statusCode: 204, allHeaderFields: [:]))
        #expect(completed.currentRequest == redirected && completed.response?.url == redirected.url)
        #expect(completed.wire(locations: Paths()).originalRequest?.url == "https://ann:*****@o.example/p?q=1")
        #expect(try await Self.leaks(in: fixture) == [])
    }

    /// Rows written before sealing existed hold the credentials in clear: they read as they are.
    @Test(.timeLimit(.minutes(1)))
    func rowsWrittenInClearBeforeSealingStillRead() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let session = try await Self.session(store)
        let created = try await Self.task(store, session: session)
        try store.close()

        let clearRequest = String(decoding: try WireJSON.encode(created.originalRequest), as: UTF8.self)
        let clearConfiguration = String(decoding: try WireJSON.encode(session.configuration), as: UTF8.self)
        try await fixture.rawWrite { [created, session] db in
            try db.execute("UPDATE task SET originalRequest = ?, currentRequest = ? WHERE id = ?", clearRequest, clearRequest, created.id)
            try db.execute("UPDATE session SET configuration = ? WHERE id = ?", clearConfiguration, session.id)
        }

        let reopened = try await fixture.open()
        defer { try? reopened.close() }
        #expect(try await reopened.tasks.task(id: created.id).map(Self.requests) == Self.requests(created))
        #expect(try await reopened.sessions.session(id: session.id, tenant: "t1")?.configuration == session.configuration)
    }

    /// What a task row keeps of its requests (timestamps are compared elsewhere, to the millisecond).
    private static func requests(_ task: TaskRecord) -> Requests {
        Requests(original: task.originalRequest, current: task.currentRequest, response: task.response)
    }

    private struct Requests: Equatable {
        var original: URLRequestSnapshot?
        var current: URLRequestSnapshot?
        var response: HTTPResponseSnapshot?
    }

    private static func base64(_ url: String) -> String {
        let text = url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    }

    private struct Paths: TaskBodyLocations {
        func fileLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/file" }
        func dataLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/data" }
    }
}
