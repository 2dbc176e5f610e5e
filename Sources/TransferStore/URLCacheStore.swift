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

    /// Applies the changes of several storages in one transaction: per storage, at most four statements
    /// whatever the number of entries (its removal, its deletions, its rows and its bodies, each over one
    /// row set), in that order, so a URL deleted and stored again in one batch is stored.
    public func writeCacheChanges(_ changes: [CacheEntryChanges]) async throws {
        guard changes.contains(where: { !$0.isEmpty }) else { return }
        let sets = try changes.map(Self.rowSets)
        try await database.write { db in
            for (change, sets) in zip(changes, sets) {
                if change.removesAll { try db.execute("DELETE FROM cache_entry WHERE storage = ?", change.storage) }
                if !sets.deletions.isEmpty {  // bodies cascade
                    try db.send(
                        "DELETE FROM cache_entry WHERE (storage, url) IN (SELECT u.storage, u.url FROM {rows})", over: sets.deletions)
                }
                if !sets.entries.isEmpty { try db.upsert(sets.entries, into: "cache_entry", key: ["storage", "url"]) }
                if !sets.bodies.isEmpty { try db.upsert(sets.bodies, into: "cache_body", key: ["storage", "url"]) }
            }
        }
    }

    /// The columns of `cache_entry` that do not hold text, for PostgreSQL's arrays.
    private static let entryColumnTypes: [String: StoreRowSet.ColumnType] = ["statusCode": .integer, "bodySize": .integer]

    /// A storage's changes as row sets. A URL stored twice in one batch keeps its last row (a set that
    /// named a row twice would have PostgreSQL refuse the upsert).
    private static func rowSets(_ change: CacheEntryChanges) throws -> (deletions: StoreRowSet, entries: StoreRowSet, bodies: StoreRowSet) {
        var deletions = StoreRowSet([("storage", .text), ("url", .text)])
        for url in Set(change.deletions).sorted() { deletions.append(change.storage, url) }
        var latest: [String: CacheEntryRecord] = [:]
        for row in change.upserts { latest[row.url] = row }
        let entries = try StoreRowSet(records: latest.sorted { $0.key < $1.key }.map(\.value), types: entryColumnTypes)
        var bodies = StoreRowSet([("storage", .text), ("url", .text), ("body", .blob)])
        for (url, body) in change.bodies.sorted(by: { $0.key < $1.key }) { bodies.append(change.storage, url, body) }
        return (deletions, entries, bodies)
    }

    /// The body of an entry kept in the store (nil when there is none).
    public func cacheBody(inStorage storage: String, url: String) async throws -> [UInt8]? {
        try await database.read { db in
            try db.value("SELECT body FROM cache_body WHERE storage = ? AND url = ?", storage, url, as: [UInt8].self)
        }
    }
}
