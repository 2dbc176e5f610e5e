/// The URL cache storages' entries (`cache_entry` rows, and the small bodies kept in `cache_body`; larger
/// bodies are files named by their entries). The caches live in memory above the store (`URLCaches`),
/// which writes their changes back in batches.
public struct URLCacheStore: Sendable {
    let database: any StoreDatabase
}

extension URLCacheStore {
    /// Every stored entry of a cache storage.
    public func cacheEntries(inStorage storage: String) async throws -> [CacheEntryRecord] {
        try await database.read { db in
            try db.rows("SELECT * FROM cache_entry WHERE storage = ?", storage).map { try $0.decode(CacheEntryRecord.self) }
        }
    }

    /// Applies the changes of several storages in one transaction.
    public func writeCacheChanges(_ changes: [CacheEntryChanges]) async throws {
        guard changes.contains(where: { !$0.isEmpty }) else { return }
        try await database.write { db in
            for change in changes {
                if change.removesAll { try db.execute("DELETE FROM cache_entry WHERE storage = ?", change.storage) }
                for url in change.deletions {  // bodies cascade
                    try db.execute("DELETE FROM cache_entry WHERE storage = ? AND url = ?", change.storage, url)
                }
                for row in change.upserts { try db.upsert(row, into: "cache_entry", key: ["storage", "url"]) }
                for (url, body) in change.bodies {
                    try db.execute(
                        """
                        INSERT INTO cache_body (storage, url, body) VALUES (?, ?, ?)
                        ON CONFLICT (storage, url) DO UPDATE SET body = excluded.body
                        """,
                        change.storage, url, body)
                }
            }
        }
    }

    /// The body of an entry kept in the store (nil when there is none).
    public func cacheBody(inStorage storage: String, url: String) async throws -> [UInt8]? {
        try await database.read { db in
            try db.value("SELECT body FROM cache_body WHERE storage = ? AND url = ?", storage, url, as: [UInt8].self)
        }
    }
}
