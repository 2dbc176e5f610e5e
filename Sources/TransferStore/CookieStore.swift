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

    /// Replaces what is stored for each storage with the given cookies, all in one transaction of two
    /// statements whatever the number of storages and cookies: every storage's rows go, then every
    /// cookie is inserted from one row set.
    public func replaceCookies(_ storages: [String: [CookieRecord]]) async throws {
        guard !storages.isEmpty else { return }
        let emptied = StoreRowSet.keys(storages.keys)
        let rows = try StoreRowSet(records: storages.sorted { $0.key < $1.key }.flatMap(\.value), types: Self.columnTypes)
        try await database.write { db in
            try db.send("DELETE FROM cookie WHERE storage IN (SELECT ref FROM {rows})", over: emptied)
            if !rows.isEmpty { try db.insert(rows, into: "cookie") }
        }
    }

    /// The columns of `cookie` that do not hold text (booleans are integers), for PostgreSQL's arrays.
    private static let columnTypes: [String: StoreRowSet.ColumnType] = [
        "isHostOnly": .integer, "isSecure": .integer, "isHTTPOnly": .integer,
    ]
}
