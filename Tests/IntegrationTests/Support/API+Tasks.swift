import Crypto
import Foundation
import TestSupport
import Testing

/// Service environments for task tests.
enum TaskEnvironment {
    /// Loopback is denied by default; the task tests reach their `FixtureOrigin` through this allow list.
    static let loopback = Tokens.environment.merging(["URLSESSIOND_EGRESS_ALLOW": "127.0.0.0/8,::1"]) { $1 }
    /// The default egress policy: loopback, link-local and private ranges are refused.
    static let defaultEgress = Tokens.environment
}

/// Runs `body` against a fresh service (by default one allowed to reach loopback), as tenant A.
func withTaskService<T>(
    environment: [String: String] = TaskEnvironment.loopback,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (API, ServiceProcess) async throws -> T
) async throws -> T {
    try await withRunningService(environment: environment, isolation: isolation) { service, client in
        try await body(API(service, client), service)
    }
}

/// A JSON text of `object`, slashes left unescaped so URLs read as written.
func jsonText(_ object: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
}

/// Lowercase hex SHA-256, as the fixture origin reports `bodySHA256` and `X-Decoded-SHA256`.
func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
    SHA256.hash(data: Array(bytes)).map { String(format: "%02x", $0) }.joined()
}

/// The hex SHA-256 of what `/bytes/{count}?seed={seed}` serves.
func fixtureSHA256(count: Int, seed: UInt64) -> String {
    sha256Hex(FixtureOrigin.bytes(count: count, seed: seed))
}

/// A JSON integer, whichever way it was boxed.
func int(_ value: Any?) -> Int? { number(value).map { Int($0) } }

/// What `/echo` and `/upload` report about the request the origin received.
struct Echo {
    var method: String
    var path: String
    var query: String
    /// Lowercased names; repeated fields joined with ", ".
    var headers: [String: String]
    var bodySize: Int
    var bodySHA256: String

    init(_ response: TestHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let object = try response.json()
        method = try #require(object["method"] as? String, sourceLocation: sourceLocation)
        path = try #require(object["path"] as? String, sourceLocation: sourceLocation)
        query = object["query"] as? String ?? ""
        headers = try #require(object["headers"] as? [String: String], sourceLocation: sourceLocation)
        bodySize = try #require(int(object["bodySize"]), sourceLocation: sourceLocation)
        bodySHA256 = try #require(object["bodySHA256"] as? String, sourceLocation: sourceLocation)
    }
}

/// Accessors for the task object of the API.
extension Dictionary where Key == String, Value == Any {
    var taskID: String { self["id"] as? String ?? "?" }
    var state: String? { self["state"] as? String }
    var errorObject: [String: Any]? { self["error"] as? [String: Any] }
    var errorCode: Int? { int(errorObject?["code"]) }
    var errorReason: String? { (errorObject?["userInfo"] as? [String: Any])?["reason"] as? String }
    var responseObject: [String: Any]? { self["response"] as? [String: Any] }
    var statusCode: Int? { int(responseObject?["statusCode"]) }
    var originalURL: String? { (self["originalRequest"] as? [String: Any])?["url"] as? String }
    var currentURL: String? { (self["currentRequest"] as? [String: Any])?["url"] as? String }
    func count(_ name: String) -> Int? { int(self[name]) }
    /// The value of a response header field, looked up case-insensitively.
    func responseHeader(_ name: String) -> String? {
        guard let fields = responseObject?["allHeaderFields"] as? [String: Any] else { return nil }
        return fields.first { $0.key.lowercased() == name.lowercased() }?.value as? String
    }
}

extension API {
    /// `POST /v1/sessions` with this configuration; returns the session id.
    func makeSession(
        _ configuration: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let session = try await createSession(
            json: try jsonText(["configuration": configuration]), sourceLocation: sourceLocation)
        return try #require(session["id"] as? String, sourceLocation: sourceLocation)
    }

    /// `POST /v1/sessions/{id}/tasks` (`?wait=` when given), the raw answer.
    func postTask(session: String, _ body: [String: Any], wait: Double? = nil) async throws -> TestHTTPResponse {
        let query = wait.map { "?wait=\($0)" } ?? ""
        var request = TestHTTPRequest.post(
            base + "/v1/sessions/\(session)/tasks\(query)", json: try jsonText(body), token: token)
        request.timeout = (wait ?? 0) + 30
        return try await client.send(request)
    }

