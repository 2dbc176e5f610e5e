import Foundation
import TestSupport
import Testing

/// Rejected requests: the right problem (status, slug, field), and nothing created.
@Suite("Request validation")
struct RequestValidationTests {
    struct Invalid: Sendable, CustomStringConvertible {
        var body: String
        var status: Int
        var slug: String
        var field: String?
        var description: String { body }

        init(_ body: String, _ status: Int, _ slug: String, _ field: String?) {
            self.body = body
            self.status = status
            self.slug = slug
            self.field = field
        }
    }

    static let decoding: [Invalid] = [
        Invalid(#"{"configuration": "#, 400, "malformed-json", nil),
        Invalid(#"{"configuration": {"kind": "default",}}"#, 400, "malformed-json", nil),
        Invalid("[1, 2]", 400, "malformed-json", nil),
        Invalid(#""just a string""#, 400, "malformed-json", nil),
        Invalid(#"{"colour": "red"}"#, 400, "unknown-field", "colour"),
        Invalid(#"{"configuration": {"colour": "red"}}"#, 400, "unknown-field", "configuration.colour"),
        Invalid(
            #"{"configuration": {"urlCache": {"memoryCapacity": 1, "diskCapacity": 0, "x": 1}}}"#,
            400, "unknown-field", "configuration.urlCache.x"),
        Invalid(#"{"delegate": {"url": "https://a.example/h", "retries": 3}}"#, 400, "unknown-field", "delegate.retries"),
        Invalid(
            #"{"configuration": {"timeoutIntervalForRequest": "60"}}"#,
            400, "type-mismatch", "configuration.timeoutIntervalForRequest"),
        Invalid(
            #"{"configuration": {"httpMaximumConnectionsPerHost": 1.5}}"#,
            400, "type-mismatch", "configuration.httpMaximumConnectionsPerHost"),
        Invalid(#"{"configuration": {"httpShouldSetCookies": 1}}"#, 400, "type-mismatch", "configuration.httpShouldSetCookies"),
        Invalid(#"{"configuration": []}"#, 400, "type-mismatch", "configuration"),
        Invalid(
            #"{"configuration": {"httpAdditionalHeaders": {"X-A": 1}}}"#,
            400, "type-mismatch", "configuration.httpAdditionalHeaders.X-A"),
        Invalid(#"{"configuration": {}, "configuration": {}}"#, 400, "malformed-json", nil),
        Invalid(#"{"sessionDescription": 5}"#, 400, "type-mismatch", "sessionDescription"),
        Invalid(#"{"delegate": {"url": "https://a.example/h", "events": "*"}}"#, 400, "type-mismatch", "delegate.events"),
    ]

    static let configurationValues: [Invalid] = [
        Invalid(
            #"{"configuration": {"timeoutIntervalForRequest": -1}}"#,
            422, "invalid-value", "configuration.timeoutIntervalForRequest"),
        Invalid(
            #"{"configuration": {"timeoutIntervalForRequest": 0}}"#,
            422, "invalid-value", "configuration.timeoutIntervalForRequest"),
        Invalid(
            #"{"configuration": {"timeoutIntervalForResource": 2592001}}"#,
            422, "invalid-value", "configuration.timeoutIntervalForResource"),
        Invalid(
            #"{"configuration": {"httpMaximumConnectionsPerHost": 0}}"#,
            422, "invalid-value", "configuration.httpMaximumConnectionsPerHost"),
        Invalid(
            #"{"configuration": {"httpMaximumConnectionsPerHost": 65}}"#,
            422, "invalid-value", "configuration.httpMaximumConnectionsPerHost"),
        Invalid(#"{"configuration": {"kind": "weird"}}"#, 422, "invalid-value", "configuration.kind"),
        Invalid(
            #"{"configuration": {"httpAdditionalHeaders": {"Bad Name": "x"}}}"#,
            422, "invalid-value", "configuration.httpAdditionalHeaders.Bad Name"),
        Invalid(
            #"{"configuration": {"httpAdditionalHeaders": {"X-A": "a\r\nX-B: b"}}}"#,
            422, "invalid-value", "configuration.httpAdditionalHeaders.X-A"),
        Invalid(#"{"configuration": {"requestCachePolicy": "sometimes"}}"#, 422, "invalid-value", "configuration.requestCachePolicy"),
        Invalid(#"{"configuration": {"multipathServiceType": "turbo"}}"#, 422, "invalid-value", "configuration.multipathServiceType"),
        Invalid(#"{"configuration": {"kind": "background"}}"#, 422, "missing-field", "configuration.identifier"),
        Invalid(
            #"{"configuration": {"kind": "background", "identifier": "bad id!"}}"#,
            422, "invalid-value", "configuration.identifier"),
        Invalid(
            #"{"configuration": {"kind": "background", "identifier": "a", "waitsForConnectivity": false}}"#,
            422, "invalid-value", "configuration.waitsForConnectivity"),
        Invalid(#"{"configuration": {"identifier": "com.example.x"}}"#, 422, "invalid-value", "configuration.identifier"),
        Invalid(
            #"{"configuration": {"kind": "ephemeral", "identifier": "com.example.x"}}"#,
            422, "invalid-value", "configuration.identifier"),
        Invalid(
            #"{"configuration": {"kind": "ephemeral", "urlCache": {"memoryCapacity": 0, "diskCapacity": 1}}}"#,
            422, "invalid-value", "configuration.urlCache.diskCapacity"),
        Invalid(
            #"{"configuration": {"kind": "ephemeral", "httpCookieStorage": "shared"}}"#,
            422, "invalid-value", "configuration.httpCookieStorage"),
        Invalid(
            #"{"configuration": {"urlCache": {"memoryCapacity": -1, "diskCapacity": 0}}}"#,
            422, "invalid-value", "configuration.urlCache.memoryCapacity"),
        Invalid(
            #"{"configuration": {"tlsMinimumSupportedProtocolVersion": "TLSv13", "tlsMaximumSupportedProtocolVersion": "TLSv12"}}"#,
            422, "invalid-value", "configuration.tlsMinimumSupportedProtocolVersion"),
        Invalid(#"{"sessionDescription": "\#(String(repeating: "d", count: 1025))"}"#, 422, "invalid-value", "sessionDescription"),
        // PostgreSQL's text cannot hold a NUL: refused on either store (it was a 500 on PostgreSQL).
        Invalid(#"{"sessionDescription": "nightly\u0000"}"#, 422, "invalid-value", "sessionDescription"),
    ]

    static let delegateValues: [Invalid] = [
        Invalid(
            #"{"delegate": {"secret": "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}"#, 422, "invalid-value", "delegate.secret"),
        Invalid(#"{"delegate": {"url": "ftp://consumer.example/h"}}"#, 422, "invalid-value", "delegate.url"),
        Invalid(#"{"delegate": {"url": "not a url"}}"#, 422, "invalid-value", "delegate.url"),
        Invalid(#"{"delegate": {"url": "https://a.example/h", "secret": "hunter2"}}"#, 422, "invalid-value", "delegate.secret"),
        Invalid(
            #"{"delegate": {"url": "https://a.example/h", "secret": "whsec_AAAAAAAAAAA="}}"#,
            422, "invalid-value", "delegate.secret"),
        Invalid(
            #"{"delegate": {"url": "https://a.example/h", "events": ["*", "task.didSomethingElse"]}}"#,
            422, "invalid-value", "delegate.events[1]"),
        Invalid(
            #"{"delegate": {"url": "https://a.example/h", "decisions": ["task.didCompleteWithError"]}}"#,
            422, "invalid-value", "delegate.decisions[0]"),
        Invalid(#"{"delegate": {"url": "https://a.example/h", "decisionTimeout": 0}}"#, 422, "invalid-value", "delegate.decisionTimeout"),
        Invalid(
            #"{"delegate": {"url": "https://a.example/h", "progressInterval": -0.5}}"#,
            422, "invalid-value", "delegate.progressInterval"),
        Invalid(#"{"delegate": {"url": "https://a.example/h", "progressStep": -0.1}}"#, 422, "invalid-value", "delegate.progressStep"),
    ]

    /// Sends every case, checks its problem, and checks that the tenant's sessions did not change.
    func check(_ cases: [Invalid], api: API) async throws {
        let before = try await api.sessionIDs()
        for invalid in cases {
            let response = try await api.post("/v1/sessions", json: invalid.body)
            expectProblem(response, status: invalid.status, slug: invalid.slug, field: invalid.field)
        }
        #expect(try await api.sessionIDs() == before, "a rejected request created a session")
    }

    @Test(.timeLimit(.minutes(1)))
    func malformedUnknownAndMistypedBodiesAre400() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            try await api.createSession()
            try await check(Self.decoding, api: api)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidConfigurationValuesAre422() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            try await check(Self.configurationValues, api: API(service, client))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidDelegatesAre422() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            try await check(Self.delegateValues, api: API(service, client))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func mediaTypeRoutesAndMethodsAreChecked() async throws {
        try await withRunningService(environment: Tokens.environment) { service, client in
            let api = API(service, client)
            let id = try #require(try await api.createSession()["id"] as? String)

            let plain = try await api.post("/v1/sessions", bytes: Array("{}".utf8), contentType: "text/plain")
            expectProblem(plain, status: 415, slug: "unsupported-media-type")
            let form = try await api.post("/v1/sessions", bytes: Array("a=1".utf8), contentType: "application/x-www-form-urlencoded")
            expectProblem(form, status: 415, slug: "unsupported-media-type")
            let withCharset = try await api.post(
                "/v1/sessions", bytes: Array("{}".utf8), contentType: "application/json; charset=utf-8")
            #expect(withCharset.status == 201, "\(withCharset.text)")
            let created = try #require(try withCharset.json()["id"] as? String)

            for path in ["/v1/nothing", "/", "/v1/sessions/\(id)/nothing", "/v1/sessions/\(id)/flush/x", "/v2/sessions"] {
                expectProblem(try await api.get(path), status: 404, slug: "not-found")
            }
            let cases: [(String, String, Set<String>)] = [
                ("DELETE", "/v1/sessions", ["GET", "POST"]),
                ("PUT", "/v1/sessions/\(id)", ["GET"]),
                ("GET", "/v1/sessions/\(id)/flush", ["POST"]),
                ("PATCH", "/v1/blobs", ["POST"]),
                ("POST", "/healthz", ["GET"]),
            ]
            for (method, path, required) in cases {
                var request = TestHTTPRequest(method: method, url: service.baseURL + path, body: Array("{}".utf8))
                request.headers = [("Authorization", "Bearer \(Tokens.tenantA)"), ("Content-Type", "application/json")]
                let response = try await client.send(request)
                expectProblem(response, status: 405, slug: "method-not-allowed")
                let allow = Set(
                    (response.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(required.isSubset(of: allow), "\(method) \(path): Allow \(allow)")
                #expect(!allow.contains(method))
            }
            #expect(try await api.sessionIDs() == [id, created])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func jsonBodiesOverTheLimitAre413() async throws {
        let environment = Tokens.environment.merging(["URLSESSIOND_MAX_JSON_BODY": "1024"]) { $1 }
        try await withRunningService(environment: environment) { service, client in
            let api = API(service, client)
            let big = #"{"sessionDescription": ""# + String(repeating: "x", count: 4096) + #""}"#
            expectProblem(try await api.post("/v1/sessions", json: big), status: 413, slug: "payload-too-large")
            // The limit is on the body, however it is framed: chunked bodies are cut off as well.
            var raw = Array(
                ("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Tokens.tenantA)\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + String(big.utf8.count, radix: 16) + "\r\n").utf8)
            raw += Array(big.utf8) + Array("\r\n0\r\n\r\n".utf8)
            let reply = String(decoding: try await client.sendRaw(port: service.port, bytes: raw, timeout: 10), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(300))")
            #expect(try await api.sessionIDs().isEmpty)

            let small = #"{"sessionDescription": ""# + String(repeating: "x", count: 900) + #""}"#
            #expect(try await api.post("/v1/sessions", json: small).status == 201)
        }
    }
}
