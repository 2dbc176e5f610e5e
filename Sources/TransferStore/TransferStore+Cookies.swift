public import Foundation
public import GRDB
import JSONCodec

/// A row of `cookie`: one persistent cookie of a storage (the tenant's shared one, or a session's
/// private one). Session cookies, and the storages of ephemeral sessions, never reach the disk.
public struct CookieRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, StoresDatesAsText {
    public static let databaseTableName = "cookie"

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

extension TransferStore {
    static func registerCookieMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-cookies") { db in
            try db.create(table: "cookie") { t in
                t.column("storage", .text).notNull()
                t.column("sessionId", .text).references("session", column: "id", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("domain", .text).notNull()
                t.column("path", .text).notNull()
                t.column("value", .text).notNull()
                t.column("isHostOnly", .boolean).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("isSecure", .boolean).notNull()
                t.column("isHTTPOnly", .boolean).notNull()
                t.column("sameSite", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("lastAccessAt", .datetime).notNull()
                t.primaryKey(["storage", "name", "domain", "path"])
            }
            try db.create(index: "cookie_session", on: "cookie", columns: ["sessionId"])
        }
    }
}
