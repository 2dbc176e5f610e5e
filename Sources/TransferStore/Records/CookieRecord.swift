public import Foundation
import JSONCodec

/// A row of `cookie`: one persistent cookie of a storage (the tenant's shared one, or a session's
/// private one). Session cookies, and the storages of ephemeral sessions, never reach the disk.
public struct CookieRecord: Codable, Sendable, Hashable {
    /// `tenant <name>` or `session <id>`.
    public var storage: String
    /// The session of a private storage (its rows go with it); nil for the tenant's shared storage.
    public var sessionId: String?
    public var name: String
    public var domain: String
    public var path: String
    public var value: String
    public var isHostOnly: Bool
    public var expiresAt: Date
    public var isSecure: Bool
    public var isHTTPOnly: Bool
    public var sameSite: String?
    public var createdAt: Date
    public var lastAccessAt: Date

    public init(
        storage: String, sessionId: String?, name: String, domain: String, path: String, value: String,
        isHostOnly: Bool, expiresAt: Date, isSecure: Bool, isHTTPOnly: Bool, sameSite: String?, createdAt: Date,
        lastAccessAt: Date
    ) {
        (self.storage, self.sessionId, self.name, self.domain, self.path) = (storage, sessionId, name, domain, path)
        (self.value, self.isHostOnly, self.expiresAt) = (value, isHostOnly, expiresAt)
        (self.isSecure, self.isHTTPOnly, self.sameSite) = (isSecure, isHTTPOnly, sameSite)
        (self.createdAt, self.lastAccessAt) = (createdAt, lastAccessAt)
    }
}
