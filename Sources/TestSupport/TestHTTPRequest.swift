/// One HTTP request for ``HTTPClient``: plain values, so tests can build, copy and log them freely.
public struct TestHTTPRequest: Sendable {
    /// The request method, sent exactly as written (`GET`, `POST`, `PATCH`, `BREW`…).
    public var method: String
    /// The absolute `http://` or `https://` URL.
    public var url: String
    /// Header fields in order. An empty value sends the field with no value.
    ///
    /// Unless these name them, the client removes curl's implicit `Expect: 100-continue` and, when a body is
    /// sent, its implicit `Content-Type: application/x-www-form-urlencoded`, so the server sees only what the
    /// test asked for (plus `Host`, `Accept: */*` and `Content-Length`).
    public var headers: [(String, String)]
    /// The body, or `nil` for none. An empty array sends `Content-Length: 0`.
    public var body: [UInt8]?
    /// Seconds the whole exchange may take (`CURLOPT_TIMEOUT_MS`).
    public var timeout: Double

    /// Creates a request from its parts.
    public init(
        method: String,
        url: String,
        headers: [(String, String)] = [],
        body: [UInt8]? = nil,
        timeout: Double = 30
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A `GET` request, with `Authorization: Bearer <token>` when `token` is given.
    public static func get(_ url: String, token: String? = nil, headers: [(String, String)] = []) -> Self {
        Self(method: "GET", url: url, headers: Self.authorized(headers, token: token))
    }

    /// A `HEAD` request; the response has no body.
    public static func head(_ url: String, token: String? = nil, headers: [(String, String)] = []) -> Self {
        Self(method: "HEAD", url: url, headers: Self.authorized(headers, token: token))
    }

    /// A `DELETE` request without a body.
    public static func delete(_ url: String, token: String? = nil, headers: [(String, String)] = []) -> Self {
        Self(method: "DELETE", url: url, headers: Self.authorized(headers, token: token))
    }

    /// A `POST` of a JSON text with `Content-Type: application/json`.
    public static func post(
        _ url: String, json: String, token: String? = nil, headers: [(String, String)] = []
    ) -> Self {
        Self.json("POST", url, json: json, token: token, headers: headers)
    }

    /// A `POST` of raw bytes with the given `Content-Type`.
    public static func post(
        _ url: String, body: [UInt8], contentType: String, token: String? = nil, headers: [(String, String)] = []
    ) -> Self {
        Self(
            method: "POST", url: url,
            headers: Self.authorized([("Content-Type", contentType)] + headers, token: token), body: body)
    }

    /// A `PUT` of a JSON text with `Content-Type: application/json`.
    public static func put(
        _ url: String, json: String, token: String? = nil, headers: [(String, String)] = []
    ) -> Self {
        Self.json("PUT", url, json: json, token: token, headers: headers)
    }

    /// A `PUT` of raw bytes with the given `Content-Type`.
    public static func put(
        _ url: String, body: [UInt8], contentType: String, token: String? = nil, headers: [(String, String)] = []
    ) -> Self {
        Self(
            method: "PUT", url: url,
            headers: Self.authorized([("Content-Type", contentType)] + headers, token: token), body: body)
    }

    /// A `PATCH` of a JSON text with `Content-Type: application/json`.
    public static func patch(
        _ url: String, json: String, token: String? = nil, headers: [(String, String)] = []
    ) -> Self {
        Self.json("PATCH", url, json: json, token: token, headers: headers)
    }

    private static func json(
        _ method: String, _ url: String, json: String, token: String?, headers: [(String, String)]
    ) -> Self {
        Self(
            method: method, url: url,
            headers: Self.authorized([("Content-Type", "application/json")] + headers, token: token),
            body: Array(json.utf8))
    }

    private static func authorized(_ headers: [(String, String)], token: String?) -> [(String, String)] {
        guard let token else { return headers }
        return headers + [("Authorization", "Bearer \(token)")]
    }

    /// The first value of a header field named `name`, compared case-insensitively.
    func header(_ name: String) -> String? {
        self.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
