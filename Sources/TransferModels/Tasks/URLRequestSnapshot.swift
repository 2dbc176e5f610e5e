public import Foundation

/// A `URLRequest` as the API reports it (`originalRequest`, `currentRequest`, redirect proposals):
/// every property with its effective value.
///
/// `httpBody` is the one property that is left out when there is none, as the `Request` schema says;
/// when present it is written `{"base64": "..."}`, the only form that holds any bytes exactly.
public struct URLRequestSnapshot: Codable, Sendable, Hashable {
    public var url: String
    public var httpMethod: String
    /// The request's own header fields. The session's `httpAdditionalHeaders` are not merged in: the
    /// engine adds them at send time under these (the request wins), as URLSession does.
    public var allHTTPHeaderFields: [String: String]
    public var httpBody: Data?
    /// Idle timeout in seconds.
    public var timeoutInterval: Double
    public var cachePolicy: RequestCachePolicy
    public var httpShouldHandleCookies: Bool
    /// Effective flags: the request's own AND the session's (a path is usable only if both allow it).
    public var allowsCellularAccess: Bool
    public var allowsExpensiveNetworkAccess: Bool
    public var allowsConstrainedNetworkAccess: Bool
    /// The page the request belongs to; left out when there is none (as `httpBody`).
    public var mainDocumentURL: String?
    /// `URLRequest.assumesHTTP3Capable`, accepted with no effect (no HTTP/3 in this libcurl); left out
    /// when false, so rows written before it read as false.
    public var assumesHTTP3Capable: Bool

    public init(
        url: String, httpMethod: String = "GET", allHTTPHeaderFields: [String: String] = [:], httpBody: Data? = nil,
        timeoutInterval: Double = 60, cachePolicy: RequestCachePolicy = .useProtocolCachePolicy,
        httpShouldHandleCookies: Bool = true, allowsCellularAccess: Bool = true,
        allowsExpensiveNetworkAccess: Bool = true, allowsConstrainedNetworkAccess: Bool = true,
        mainDocumentURL: String? = nil, assumesHTTP3Capable: Bool = false
    ) {
        self.url = url
        self.httpMethod = httpMethod
        self.allHTTPHeaderFields = allHTTPHeaderFields
        self.httpBody = httpBody
        self.timeoutInterval = timeoutInterval
        self.cachePolicy = cachePolicy
        self.httpShouldHandleCookies = httpShouldHandleCookies
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
        self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
        self.mainDocumentURL = mainDocumentURL
        self.assumesHTTP3Capable = assumesHTTP3Capable
    }

    /// The value of a header field of the request, looked up case-insensitively as URLRequest does.
    public func value(forHTTPHeaderField name: String) -> String? {
        if let value = allHTTPHeaderFields[name] { return value }
        let lowered = name.lowercased()
        return allHTTPHeaderFields.first { $0.key.lowercased() == lowered }?.value
    }

    enum CodingKeys: String, CodingKey {
        case url, httpMethod, allHTTPHeaderFields, httpBody, timeoutInterval, cachePolicy, httpShouldHandleCookies
        case allowsCellularAccess, allowsExpensiveNetworkAccess, allowsConstrainedNetworkAccess, mainDocumentURL
        case assumesHTTP3Capable
    }

    /// The `{"base64": ...}` wrapper of `httpBody`; the string is encoded by hand so that no encoder's
    /// data strategy can change it.
    private struct Base64Body: Codable {
        var base64: String
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decode(String.self, forKey: .url)
        httpMethod = try c.decode(String.self, forKey: .httpMethod)
        allHTTPHeaderFields = try c.decode([String: String].self, forKey: .allHTTPHeaderFields)
        if let body = try c.decodeIfPresent(Base64Body.self, forKey: .httpBody) {
            guard let data = Data(base64Encoded: body.base64) else {
                throw DecodingError.dataCorruptedError(forKey: .httpBody, in: c, debugDescription: "not valid base64")
            }
            httpBody = data
        }
        timeoutInterval = try c.decode(Double.self, forKey: .timeoutInterval)
        cachePolicy = try c.decode(RequestCachePolicy.self, forKey: .cachePolicy)
        httpShouldHandleCookies = try c.decode(Bool.self, forKey: .httpShouldHandleCookies)
        allowsCellularAccess = try c.decode(Bool.self, forKey: .allowsCellularAccess)
        allowsExpensiveNetworkAccess = try c.decode(Bool.self, forKey: .allowsExpensiveNetworkAccess)
        allowsConstrainedNetworkAccess = try c.decode(Bool.self, forKey: .allowsConstrainedNetworkAccess)
        mainDocumentURL = try c.decodeIfPresent(String.self, forKey: .mainDocumentURL)
        assumesHTTP3Capable = try c.decodeIfPresent(Bool.self, forKey: .assumesHTTP3Capable) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(httpMethod, forKey: .httpMethod)
        try c.encode(allHTTPHeaderFields, forKey: .allHTTPHeaderFields)
        if let httpBody { try c.encode(Base64Body(base64: httpBody.base64EncodedString()), forKey: .httpBody) }
        try c.encode(timeoutInterval, forKey: .timeoutInterval)
        try c.encode(cachePolicy, forKey: .cachePolicy)
        try c.encode(httpShouldHandleCookies, forKey: .httpShouldHandleCookies)
        try c.encode(allowsCellularAccess, forKey: .allowsCellularAccess)
        try c.encode(allowsExpensiveNetworkAccess, forKey: .allowsExpensiveNetworkAccess)
        try c.encode(allowsConstrainedNetworkAccess, forKey: .allowsConstrainedNetworkAccess)
        if let mainDocumentURL { try c.encode(mainDocumentURL, forKey: .mainDocumentURL) }
        if assumesHTTP3Capable { try c.encode(true, forKey: .assumesHTTP3Capable) }
    }
}
