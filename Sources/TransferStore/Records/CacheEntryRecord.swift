public import Foundation

/// A row of `cache_entry`: one response a session's URL cache keeps on disk. Its body is the file
/// `bodyFile` in the storage's cache directory, or — small ones, as Apple's `Cache.db` keeps them — a row
/// of `cache_body`, written in the same transaction without a file to create. Entries kept in memory
/// only, and every entry of an ephemeral session's cache, never reach the store.
public struct CacheEntryRecord: Codable, Sendable, Hashable {
    /// `tenant <name>` or `session <id>`, as the cookie storages.
    public var storage: String
    /// The session of a private cache (its rows go with it); nil for the tenant's shared cache.
    public var sessionId: String?
    /// The cache key: the request URL, normalised.
    public var url: String
    /// The URL the response came from (`HTTPURLResponse.url`).
    public var responseURL: String
    public var statusCode: Int
    /// The stored header fields, one `name: value` per line.
    public var headers: String
    /// The request fields its `Vary` names, one `name: value` per line.
    public var varyValues: String
    public var requestTime: Date
    public var responseTime: Date
    /// When the response was stored (`removeCachedResponses(since:)` compares with it).
    public var storedAt: Date
    /// The `userInfo` a delegate gave in `willCacheResponse`, as JSON text.
    public var userInfo: String?
    /// nil: the body is in `cache_body`.
    public var bodyFile: String?
    public var bodySize: Int64
    public var lastAccessAt: Date

    public init(
        storage: String, sessionId: String?, url: String, responseURL: String, statusCode: Int, headers: String,
        varyValues: String, requestTime: Date, responseTime: Date, storedAt: Date, userInfo: String?, bodyFile: String?,
        bodySize: Int64, lastAccessAt: Date
    ) {
        (self.storage, self.sessionId, self.url, self.responseURL) = (storage, sessionId, url, responseURL)
        (self.statusCode, self.headers, self.varyValues) = (statusCode, headers, varyValues)
        (self.requestTime, self.responseTime, self.storedAt, self.userInfo) = (requestTime, responseTime, storedAt, userInfo)
        (self.bodyFile, self.bodySize, self.lastAccessAt) = (bodyFile, bodySize, lastAccessAt)
    }
}

/// Changes to the cache rows of one storage, written in one transaction.
public struct CacheEntryChanges: Sendable {
    public var storage: String
    /// Rows to insert or replace (by URL).
    public var upserts: [CacheEntryRecord] = []
    /// Bodies kept in the store (entries without a `bodyFile`), by URL, replacing any stored before.
    public var bodies: [String: [UInt8]] = [:]
    /// URLs whose rows go.
    public var deletions: [String] = []
    /// Every row of the storage goes first (`removeAllCachedResponses`).
    public var removesAll = false

    public init(storage: String) { self.storage = storage }

    public var isEmpty: Bool { upserts.isEmpty && bodies.isEmpty && deletions.isEmpty && !removesAll }
}
