public import Foundation

/// The permanent credentials of the credential storages (`credential` rows), their passwords sealed
/// with the store's `SecretBox` and opened only on their way out.
public struct CredentialStore: Sendable {
    let database: any StoreDatabase
    let secrets: SecretBox
}

extension CredentialStore {
    /// The permanent credentials of `storage`, with their passwords opened.
    public func credentials(inStorage storage: String) async throws -> [(record: CredentialRecord, password: String)] {
        let rows = try await database.read { db in
            try db.rows("SELECT * FROM credential WHERE storage = ? ORDER BY createdAt", storage).map {
                try $0.decode(CredentialRecord.self)
            }
        }
        return try rows.map { ($0, String(decoding: try secrets.open($0.sealedPassword), as: UTF8.self)) }
    }

    /// Seals a password for a `CredentialRecord`.
    public func sealPassword(_ password: String) throws -> Data {
        try secrets.seal(Data(password.utf8))
    }

    /// Inserts a credential; with `isDefault`, the other credentials of its storage for the same space
    /// (`sameSpace`, the ids) stop being its default, in the same transaction.
    public func insertCredential(_ record: CredentialRecord, clearingDefaults others: [String]) async throws {
        try await database.write { db in
            try Self.setDefault(false, of: others, db)
            try db.insert(record, into: "credential")
        }
    }

    /// Makes `id` the default and `others` not, in one transaction (ids not stored are ignored).
    public func setDefaultCredential(_ id: String, clearing others: [String]) async throws {
        try await database.write { db in
            try Self.setDefault(false, of: others, db)
            try Self.setDefault(true, of: [id], db)
        }
    }

    private static func setDefault(_ isDefault: Bool, of ids: [String], _ db: any StoreConnection) throws {
        for id in ids { try db.execute("UPDATE credential SET isDefault = ? WHERE id = ?", isDefault, id) }
    }

    public func deleteCredential(id: String) async throws {
        try await database.write { db in try db.execute("DELETE FROM credential WHERE id = ?", id) }
    }

    /// Every credential of `storage` (`reset`, or a private storage whose session is invalidated).
    public func deleteCredentials(inStorage storage: String) async throws {
        try await database.write { db in try db.execute("DELETE FROM credential WHERE storage = ?", storage) }
    }

    /// Which storage holds the permanent credential `id`, and whose tenant it is; nil when none does.
    public func credentialOwner(id: String) async throws -> (storage: String, tenant: String, sessionId: String?)? {
        try await database.read { db in
            try db.row("SELECT storage, tenant, sessionId FROM credential WHERE id = ?", id).map {
                (try $0.decode(forColumn: "storage"), try $0.decode(forColumn: "tenant"), try $0.decode(forColumn: "sessionId"))
            }
        }
    }
}
