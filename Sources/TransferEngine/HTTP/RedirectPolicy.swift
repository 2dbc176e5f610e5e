import Foundation

/// URLSession's rules for following a redirect, as a pure function of the response and the request.
public enum RedirectPolicy {
    /// URLSession follows at most this many redirects; the next one fails with `httpTooManyRedirects`.
    public static let maximumRedirects = 16

    /// What the next request looks like, or nil when the response is final (300, 304, no Location...).
    ///
    /// - 301 and 302 turn POST into GET (dropping the body); 303 turns every method but HEAD into GET;
    ///   307 and 308 keep the method and the body.
    /// - `Authorization` and `Cookie` never travel to another origin.
    public static func nextRequest(status: Int, location: String?, request: OutgoingRequest) -> OutgoingRequest? {
        guard [301, 302, 303, 307, 308].contains(status), let location, !location.isEmpty,
            let target = resolve(location, against: request.url)
        else { return nil }
        var next = request
        next.url = target
        switch status {
        case 301 where request.method == "POST", 302 where request.method == "POST":
            next.method = "GET"
            next.dropBody()
        case 303 where request.method != "HEAD" && request.method != "GET":
            next.method = "GET"
            next.dropBody()
        default:
            break
        }
        if origin(of: target) != origin(of: request.url) {
            next.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
        }
        return next
    }

    /// `Location` resolved against the request URL (relative references are allowed, RFC 9110 §10.2.2);
    /// only http and https targets are followed.
    static func resolve(_ location: String, against base: String) -> String? {
        guard let baseURL = URL(string: base), let url = URL(string: location, relativeTo: baseURL)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        // A fragment of the original request carries over when the Location has none (RFC 9110).
        if url.fragment == nil, let fragment = baseURL.fragment, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.fragment = fragment
            return components.string ?? url.absoluteString
        }
        return url.absoluteString
    }

    /// scheme://host:port with the default port filled in.
    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return url }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(components.host?.lowercased() ?? ""):\(port)"
    }
}

/// The request the engine sends: what redirects and delegate decisions may change.
public struct OutgoingRequest: Sendable, Hashable {
    public enum Body: Sendable, Hashable {
        case none
        case bytes([UInt8])
        /// `length` bytes of a file (a blob), re-readable for 307/308 and retries.
        case file(path: String, length: Int64)
        /// Bytes a client is still sending (`uploadTask(withStreamedRequest:)`): read once, never rewound.
        case stream(UploadStream)

        var isStream: Bool {
            if case .stream = self { true } else { false }
        }

        /// -1 when unknown (a stream without a declared length goes chunked).
        public var length: Int64 {
            switch self {
            case .none: 0
            case .bytes(let bytes): Int64(bytes.count)
            case .file(_, let length): length
            case .stream(let stream): stream.declaredLength ?? -1
            }
        }
    }

    public var url: String
    public var method: String
    /// In send order; names as given (HTTP is case-insensitive).
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(url: String, method: String, headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    /// A GET after a redirect has no body, and no headers that described it.
    mutating func dropBody() {
        body = .none
        headers.removeAll { ["content-type", "content-length", "content-encoding", "transfer-encoding"].contains($0.name.lowercased()) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.url == rhs.url && lhs.method == rhs.method && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(method)
    }
}
