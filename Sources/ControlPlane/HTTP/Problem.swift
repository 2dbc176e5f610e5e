import JSONCodec
public import TransferModels

/// An API error as RFC 9457 `application/problem+json`: the only error body the API sends.
public struct Problem: Error, Sendable, Encodable {
    /// `urn:urlsessiond:problem:<slug>`.
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// The offending field as a dotted path from the body's root, a query parameter or a header name.
    public var field: String?
    /// Extra response headers (`WWW-Authenticate`, `Allow`).
    public var headers: [(name: String, value: String)] = []
    /// A refused quota: which one, its limit, and the tenant's usage (`quota-exceeded` only).
    public var quota: QuotaExceeded?

    public init(status: Int, slug: String, title: String, detail: String, field: String? = nil) {
        self.type = "urn:urlsessiond:problem:\(slug)"
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
    }

    /// A label without values, for metrics.
    public var shortDescription: String { String(type.dropFirst("urn:urlsessiond:problem:".count)) }

    enum CodingKeys: String, CodingKey { case type, title, status, detail, field, quota, limit, usage }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(title, forKey: .title)
        try c.encode(status, forKey: .status)
        try c.encode(detail, forKey: .detail)
        try c.encodeIfPresent(field, forKey: .field)
        if let quota {
            try c.encode(quota.quota.rawValue, forKey: .quota)
            try c.encode(quota.limit, forKey: .limit)
            try c.encode(quota.usage, forKey: .usage)
        }
    }

    public var response: HTTPResponse {
        let body = (try? WireJSON.encode(self)) ?? Array(#"{"status":500}"#.utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/problem+json")] + headers, body: .bytes(body))
    }
}

extension Problem {
    public static func notFound(_ detail: String = "no such resource") -> Problem {
        Problem(status: 404, slug: "not-found", title: "Not Found", detail: detail)
    }

    public static func unauthorized(_ detail: String) -> Problem {
        var problem = Problem(status: 401, slug: "unauthorized", title: "Unauthorized", detail: detail)
        problem.headers = [("WWW-Authenticate", #"Bearer realm="urlsessiond""#)]
        return problem
    }

    public static func forbidden(_ detail: String) -> Problem {
        Problem(status: 403, slug: "forbidden", title: "Forbidden", detail: detail)
    }

    public static func methodNotAllowed(allowed: [String]) -> Problem {
        var problem = Problem(
            status: 405, slug: "method-not-allowed", title: "Method Not Allowed",
            detail: "this resource accepts \(allowed.joined(separator: ", "))")
        problem.headers = [("Allow", allowed.joined(separator: ", "))]
        return problem
    }

    public static func conflict(_ detail: String, slug: String = "conflict") -> Problem {
        Problem(status: 409, slug: slug, title: "Conflict", detail: detail)
    }

    public static func payloadTooLarge(limit: Int64) -> Problem {
        Problem(status: 413, slug: "payload-too-large", title: "Payload Too Large", detail: "the body exceeds the limit of \(limit) bytes")
    }

    /// The request's target (path and query) is over `limit` bytes.
    static func uriTooLong(limit: Int) -> Problem {
        Problem(status: 414, slug: "uri-too-long", title: "URI Too Long", detail: "the request's path and query exceed \(limit) bytes")
    }

    /// The request's header fields are over `limit` bytes in all.
    static func headerFieldsTooLarge(limit: Int) -> Problem {
        Problem(
            status: 431, slug: "header-fields-too-large", title: "Request Header Fields Too Large",
            detail: "the request's header fields exceed \(limit) bytes in all")
    }

    /// A tenant's quota is reached: 429 for counts (sessions, tasks, blobs, streams), 507 for bytes.
    public static func quotaExceeded(_ exceeded: QuotaExceeded) -> Problem {
        let (status, title) = exceeded.quota.isByteCount ? (507, "Insufficient Storage") : (429, "Too Many Requests")
        var problem = Problem(
            status: status, slug: "quota-exceeded", title: title,
            detail: "the tenant's \(exceeded.quota.rawValue) quota is \(exceeded.limit) and \(exceeded.usage) are in use")
        problem.quota = exceeded
        return problem
    }

    public static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(status: 415, slug: "unsupported-media-type", title: "Unsupported Media Type", detail: detail)
    }

    public static func invalidValue(_ field: String, _ detail: String) -> Problem {
        Problem(status: 422, slug: "invalid-value", title: "Invalid Value", detail: detail, field: field)
    }

    /// `?after=` is not a cursor this list gave this tenant (altered, made up, another list's or tenant's).
    public static func invalidCursor(_ detail: String) -> Problem {
        Problem(status: 400, slug: "invalid-cursor", title: "Invalid Cursor", detail: detail, field: "after")
    }

    public static func notImplemented(_ what: String) -> Problem {
        Problem(status: 501, slug: "not-implemented", title: "Not Implemented", detail: "\(what) is not implemented yet")
    }

    public static let internalError = Problem(
        status: 500, slug: "internal", title: "Internal Server Error",
        detail: "the request failed inside the service; the log has the cause under this request id")

    public static let shuttingDown = Problem(
        status: 503, slug: "shutting-down", title: "Service Unavailable", detail: "the service is shutting down")
}
