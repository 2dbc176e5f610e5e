public import Certificates
public import TransferModels

/// A challenge a transfer meets, as `URLAuthenticationChallenge` describes it: an HTTP one (a 401 with
/// `WWW-Authenticate`, or a proxy's 407 with `Proxy-Authenticate`) or a TLS one (the server's certificate
/// chain to evaluate, or the server asking for a client certificate).
public struct AuthenticationChallenge: Sendable {
    /// The authentication method, by the suffix of Apple's `NSURLAuthenticationMethod…` constant.
    public enum Method: String, Sendable, CaseIterable {
        case basic = "HTTPBasic"
        case digest = "HTTPDigest"
        case ntlm = "NTLM"
        case negotiate = "Negotiate"
        case clientCertificate = "ClientCertificate"
        case serverTrust = "ServerTrust"

        /// The scheme word of a `WWW-Authenticate` offer that names this method; nil for the TLS ones.
        var httpScheme: String? {
            switch self {
            case .basic: "basic"
            case .digest: "digest"
            case .ntlm: "ntlm"
            case .negotiate: "negotiate"
            case .clientCertificate, .serverTrust: nil
            }
        }

        /// HTTP methods the strongest first: the order CFNetwork tries what a server offers in.
        static let httpByStrength: [Method] = [.negotiate, .ntlm, .digest, .basic]

        /// Whether URLSession hands the challenge to the session's delegate method first: those about
        /// a connection rather than a request (server trust, client certificates, NTLM, Negotiate).
        public var isSessionLevel: Bool { self == .serverTrust || self == .clientCertificate || self == .ntlm || self == .negotiate }

        public var authenticationMethod: String { "NSURLAuthenticationMethod" + rawValue }
    }

    public var method: Method
    public var realm: String?
    public var host: String
    public var port: Int
    /// `http` or `https`.
    public var `protocol`: String
    /// A proxy's challenge (a 407 with `Proxy-Authenticate`): `host` and `port` are the proxy's.
    public var isProxy = false
    /// How many credentials for this protection space have already failed in this task.
    public var previousFailureCount: Int
    /// The 401 or 407 response; nil for a TLS challenge (no response yet).
    public var failureResponse: ResponseHead?
    /// The request that met the challenge.
    public var request: OutgoingRequest
    /// A server-trust challenge's chain and the system's evaluation of it.
    public var serverTrust: ServerTrust?

    /// `URLProtectionSpace` of the challenge.
    public var protectionSpace: ProtectionSpace {
        ProtectionSpace(
            host: host, port: port, protocol: self.protocol, realm: realm, authenticationMethod: method.authenticationMethod,
            isProxy: isProxy)
    }
}

/// What a server-trust challenge carries (`SecTrust`): the chain the server presented, leaf first, and the
/// evaluation of the system trust store (plus the service's and session's anchors).
public struct ServerTrust: Sendable {
    public var chain: [CertificateDetails]
    /// nil: trusted; otherwise why not, as the task would fail by default (-1202 and friends).
    public var failure: TransferFailure?
}

/// A credential the delegate answers a challenge with (`URLCredential`).
public enum ChallengeCredential: Sendable {
    /// A user and password (Basic, Digest, NTLM, proxies).
    case password(user: String, password: String)
    /// A client certificate and its key (`URLCredential(identity:certificates:persistence:)`).
    case identity(ClientIdentity)
    /// `URLCredential(trust:)`: the server's chain is accepted for this connection.
    case serverTrust
}

/// The delegate's answer to `didReceiveChallenge` (`URLSession.AuthChallengeDisposition`).
public enum ChallengeDisposition: Sendable {
    case useCredential(ChallengeCredential)
    /// What URLSession does without the method: the default credential stored for the space, once;
    /// without one (or after it failed), the 401 is the response. Server trust: the system's evaluation
    /// (and the trust exceptions stored for the host); a client certificate: the stored identity, or none.
    case performDefaultHandling
    /// The task ends as cancelled (-999).
    case cancelAuthenticationChallenge
    /// The protection space is refused: the next authentication method the response offered is
    /// challenged; when none is left, the 401 (or 407) is the response.
    case rejectProtectionSpace
}
