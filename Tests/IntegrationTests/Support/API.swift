import Foundation
import TestSupport
import Testing

/// Tokens every test service is started with: two tenants with `user` tokens, and an admin of tenant A
/// (16 characters at least, as the service requires).
enum Tokens {
    static let tenantA = "token-tenant-a-0123456789"
    static let tenantB = "token-tenant-b-0123456789"
    static let admin = "token-admin-a-0123456789"
    static let list = "\(tenantA):tenantA:user,\(tenantB):tenantB:user,\(admin):tenantA:admin"
    static let environment = ["URLSESSIOND_TOKENS": list]
}

/// One tenant's view of a running service: its client, base URL and bearer token.
struct API: Sendable {
    let client: HTTPClient
    let base: String
    let token: String?

    init(_ service: ServiceProcess, _ client: HTTPClient, token: String? = Tokens.tenantA) {
        self.client = client
        self.base = service.baseURL
        self.token = token
    }

    /// The same service as another tenant (or with no token).
    func `as`(_ token: String?) -> API { API(client: client, base: base, token: token) }

    private init(client: HTTPClient, base: String, token: String?) {
        self.client = client
        self.base = base
        self.token = token
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        try await client.send(.get(base + path, token: token, headers: headers))
    }

    func delete(_ path: String, headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        try await client.send(.delete(base + path, token: token, headers: headers))
    }

    func post(_ path: String, json: String, headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        try await client.send(.post(base + path, json: json, token: token, headers: headers))
    }

    func put(_ path: String, json: String) async throws -> TestHTTPResponse {
        try await client.send(.put(base + path, json: json, token: token))
    }

    /// A POST without a body, as the action endpoints (`flush`, `invalidateAndCancel`...) take.
    func post(_ path: String, headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        return try await client.send(TestHTTPRequest(method: "POST", url: base + path, headers: all))
    }

    func post(_ path: String, bytes: [UInt8], contentType: String) async throws -> TestHTTPResponse {
        try await client.send(.post(base + path, body: bytes, contentType: contentType, token: token))
    }

    /// `POST /v1/sessions` that must answer 201 (or 200 for a re-attach); returns the session object.
    @discardableResult
    func createSession(json: String = "{}", expecting status: Int = 201, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [String: Any]
    {
        let response = try await post("/v1/sessions", json: json)
        try #require(response.status == status, "\(response.status): \(response.text)", sourceLocation: sourceLocation)
        return try response.json()
    }

    /// Every session of the tenant, following `nextCursor` (bounded to 100 pages).
    func allSessions() async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        for _ in 0..<100 {
            let query = cursor.map { "&after=\($0)" } ?? ""
            let response = try await get("/v1/sessions?limit=1000\(query)")
            try #require(response.status == 200, "\(response.text)")
            let page = try response.json()
            items += try #require(page["items"] as? [[String: Any]])
            cursor = page["nextCursor"] as? String
            if cursor == nil { return items }
        }
        Issue.record("more than 100 pages of sessions")
        return items
    }

    /// The ids of every session of the tenant, in list order.
    func sessionIDs() async throws -> [String] {
        try await allSessions().compactMap { $0["id"] as? String }
    }
}

/// Checks an RFC 9457 problem: status, content type, `type` slug, title/detail, and `field` when given.
func expectProblem(
    _ response: TestHTTPResponse, status: Int, slug: String, field: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "body: \(response.text)", sourceLocation: sourceLocation)
    #expect(
        response.header("Content-Type")?.hasPrefix("application/problem+json") == true,
        "Content-Type: \(response.header("Content-Type") ?? "none")", sourceLocation: sourceLocation)
    #expect(response.header("X-Request-Id")?.isEmpty == false, sourceLocation: sourceLocation)
    guard let problem = try? response.json() else {
        Issue.record("not a JSON problem: \(response.text)", sourceLocation: sourceLocation)
        return
    }
    #expect(problem["type"] as? String == "urn:urlsessiond:problem:\(slug)", "\(problem)", sourceLocation: sourceLocation)
    #expect(number(problem["status"]) == Double(status), sourceLocation: sourceLocation)
    #expect((problem["title"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(problem["detail"] is String, sourceLocation: sourceLocation)
    if let field {
        #expect(problem["field"] as? String == field, "\(problem)", sourceLocation: sourceLocation)
    }
}

/// A JSON number as Double, whichever way JSONSerialization boxed it.
func number(_ value: Any?) -> Double? {
    switch value {
    case let value as Int: return Double(value)
    case let value as Double: return value
    case let value as NSNumber: return value.doubleValue
    default: return nil
    }
}

/// A JSON boolean.
func bool(_ value: Any?) -> Bool? { value as? Bool }

/// Whether a JSON value is `null`.
func isNull(_ value: Any??) -> Bool {
    guard case .some(let inner) = value else { return false }
    return inner == nil || inner is NSNull
}

/// A canonical text of a JSON value (sorted keys), for comparing whole objects.
func canonical(_ value: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: data, as: UTF8.self)
}

/// Expects two JSON objects to be equal, naming the top-level keys whose values differ.
func expectSameJSON(
    _ actual: [String: Any], _ expected: [String: Any], _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let keys = Set(actual.keys).union(expected.keys).sorted()
    let differences = keys.compactMap { key -> String? in
        let left = actual[key].flatMap { try? canonical($0) } ?? "absent"
        let right = expected[key].flatMap { try? canonical($0) } ?? "absent"
        return left == right ? nil : "\(key): \(left) (expected \(right))"
    }
    #expect(differences.isEmpty, "\(context) \(differences.joined(separator: "; "))", sourceLocation: sourceLocation)
}
