public import Foundation

/// Where the service runs and who the caller is: its base URL and a bearer token.
///
/// The one thing a ``RemoteURLSessionConfiguration`` has that `URLSessionConfiguration` does not.
public struct RemoteConnection: Sendable, Hashable {
    /// The service's base URL, e.g. `http://127.0.0.1:8080` (paths such as `/v1/sessions` are appended).
    public var url: URL
    /// The bearer token, one of the service's `URLSESSIOND_TOKENS`.
    public var token: String

    public init(url: URL, token: String) {
        self.url = url
        self.token = token
    }

    /// The connection named by `URLSESSIOND_URL` (default `http://127.0.0.1:8080`, the service's own default
    /// address) and `URLSESSIOND_TOKEN` (default empty: the service then answers 401).
    public static func environment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        let text = variables["URLSESSIOND_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://127.0.0.1:8080"
        let url = URL(string: text) ?? URL(string: "http://127.0.0.1:8080")!
        return Self(url: url, token: variables["URLSESSIOND_TOKEN"] ?? "")
    }
}
