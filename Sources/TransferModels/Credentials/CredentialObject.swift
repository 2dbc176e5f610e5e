public import Foundation
public import JSONCodec

/// `URLProtectionSpace`: where a credential applies.
public struct ProtectionSpace: Codable, Sendable, Hashable {
    public var host: String
    public var port: Int
    /// `http` or `https` (the scheme of the server, or of the proxy when `isProxy`).
    public var `protocol`: String
    public var realm: String?
    /// Apple's names: `NSURLAuthenticationMethodHTTPBasic`, `…HTTPDigest`, `…NTLM`, `…Negotiate`,
    /// `…ClientCertificate`, `…ServerTrust`, `…Default`.
    public var authenticationMethod: String
    public var isProxy: Bool

    public init(host: String, port: Int, protocol: String, realm: String?, authenticationMethod: String, isProxy: Bool = false) {
        (self.host, self.port, self.protocol, self.realm) = (host, port, `protocol`, realm)
        (self.authenticationMethod, self.isProxy) = (authenticationMethod, isProxy)
    }

    enum CodingKeys: String, CodingKey { case host, port, `protocol`, realm, authenticationMethod, isProxy }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        host = try c.decode(String.self, forKey: .host)
        port = try c.decode(Int.self, forKey: .port)
        `protocol` = try c.decode(String.self, forKey: .protocol)
        realm = try c.decodeIfPresent(String.self, forKey: .realm)
        authenticationMethod = try c.decode(String.self, forKey: .authenticationMethod)
        isProxy = try c.decodeIfPresent(Bool.self, forKey: .isProxy) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(host, forKey: .host)
        try c.encode(port, forKey: .port)
        try c.encode(`protocol`, forKey: .protocol)
        try c.encode(realm, forKey: .realm)
        try c.encode(authenticationMethod, forKey: .authenticationMethod)
        try c.encode(isProxy, forKey: .isProxy)
    }

    public static let clientCertificate = "NSURLAuthenticationMethodClientCertificate"
    public static let serverTrust = "NSURLAuthenticationMethodServerTrust"

    /// The methods a user and password answer.
    public static let passwordMethods: Set<String> = [
        "NSURLAuthenticationMethodHTTPBasic", "NSURLAuthenticationMethodHTTPDigest", "NSURLAuthenticationMethodNTLM",
        "NSURLAuthenticationMethodDefault", "NSURLAuthenticationMethodNegotiate",
    ]

    /// Whether a credential stored for this space answers a challenge for `other`: same host (without
    /// case), port, protocol, proxy-ness and method; a stored realm must match, an absent one matches any.
    public func covers(_ other: ProtectionSpace) -> Bool {
        host.caseInsensitiveCompare(other.host) == .orderedSame && port == other.port
            && `protocol`.caseInsensitiveCompare(other.protocol) == .orderedSame && isProxy == other.isProxy
            && (authenticationMethod == other.authenticationMethod
                || authenticationMethod == "NSURLAuthenticationMethodDefault"
                    && other.authenticationMethod.hasPrefix("NSURLAuthenticationMethodHTTP"))
            && (realm == nil || realm == other.realm)
    }
}

/// `URLCredential.Persistence`.
public enum CredentialPersistence: String, Codable, Sendable, CaseIterable {
    case none, forSession, permanent, synchronizable
}

/// A stored credential as the API shows it: never its secret.
public struct CredentialObject: Encodable, Sendable, Equatable {
    public var id: String
    public var protectionSpace: ProtectionSpace
    /// `password` (a user and password), `identity` (a client certificate and its key) or `serverTrust`
    /// (a trust exception).
    public var kind: String
    /// Null for an identity.
    public var user: String?
    public var hasPassword: Bool
    public var persistence: CredentialPersistence
    /// The session whose private storage holds it; nil for the tenant's shared storage.
    public var sessionId: String?
    /// The default credential of its protection space (`defaultCredential(for:)`).
    public var isDefault: Bool
    public var createdAt: Date
    /// An identity's leaf certificate (never its key).
    public var identity: IdentitySummary?
    /// A trust exception's digests (not secret).
    public var serverTrust: TrustException?

    /// What an identity shows: its leaf certificate.
    public struct IdentitySummary: Encodable, Sendable, Equatable {
        public var subject: String
        public var issuer: String
        public var sha256: String
        public var notValidAfter: Date

        public init(subject: String, issuer: String, sha256: String, notValidAfter: Date) {
            (self.subject, self.issuer, self.sha256, self.notValidAfter) = (subject, issuer, sha256, notValidAfter)
        }
    }

    public init(
        id: String, protectionSpace: ProtectionSpace, kind: String, user: String?, hasPassword: Bool,
        persistence: CredentialPersistence, sessionId: String?, isDefault: Bool, createdAt: Date,
        identity: IdentitySummary? = nil, serverTrust: TrustException? = nil
    ) {
        (self.id, self.protectionSpace, self.kind, self.user, self.hasPassword) = (id, protectionSpace, kind, user, hasPassword)
        (self.persistence, self.sessionId, self.isDefault, self.createdAt) = (persistence, sessionId, isDefault, createdAt)
        (self.identity, self.serverTrust) = (identity, serverTrust)
    }

