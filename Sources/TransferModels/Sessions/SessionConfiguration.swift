/// A session's normalized configuration: every `URLSessionConfiguration` property the service honours,
/// each with its effective value. Immutable once the session exists.
public struct SessionConfiguration: Codable, Sendable, Hashable {
    public var kind: SessionKind
    /// The background session's identifier; null for the other kinds.
    public var identifier: String?
    /// Headers added to every request unless the request sets the same name.
    public var httpAdditionalHeaders: [String: String]
    /// Idle timeout in seconds, reset by every byte.
    public var timeoutIntervalForRequest: Double
    /// Bound on a whole task in seconds, across redirects and retries.
    public var timeoutIntervalForResource: Double
    public var httpMaximumConnectionsPerHost: Int
    public var httpShouldUsePipelining: Bool
    public var requestCachePolicy: RequestCachePolicy
    /// Null: the session caches nothing.
    public var urlCache: URLCacheConfiguration?
    public var httpShouldSetCookies: Bool
    public var httpCookieAcceptPolicy: HTTPCookieAcceptPolicy
    public var httpCookieStorage: StorageScope
    public var urlCredentialStorage: StorageScope
    public var allowsCellularAccess: Bool
    public var allowsExpensiveNetworkAccess: Bool
    public var allowsConstrainedNetworkAccess: Bool
    public var waitsForConnectivity: Bool
    public var isDiscretionary: Bool
    public var sessionSendsLaunchEvents: Bool
    public var shouldUseExtendedBackgroundIdleMode: Bool
    /// App extensions' shared container, accepted and kept with no effect (a server has no app group).
    public var sharedContainerIdentifier: String?
    /// Always false: names are resolved by the system's `getaddrinfo` through libcurl, which says nothing
    /// of DNSSEC, so a session that requires it is refused rather than given an unvalidated lookup.
    public var requiresDNSSECValidation: Bool { false }
    public var tlsMinimumSupportedProtocolVersion: TLSProtocolVersion
    public var tlsMaximumSupportedProtocolVersion: TLSProtocolVersion
    /// Declarative server trust: public-key pins every TLS connection of the session must match (no
    /// challenge round trip). Null: the system evaluation alone.
    public var serverTrust: ServerTrustConfiguration?
    public var connectionProxyDictionary: ProxyDictionary?
    public var networkServiceType: NetworkServiceType
    /// Multipath TCP (`none` unless set). Optional in storage so sessions stored before it read as `none`.
    public var multipathServiceType: MultipathServiceType {
        get { storedMultipathServiceType ?? .none }
        set { storedMultipathServiceType = newValue }
    }
    private var storedMultipathServiceType: MultipathServiceType?
    /// The session's default for its download tasks' `segments` (beyond URLSession); null: one connection.
    public var segments: SegmentsConfiguration?
    /// The session's bandwidth limit (beyond URLSession), shared fairly by its transfers; null: none.
    public var rateLimit: RateLimit?

    /// URLSession's defaults for `kind` (`.default`, `.ephemeral`, `.background(withIdentifier:)`).
    public init(kind: SessionKind, identifier: String? = nil) {
        self.kind = kind
        self.identifier = identifier
        self.httpAdditionalHeaders = [:]
        self.timeoutIntervalForRequest = 60
        self.timeoutIntervalForResource = 604_800
        self.httpMaximumConnectionsPerHost = 6
        self.httpShouldUsePipelining = false
        self.requestCachePolicy = .useProtocolCachePolicy
        self.urlCache = kind == .ephemeral ? .memoryOnly : .shared
        self.httpShouldSetCookies = true
        self.httpCookieAcceptPolicy = .onlyFromMainDocumentDomain
        self.httpCookieStorage = kind == .ephemeral ? .private : .shared
        self.urlCredentialStorage = kind == .ephemeral ? .private : .shared
        self.allowsCellularAccess = true
        self.allowsExpensiveNetworkAccess = true
        self.allowsConstrainedNetworkAccess = true
        self.waitsForConnectivity = kind == .background
        self.isDiscretionary = false
        self.sessionSendsLaunchEvents = true
        self.shouldUseExtendedBackgroundIdleMode = false
        self.tlsMinimumSupportedProtocolVersion = .TLSv12
        self.tlsMaximumSupportedProtocolVersion = .TLSv13
        self.connectionProxyDictionary = nil
        self.networkServiceType = .default
    }

