import Foundation
public import JSONCodec

/// `request` as a client sends it: only `url` is required; the rest falls back to the session's
/// configuration or URLRequest's defaults in `validated(at:kind:session:allowedSchemes:)`.
public struct URLRequestInput: Decodable, Sendable, Hashable {
    public var url: String?
    public var httpMethod: String?
    public var allHTTPHeaderFields: [String: String]?
    public var httpBody: HTTPBodyInput?
    public var timeoutInterval: Double?
    public var cachePolicy: RequestCachePolicy?
    public var httpShouldHandleCookies: Bool?
    public var allowsCellularAccess: Bool?
    public var allowsExpensiveNetworkAccess: Bool?
    public var allowsConstrainedNetworkAccess: Bool?
    /// `mainDocumentURL`: the page the request belongs to (`httpCookieAcceptPolicy`
    /// `onlyFromMainDocumentDomain` keeps only cookies from its site).
    public var mainDocumentURL: String?
    /// `assumesHTTP3Capable`: kept and shown, with no effect here (this libcurl has no HTTP/3; see
    /// openapi.yaml's `Request`).
    public var assumesHTTP3Capable: Bool?
    /// `requiresDNSSECValidation`: false only, as the session's (see `SessionConfiguration`).
    public var requiresDNSSECValidation: Bool?

    public init(url: String? = nil) { self.url = url }

    /// The schemes accepted unless a caller passes more: URLSession's HTTP loaders only.
    public static let webSchemes: Set<String> = Validate.webSchemes

    /// The request with every property at its effective value, or the first invalid field.
    ///
    /// - `httpMethod` defaults to `GET`, or `POST` for upload tasks: `uploadTask(with:from:)` sends the
    ///   request's own method, and a client that names none means the usual upload verb.
    /// - `timeoutInterval` ← `timeoutIntervalForRequest`, `cachePolicy` ← `requestCachePolicy`,
    ///   `httpShouldHandleCookies` ← `httpShouldSetCookies`.
    /// - The `allows*` flags are the request's (default true) AND the session's, so the snapshot shows
    ///   what the transfer may actually use.
    /// - Headers are not merged with `httpAdditionalHeaders` here; a `json` body without a
    ///   `Content-Type` gets `application/json`, since only the client knew the bytes were JSON.
    ///
    /// - Parameters:
    ///   - path: where `request` sits in the body, for error field names.
    ///   - allowedSchemes: URL schemes accepted; `ftp`, `file` or `data` only when a caller opts in.
    public func validated(
        at path: String = "request", kind: TaskKind, session: SessionConfiguration,
        allowedSchemes: Set<String> = webSchemes
    ) throws(RequestDecodingError) -> URLRequestSnapshot {
        guard let url else { throw .missingField("\(path).url") }
        try Validate.requestURL(url, field: "\(path).url", schemes: allowedSchemes)

        let method = httpMethod ?? (kind == .upload ? "POST" : "GET")
        guard Validate.isToken(method), method.utf8.count <= 32 else {
            throw .invalidValue("\(path).httpMethod", "must be an HTTP method token of at most 32 characters")
        }

        var headers = allHTTPHeaderFields ?? [:]
        try Validate.requestHeaderFields(headers, field: "\(path).allHTTPHeaderFields")

        var body: Data?
        if let httpBody {
            body = try httpBody.bytes(field: "\(path).httpBody")
            let hasType = headers.keys.contains { $0.lowercased() == "content-type" }
            if let implied = httpBody.impliedContentType, !hasType {
                headers["Content-Type"] = implied
            }
        }

        if let mainDocumentURL { try Validate.httpURL(mainDocumentURL, field: "\(path).mainDocumentURL") }
        if requiresDNSSECValidation == true { throw Validate.dnssecRefusal(field: "\(path).requiresDNSSECValidation") }

        let timeout = timeoutInterval ?? session.timeoutIntervalForRequest
        if timeoutInterval != nil { try Validate.interval(timeout, field: "\(path).timeoutInterval", max: 604_800) }

        let cellular = (allowsCellularAccess ?? true) && session.allowsCellularAccess
        let expensive = (allowsExpensiveNetworkAccess ?? true) && session.allowsExpensiveNetworkAccess
        let constrained = (allowsConstrainedNetworkAccess ?? true) && session.allowsConstrainedNetworkAccess
        return URLRequestSnapshot(
            url: url, httpMethod: method, allHTTPHeaderFields: headers, httpBody: body, timeoutInterval: timeout,
            cachePolicy: cachePolicy ?? session.requestCachePolicy,
            httpShouldHandleCookies: httpShouldHandleCookies ?? session.httpShouldSetCookies,
            allowsCellularAccess: cellular, allowsExpensiveNetworkAccess: expensive,
            allowsConstrainedNetworkAccess: constrained, mainDocumentURL: mainDocumentURL,
            assumesHTTP3Capable: assumesHTTP3Capable ?? false)
    }
}