    /// Creates a task that must answer 201; returns the task object.
    func createTask(
        session: String, _ body: [String: Any], wait: Double? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let response = try await postTask(session: session, body, wait: wait)
        try #require(response.status == 201, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        return try response.json()
    }

    /// Creates a resumed task and returns it once completed (bounded by `within` seconds).
    func runTask(
        session: String, _ body: [String: Any], within seconds: Double = 30,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        var body = body
        body["resume"] = true
        let created = try await createTask(
            session: session, body, wait: min(seconds, 20), sourceLocation: sourceLocation)
        if created.state == "completed" { return created }
        return try await completedTask(created.taskID, within: seconds, sourceLocation: sourceLocation)
    }

    /// `GET /v1/tasks/{id}` (`?wait=` when given); the answer must be 200.
    func task(
        _ id: String, wait: Double? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let response = try await getTask(id, wait: wait)
        try #require(response.status == 200, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        return try response.json()
    }

    /// `GET /v1/tasks/{id}` (`?wait=` when given), the raw answer.
    func getTask(_ id: String, wait: Double? = nil) async throws -> TestHTTPResponse {
        let query = wait.map { "?wait=\($0)" } ?? ""
        var request = TestHTTPRequest.get(base + "/v1/tasks/\(id)\(query)", token: token)
        request.timeout = (wait ?? 0) + 30
        return try await client.send(request)
    }

    /// Long-polls until the task completes; fails the test (and throws) after `within` seconds.
    func completedTask(
        _ id: String, within seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var last: [String: Any] = [:]
        while ContinuousClock.now < deadline {  // bounded by the deadline; each poll waits at most 10 s
            let left = Double((deadline - ContinuousClock.now) / .milliseconds(1)) / 1000
            last = try await task(id, wait: max(0, min(10, left.rounded(.down))), sourceLocation: sourceLocation)
            if last.state == "completed" { return last }
        }
        Issue.record("task \(id) did not complete within \(seconds) s: \(last)", sourceLocation: sourceLocation)
        throw TimeoutError(seconds: seconds, operation: "task \(id) completing")
    }

    /// Polls the task until `condition` holds (every 50 ms, at most `within` seconds).
    func task(
        _ id: String, until condition: @escaping ([String: Any]) -> Bool, within seconds: Double = 20,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        do {
            try await eventually(timeout: seconds, interval: 0.05) {
                last = try await task(id, sourceLocation: sourceLocation)
                return condition(last)
            }
        } catch let error as TimeoutError {
            Issue.record("task \(id) never met the condition: \(last)", sourceLocation: sourceLocation)
            throw error
        }
        return last
    }

    /// `POST /v1/tasks/{id}/{action}` (`resume`, `suspend`, `cancel`) without a body.
    func taskAction(_ id: String, _ action: String) async throws -> TestHTTPResponse {
        try await post("/v1/tasks/\(id)/\(action)")
    }

    /// `GET /v1/tasks/{id}/data`.
    func taskData(_ id: String) async throws -> TestHTTPResponse {
        try await get("/v1/tasks/\(id)/data")
    }

    /// `GET /v1/tasks/{id}/file`, with extra header fields (`Range`).
    func taskFile(_ id: String, headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        try await get("/v1/tasks/\(id)/file", headers: headers)
    }

    /// `GET /v1/tasks/{id}/metrics`, which must answer 200.
    func taskMetrics(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let response = try await get("/v1/tasks/\(id)/metrics")
        try #require(response.status == 200, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        return try response.json()
    }

    /// What `/echo` (or `/upload`) told the data or upload task `id`.
    func echo(of id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Echo {
        let response = try await taskData(id)
        try #require(response.status == 200, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        return try Echo(response, sourceLocation: sourceLocation)
    }

    /// `POST /v1/blobs` with `bytes`; returns the blob id.
    func makeBlob(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let response = try await post("/v1/blobs", bytes: bytes, contentType: "application/octet-stream")
        try #require(response.status == 201, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        return try #require(try response.json()["id"] as? String, sourceLocation: sourceLocation)
    }
}

/// Seconds elapsed while running `body`.
func timed<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try await body()
    return (result, Double((ContinuousClock.now - start) / .milliseconds(1)) / 1000)
}
