public import Foundation

/// The persistent cookies of the cookie storages (`cookie` rows: the tenant's shared storage and each
/// session's private one). The storages themselves live in memory above the store (`CookieStorages`),
/// which reads a storage once and writes its changes back in batches.
public struct CookieStore: Sendable {
    let database: any StoreDatabase
}

extension CookieStore {
    /// The persistent cookies of `storage` that have not expired by `now`.
    public func cookies(inStorage storage: String, now: Date = Date()) async throws -> [CookieRecord] {
        try await database.read { db in
            try db.rows("SELECT * FROM cookie WHERE storage = ? AND expiresAt > ?", storage, now).map { try $0.decode(CookieRecord.self) }
        }
    }

    /// Replaces what is stored for each storage with the given cookies, all in one transaction.
    public func replaceCookies(_ storages: [String: [CookieRecord]]) async throws {
        guard !storages.isEmpty else { return }
        try await database.write { db in
            for (storage, cookies) in storages {
                try db.execute("DELETE FROM cookie WHERE storage = ?", storage)
                for cookie in cookies { try db.insert(cookie, into: "cookie") }
            }
        }
    }
}
