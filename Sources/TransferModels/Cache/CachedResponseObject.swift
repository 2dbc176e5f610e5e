public import Foundation
public import JSONCodec

/// `URLCache.StoragePolicy`.
public enum URLCacheStoragePolicy: String, Codable, Sendable, CaseIterable {
    case allowed, allowedInMemoryOnly, notAllowed
}

/// A `CachedURLResponse` as the API shows it: `GET /v1/sessions/{id}/cache/entry?url=`, and the
/// `proposedResponse` of `dataTask.willCacheResponse`. `data` is the body as base64 when it is at most
/// `CachedResponseObject.inlineDataLimit` bytes, else null (`dataLength` always says how long it is).
public struct CachedResponseObject: Encodable, Sendable {
    public static let inlineDataLimit = 64 * 1024

    public var response: HTTPResponseSnapshot
    public var storagePolicy: URLCacheStoragePolicy
    public var userInfo: JSONValue?
    /// When it was stored (nil in a proposal: not stored yet).
    public var storedAt: Date?
    public var dataLength: Int64
    public var data: [UInt8]?

    public init(
        response: HTTPResponseSnapshot, storagePolicy: URLCacheStoragePolicy, userInfo: JSONValue?, storedAt: Date?,
        dataLength: Int64, data: [UInt8]?
    ) {
        (self.response, self.storagePolicy, self.userInfo) = (response, storagePolicy, userInfo)
        (self.storedAt, self.dataLength, self.data) = (storedAt, dataLength, data)
    }

    enum CodingKeys: String, CodingKey { case response, storagePolicy, userInfo, storedAt, dataLength, data }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(response, forKey: .response)
        try c.encode(storagePolicy, forKey: .storagePolicy)
        try c.encode(userInfo, forKey: .userInfo)
        try c.encode(storedAt, forKey: .storedAt)
        try c.encode(dataLength, forKey: .dataLength)
        try c.encode(data.map { Data($0).base64EncodedString() }, forKey: .data)
    }
}

/// `GET /v1/sessions/{id}/cache`: which cache the session uses, its capacities and what it holds.
public struct URLCacheUsage: Encodable, Sendable, Equatable {
    public var storage: StorageScope
    public var memoryCapacity: Int
    public var diskCapacity: Int
    public var currentMemoryUsage: Int
    public var currentDiskUsage: Int
    public var entryCount: Int

    public init(
        storage: StorageScope, memoryCapacity: Int, diskCapacity: Int, currentMemoryUsage: Int, currentDiskUsage: Int,
        entryCount: Int
    ) {
        (self.storage, self.memoryCapacity, self.diskCapacity) = (storage, memoryCapacity, diskCapacity)
        (self.currentMemoryUsage, self.currentDiskUsage, self.entryCount) = (currentMemoryUsage, currentDiskUsage, entryCount)
    }
}

/// `data` of `dataTask.willCacheResponse`: `{"task", "proposedResponse"}`.
public struct WillCacheResponseEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var proposedResponse: CachedResponseObject

    public init(task: TaskSummary, proposedResponse: CachedResponseObject) {
        self.task = task
        self.proposedResponse = proposedResponse
    }
}
