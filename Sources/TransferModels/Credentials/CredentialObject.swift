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
    /// `password` (a user and password) or `identity` (a client certificate and its key).
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

    public init(
        id: String, protectionSpace: ProtectionSpace, kind: String, user: String?, hasPassword: Bool,
        persistence: CredentialPersistence, sessionId: String?, isDefault: Bool, createdAt: Date
    ) {
        (self.id, self.protectionSpace, self.kind, self.user, self.hasPassword) = (id, protectionSpace, kind, user, hasPassword)
        (self.persistence, self.sessionId, self.isDefault, self.createdAt) = (persistence, sessionId, isDefault, createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, protectionSpace, kind, user, hasPassword, persistence, sessionId, isDefault, createdAt
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
        public var identity: Identity?
        public var persistence: CredentialPersistence?
    }

    /// A client identity: its certificate chain (PEM, leaf first) and private key (PEM, encrypted when a
    /// passphrase is given).
    public struct Identity: Decodable, Sendable {
        public var certificateChain: String
        public var privateKey: String
        public var passphrase: String?
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
        if let realm = space.realm, realm.count > 1024 { throw .invalidValue("protectionSpace.realm", "at most 1024 characters") }
        result.protectionSpace.host = space.host.lowercased()
        result.protectionSpace.protocol = space.protocol.lowercased()
        if space.authenticationMethod == ProtectionSpace.clientCertificate {
            try Self.validate(identity: credential, protocol: result.protectionSpace.protocol)
        } else {
            guard ProtectionSpace.passwordMethods.contains(space.authenticationMethod) else {
                throw .invalidValue(
                    "protectionSpace.authenticationMethod",
                    "must be \(ProtectionSpace.clientCertificate) or one a user and password answer: "
                        + ProtectionSpace.passwordMethods.sorted().joined(separator: ", "))
            }
            if credential.identity != nil { throw .invalidValue("credential.identity", "only for \(ProtectionSpace.clientCertificate)") }
            guard let user = credential.user, !user.isEmpty, user.count <= 1024 else {
                throw .invalidValue("credential.user", "must be 1 to 1024 characters")
            }
            guard let password = credential.password else { throw .missingField("credential.password") }
            guard password.count <= 4096 else { throw .invalidValue("credential.password", "at most 4096 characters") }
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

    /// A client identity: PEM certificate chain and private key, no user or password; https only.
    private static func validate(identity credential: Credential, protocol: String) throws(RequestDecodingError) {
        guard `protocol` == "https" else { throw .invalidValue("protectionSpace.protocol", "a client certificate is for https") }
        guard credential.user == nil, credential.password == nil else {
            throw .invalidValue("credential", "a client certificate takes identity, not user and password")
        }
        guard let identity = credential.identity else { throw .missingField("credential.identity") }
        guard identity.certificateChain.contains("-----BEGIN CERTIFICATE-----"), identity.certificateChain.utf8.count <= 65_536 else {
            throw .invalidValue("credential.identity.certificateChain", "must be PEM certificates (at most 64 KiB)")
        }
        guard identity.privateKey.contains("PRIVATE KEY-----"), identity.privateKey.utf8.count <= 16_384 else {
            throw .invalidValue("credential.identity.privateKey", "must be a PEM private key (at most 16 KiB)")
        }
        if let passphrase = identity.passphrase, passphrase.count > 1024 {
            throw .invalidValue("credential.identity.passphrase", "at most 1024 characters")
        }
    }
}