    enum CodingKeys: String, CodingKey {
        case id, protectionSpace, kind, user, hasPassword, persistence, sessionId, isDefault, createdAt, identity, serverTrust
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(protectionSpace, forKey: .protectionSpace)
        try c.encode(kind, forKey: .kind)
        try c.encode(user, forKey: .user)
        try c.encode(hasPassword, forKey: .hasPassword)
        try c.encode(persistence, forKey: .persistence)
        try c.encode(sessionId, forKey: .sessionId)
        try c.encode(isDefault, forKey: .isDefault)
        try c.encode(createdAt, forKey: .createdAt)
        if let identity { try c.encode(identity, forKey: .identity) }
        if let serverTrust { try c.encode(serverTrust, forKey: .serverTrust) }
    }
}

/// `POST /v1/credentials`: `URLCredentialStorage.set(_:for:)` (and `setDefaultCredential(_:for:)` with
/// `isDefault`), in the tenant's shared storage or, with `sessionId`, in that session's private one.
public struct CredentialCreateRequest: Decodable, Sendable {
    public struct Credential: Decodable, Sendable {
        /// A user and password (every method but client certificates).
        public var user: String?
        public var password: String?
        /// A client identity (`NSURLAuthenticationMethodClientCertificate`).
        public var identity: IdentityInput?
        /// A server-trust exception (`NSURLAuthenticationMethodServerTrust`).
        public var serverTrust: TrustException?
        public var persistence: CredentialPersistence?
    }

    public var protectionSpace: ProtectionSpace
    public var credential: Credential
    public var sessionId: String?
    public var isDefault: Bool?
}

/// `PUT /v1/credentials/default`: `setDefaultCredential(_:for:)` of a stored credential, for its space.
public struct DefaultCredentialRequest: Decodable, Sendable {
    public var id: String
}

extension CredentialCreateRequest {
    /// The request checked, the first invalid field otherwise; `synchronizable` is kept as `permanent`
    /// (there is no keychain to synchronise with).
    public func validated() throws(RequestDecodingError) -> CredentialCreateRequest {
        var result = self
        let space = protectionSpace
        guard !space.host.isEmpty, space.host.count <= 253, !space.host.contains(where: { $0 == "/" || $0 == " " || $0 == "@" })
        else { throw .invalidValue("protectionSpace.host", "must be a host name or address") }
        try Validate.range(space.port, 1...65_535, field: "protectionSpace.port")
        guard ["http", "https"].contains(space.protocol.lowercased()) else {
            throw .invalidValue("protectionSpace.protocol", "must be http or https")
        }
        if let realm = space.realm { try Validate.text(realm, field: "protectionSpace.realm", maxCharacters: 1024) }
        result.protectionSpace.host = space.host.lowercased()
        result.protectionSpace.protocol = space.protocol.lowercased()
        switch space.authenticationMethod {
        case ProtectionSpace.clientCertificate:
            try requireTLSKind("identity")
            result.credential.identity = try credential.identity.unwrapped("credential.identity").validated(field: "credential.identity")
        case ProtectionSpace.serverTrust:
            try requireTLSKind("serverTrust")
            result.credential.serverTrust = try credential.serverTrust.unwrapped("credential.serverTrust")
                .validated(field: "credential.serverTrust")
        default:
            guard ProtectionSpace.passwordMethods.contains(space.authenticationMethod) else {
                throw .invalidValue(
                    "protectionSpace.authenticationMethod",
                    "must be \(ProtectionSpace.clientCertificate), \(ProtectionSpace.serverTrust) or one a user and password answer: "
                        + ProtectionSpace.passwordMethods.sorted().joined(separator: ", "))
            }
            if credential.identity != nil { throw .invalidValue("credential.identity", "only for \(ProtectionSpace.clientCertificate)") }
            if credential.serverTrust != nil { throw .invalidValue("credential.serverTrust", "only for \(ProtectionSpace.serverTrust)") }
            guard let user = credential.user, !user.isEmpty else { throw .invalidValue("credential.user", "must be 1 to 1024 characters") }
            try Validate.text(user, field: "credential.user", maxCharacters: 1024)
            guard let password = credential.password else { throw .missingField("credential.password") }
            try Validate.text(password, field: "credential.password", maxCharacters: 4096)
        }
        switch credential.persistence ?? .permanent {
        case .none:
            throw .invalidValue(
                "credential.persistence", "none keeps nothing: give such a credential in a challenge answer (useCredential)")
        case .synchronizable: result.credential.persistence = .permanent
        case let other: result.credential.persistence = other
        }
        return result
    }

    /// An identity or a trust exception: for https servers, and with no user, password or other kind.
    private func requireTLSKind(_ kind: String) throws(RequestDecodingError) {
        let space = protectionSpace
        guard space.protocol.lowercased() == "https" else {
            throw .invalidValue("protectionSpace.protocol", "\(space.authenticationMethod) is for https")
        }
        guard !space.isProxy else { throw .invalidValue("protectionSpace.isProxy", "\(space.authenticationMethod) is not for proxies") }
        guard credential.user == nil, credential.password == nil else {
            throw .invalidValue("credential", "\(space.authenticationMethod) takes \(kind), not user and password")
        }
        if kind != "identity", credential.identity != nil {
            throw .invalidValue("credential.identity", "only for \(ProtectionSpace.clientCertificate)")
        }
        if kind != "serverTrust", credential.serverTrust != nil {
            throw .invalidValue("credential.serverTrust", "only for \(ProtectionSpace.serverTrust)")
        }
    }
}

extension Optional {
    /// The value, or a missing-field error naming `field`.
    func unwrapped(_ field: String) throws(RequestDecodingError) -> Wrapped {
        guard let self else { throw .missingField(field) }
        return self
    }
}
