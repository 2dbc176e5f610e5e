public import Foundation
import ObjectStorage
import TransferModels
import TransferStore

// A small blob read whole into memory (a Metalink document given as `metalink.blobId`).
extension TaskFiles {
    /// A small blob's bytes that a task reads whole.
    public enum SmallBlob: Sendable {
        case bytes(Data)
        /// The tenant has no blob by that id (or it is on another node's disk only).
        case notFound
        /// It is larger than the caller reads.
        case tooLarge(Int64)
    }

    /// The tenant's blob `id` read whole: from this node's disk, else from the object store.
    public func smallBlob(id: String, tenant: String, limit: Int) async throws -> SmallBlob {
        guard let blob = try await store.blobs.blob(id: id, tenant: tenant) else { return .notFound }
        guard blob.size <= Int64(limit) else { return .tooLarge(blob.size) }
        let path = blobDirectory.appendingPathComponent(id).path
        if let data = FileManager.default.contents(atPath: path) { return .bytes(data) }
        guard let objectStore, let key = blob.object else { return .notFound }
        let reader = objectStore.get(key: key)
        var data = Data()
        while let chunk = try await reader.next() {  // bounded: the object ends, or the read fails
            data.append(contentsOf: chunk)
            guard data.count <= limit else {
                reader.cancel()
                return .tooLarge(Int64(data.count))
            }
        }
        return .bytes(data)
    }
}
