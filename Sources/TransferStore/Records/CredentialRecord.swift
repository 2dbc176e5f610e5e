public import Foundation

/// A row of `credential`: one `permanent` credential of a storage (the tenant's shared one, or a
/// session's private one). Its password is sealed with the service's key (`sealedPassword`); `forSession`
/// credentials, and every credential of an ephemeral session, never reach the store.
public struct CredentialRecord: Codable, Sendable, Hashable {
    public var id: String
    /// `tenant <name>` or `session <id>`, as the cookie storages.
    public var storage: String
    public var tenant: String
    /// The session of a private storage (its rows go with it); nil for the tenant's shared storage.
    public var sessionId: String?
    public var host: String
    public var port: Int
    public var `protocol`: String
    public var realm: String?
    public var authenticationMethod: String
    public var isProxy: Bool
    /// `password`, or `identity` (then `user` is empty and the sealed secret is the identity's JSON).
    public var kind: String
    public var user: String
    public var sealedPassword: Data
    public var isDefault: Bool
    public var createdAt: Date

    public init(
        id: String, storage: String, tenant: String, sessionId: String?, host: String, port: Int, protocol: String, realm: String?,
        authenticationMethod: String, isProxy: Bool, kind: String = "password", user: String, sealedPassword: Data,
        isDefault: Bool, createdAt: Date
    ) {
        (self.id, self.storage, self.tenant, self.sessionId) = (id, storage, tenant, sessionId)
        (self.host, self.port, self.protocol, self.realm) = (host, port, `protocol`, realm)
        (self.authenticationMethod, self.isProxy, self.kind, self.user) = (authenticationMethod, isProxy, kind, user)
        (self.sealedPassword, self.isDefault, self.createdAt) = (sealedPassword, isDefault, createdAt)
    }
}
