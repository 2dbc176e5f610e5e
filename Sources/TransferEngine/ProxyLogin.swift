/// The login a job's proxy takes (`connectionProxyDictionary`'s `SOCKSUser` and `SOCKSPassword`):
/// libcurl's `CURLOPT_PROXYUSERNAME` and `CURLOPT_PROXYPASSWORD`, which a SOCKS5 proxy gets in RFC 1929's
/// username/password sub-negotiation. Kept apart from the proxy URL so that no URL, log line or event
/// carries it; its descriptions never show the password.
public struct ProxyLogin: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "ProxyLogin(user: <redacted>, password: <redacted>)" }
    public var debugDescription: String { description }
}