    enum CodingKeys: String, CodingKey {
        case kind, identifier, httpAdditionalHeaders, timeoutIntervalForRequest, timeoutIntervalForResource
        case httpMaximumConnectionsPerHost, httpShouldUsePipelining, requestCachePolicy, urlCache
        case httpShouldSetCookies, httpCookieAcceptPolicy, httpCookieStorage, urlCredentialStorage
        case allowsCellularAccess, allowsExpensiveNetworkAccess, allowsConstrainedNetworkAccess
        case waitsForConnectivity, isDiscretionary, sessionSendsLaunchEvents, shouldUseExtendedBackgroundIdleMode
        case sharedContainerIdentifier
        case tlsMinimumSupportedProtocolVersion, tlsMaximumSupportedProtocolVersion
        case connectionProxyDictionary, networkServiceType, serverTrust, segments, rateLimit
        case storedMultipathServiceType = "multipathServiceType"
    }

    /// Properties with one possible value here: written for clients, never read back.
    enum ConstantKeys: String, CodingKey {
        case requiresDNSSECValidation
    }

    /// Encodes every property, the absent ones as explicit `null`, so clients see the full configuration.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(httpAdditionalHeaders, forKey: .httpAdditionalHeaders)
        try c.encode(timeoutIntervalForRequest, forKey: .timeoutIntervalForRequest)
        try c.encode(timeoutIntervalForResource, forKey: .timeoutIntervalForResource)
        try c.encode(httpMaximumConnectionsPerHost, forKey: .httpMaximumConnectionsPerHost)
        try c.encode(httpShouldUsePipelining, forKey: .httpShouldUsePipelining)
        try c.encode(requestCachePolicy, forKey: .requestCachePolicy)
        try c.encode(urlCache, forKey: .urlCache)
        try c.encode(httpShouldSetCookies, forKey: .httpShouldSetCookies)
        try c.encode(httpCookieAcceptPolicy, forKey: .httpCookieAcceptPolicy)
        try c.encode(httpCookieStorage, forKey: .httpCookieStorage)
        try c.encode(urlCredentialStorage, forKey: .urlCredentialStorage)
        try c.encode(allowsCellularAccess, forKey: .allowsCellularAccess)
        try c.encode(allowsExpensiveNetworkAccess, forKey: .allowsExpensiveNetworkAccess)
        try c.encode(allowsConstrainedNetworkAccess, forKey: .allowsConstrainedNetworkAccess)
        try c.encode(waitsForConnectivity, forKey: .waitsForConnectivity)
        try c.encode(isDiscretionary, forKey: .isDiscretionary)
        try c.encode(sessionSendsLaunchEvents, forKey: .sessionSendsLaunchEvents)
        try c.encode(shouldUseExtendedBackgroundIdleMode, forKey: .shouldUseExtendedBackgroundIdleMode)
        try c.encode(sharedContainerIdentifier, forKey: .sharedContainerIdentifier)
        var constants = encoder.container(keyedBy: ConstantKeys.self)
        try constants.encode(requiresDNSSECValidation, forKey: .requiresDNSSECValidation)
        try c.encode(tlsMinimumSupportedProtocolVersion, forKey: .tlsMinimumSupportedProtocolVersion)
        try c.encode(tlsMaximumSupportedProtocolVersion, forKey: .tlsMaximumSupportedProtocolVersion)
        try c.encode(connectionProxyDictionary, forKey: .connectionProxyDictionary)
        try c.encode(networkServiceType, forKey: .networkServiceType)
        try c.encode(multipathServiceType, forKey: .storedMultipathServiceType)
        try c.encode(serverTrust, forKey: .serverTrust)
        try c.encode(segments, forKey: .segments)
        try c.encode(rateLimit, forKey: .rateLimit)
    }
}
