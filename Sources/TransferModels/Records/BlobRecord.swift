public import Foundation
public import JSONCodec

/// A row of `blob`: an uploaded body stored at `<data>/blobs/<id>`, or in the object store (`object`).
public struct BlobRecord: Codable, Sendable, Hashable {
    public var rowid: Int64?
    public var id: String
    public var tenant: String
    public var size: Int64
    public var digest: String
    public var createdAt: Date
    /// The blob's key in the object store once it was put there (`URLSESSIOND_OBJECT_STORE_URL`); its
    /// local file is then removed, and a node without it fetches the object.
    public var object: String?

    public init(id: String, tenant: String, size: Int64, digest: String, createdAt: Date = .nowMilliseconds) {
        self.id = id
        self.tenant = tenant
        self.size = size
        self.digest = digest
        self.createdAt = createdAt
    }

    public var wire: Blob { Blob(id: id, size: size, digest: digest, createdAt: createdAt) }
}
