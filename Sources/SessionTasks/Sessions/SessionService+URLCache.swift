public import Foundation
import HTTPCaching
public import TransferModels
import TransferStore

/// `URLCache` of a session, for the API: usage, look up, remove.
extension SessionService {
    /// The session's cache: its scope, capacities and usage (`storage: none`, all zero, without one).
    public func cacheUsage(of session: SessionRecord) async throws -> URLCacheUsage {
        guard let placement = urlCaches.placement(of: session) else {
            return URLCacheUsage(
                storage: .none, memoryCapacity: 0, diskCapacity: 0, currentMemoryUsage: 0, currentDiskUsage: 0, entryCount: 0)
        }
        let usage = try await urlCaches.storage(placement).usage
        return URLCacheUsage(
            storage: placement.sessionId == nil ? .shared : .private, memoryCapacity: placement.memoryCapacity,
            diskCapacity: placement.diskCapacity, currentMemoryUsage: Int(usage.memory), currentDiskUsage: Int(usage.disk),
            entryCount: usage.count)
    }

    /// `cachedResponse(for:)`: what is stored for a GET of `url`, whatever its freshness; nil when nothing is.
    public func cachedResponse(of session: SessionRecord, for url: String) async throws -> CachedResponseObject? {
        guard let placement = urlCaches.placement(of: session), let key = HTTPCacheRules.cacheKey(of: url) else { return nil }
        let storage = try await urlCaches.storage(placement)
        guard let entry = storage.peek(key) else { return nil }
        var data: [UInt8]?
        if entry.bodyLength <= CachedResponseObject.inlineDataLimit {
            data = try await urlCaches.storedBytes(of: entry, in: storage)
        }
        return CachedResponseObject(
            response: HTTPResponseSnapshot(url: entry.responseURL, statusCode: entry.statusCode, headerLines: entry.fields),
            storagePolicy: entry.storagePolicy, userInfo: entry.userInfo, storedAt: entry.storedAt, dataLength: entry.bodyLength,
            data: data)
    }

    /// `removeCachedResponse(for:)`; false when nothing was stored for `url`.
    public func removeCachedResponse(of session: SessionRecord, for url: String) async throws -> Bool {
        guard let placement = urlCaches.placement(of: session), let key = HTTPCacheRules.cacheKey(of: url) else { return false }
        let storage = try await urlCaches.storage(placement)
        guard storage.peek(key) != nil else { return false }
        urlCaches.unlinkFiles(storage.remove(key), in: storage)
        return true
    }

    /// `removeCachedResponses(since:)`, or `removeAllCachedResponses()` without `since`.
    public func removeCachedResponses(of session: SessionRecord, since: Date?) async throws {
        guard let placement = urlCaches.placement(of: session) else { return }
        let storage = try await urlCaches.storage(placement)
        urlCaches.unlinkFiles(storage.removeAll(since: since), in: storage)
    }
}
