public import Foundation

/// An uploaded body kept on disk for upload tasks (`uploadTask(with:fromFile:)`).
public struct Blob: Codable, Sendable, Hashable {
    public var id: String
    public var size: Int64
    /// RFC 9530 form: `sha-256=:<base64>:`.
    public var digest: String
    public var createdAt: Date

    public init(id: String, size: Int64, digest: String, createdAt: Date) {
        self.id = id
        self.size = size
        self.digest = digest
        self.createdAt = createdAt
    }
}
