public import Foundation
import Logging
import ObjectStorage
import TransferEngine
public import TransferModels
import TransferStore

// Blobs in the object store (`URLSESSIOND_OBJECT_STORE_URL`): once complete, a blob leaves this node's
// disk for the bucket, so an upload from it runs on whichever node claims the task.
extension TaskFiles {
    /// `POST /v1/blobs`: the uploaded file at `spooledPath` becomes blob `id` — moved into place and
    /// fsynced before the row that promises it commits (a crash in between leaves an orphan file that
    /// start-up removes, never a row without its bytes), then put into the object store when there is one
    /// (before the answer: a client that sees 201 may start an upload on another node at once).
    public func createBlob(id: String, tenant: String, from spooledPath: String, size: Int64, sha256: Data) async throws -> BlobRecord {
        let path = blobDirectory.appendingPathComponent(id).path
        guard rename(spooledPath, path) == 0 else {
            throw BlobPlacementError(reason: String(cString: strerror(errno)))
        }
        let record: BlobRecord
        do {
            try await FileDurability.sync(fileAt: path)
            record = try await store.blobs.insertBlob(
                BlobRecord(id: id, tenant: tenant, size: size, digest: "sha-256=:\(sha256.base64EncodedString()):"))
        } catch {
            unlink(path)
            throw error
        }
        await moveBlobToObjectStore(record, path: path)
        return record
    }

    /// The tenant's blob; nil when it has none by that id.
    public func blob(id: String, tenant: String) async throws -> BlobRecord? {
        try await store.blobs.blob(id: id, tenant: tenant)
    }

    /// Deletes the tenant's blob with its file (on this node) or its object; false when there is none.
    public func deleteBlob(id: String, tenant: String) async throws -> Bool {
        guard let blob = try await store.blobs.deleteBlob(id: id, tenant: tenant) else { return false }
        unlink(blobDirectory.appendingPathComponent(blob.id).path)  // none when in the object store, or on another node
        if let key = blob.object { await deleteObjects([key]) }  // a failure is logged; no row names it
        return true
    }

    /// The object key of a blob.
    static func objectName(ofBlob blobId: String) -> String { "blobs/\(blobId)" }

    /// Puts a recorded blob's file (`path`) into the object store, names the object in the blob's row,
    /// then removes the file. A failed put (or write) leaves the file where it is, logged: the blob is
    /// served from this node's disk as without an object store, never lost. A blob deleted while it was
    /// being put has its object deleted (no row names it).
    public func moveBlobToObjectStore(_ blob: BlobRecord, path: String) async {
        guard let objectStore else { return }
        let key = objectStore.configuration.key(Self.objectName(ofBlob: blob.id))
        let metadata: Logger.Metadata = ["blob.id": "\(blob.id)", "object.key": "\(key)"]
        do {
            _ = try await objectStore.put(fileAt: path, key: key)
        } catch {
            logger.error(
                "Putting a blob into the object store failed; it stays on this node's disk",
                metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return
        }
        do {
            guard try await store.blobs.recordBlobObject(id: blob.id, key: key) else {
                await deleteObjects([key])
                return
            }
        } catch {
            // The row may or may not name the object: the file stays (a later read finds one or the other).
            logger.error(
                "Recording a blob's object failed; its file stays on this node's disk",
                metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return
        }
        unlink(path)
        logger.debug("Blob put into the object store", metadata: metadata)
    }

    /// Where an upload's blob fetched from the object store is kept while attempt `attempt` sends it:
    /// `<data>/blobs/<task id>.<attempt>.upload` (one per attempt: a stopped attempt's end, settled late,
    /// never removes the next one's; no blob's name, so start-up removes one a crash left behind).
    func fetchedBlobPath(of taskId: String, attempt: Int) -> String {
        blobDirectory.appendingPathComponent("\(taskId).\(attempt).upload").path
    }

    /// The local file an upload from blob `blobId` reads: the blob's own file on this node, else the
    /// object fetched now into `fetchedBlobPath` (removed when the attempt ends, `removeFetchedBlob`).
    /// Nil when neither exists (the blob was deleted, or is on another node's disk only).
    func localBlobFile(_ blobId: String, size: Int64, of task: TaskRecord, attempt: Int) async throws -> String? {
        let path = blobDirectory.appendingPathComponent(blobId).path
        if FileManager.default.fileExists(atPath: path) { return path }
        guard let objectStore, let key = try await store.blobs.blob(id: blobId, tenant: task.tenant)?.object else { return nil }
        let destination = fetchedBlobPath(of: task.id, attempt: attempt)
        do {
            try await Self.fetch(objectStore.get(key: key), into: destination, size: UInt64(size))
        } catch {
            unlink(destination)
            logger.error(
                "Fetching an upload's blob from the object store failed",
                metadata: ["task.id": "\(task.id)", "object.key": "\(key)", "error": "\(error)"])
            throw error
        }
        return destination
    }

    /// An attempt ended: the blob copy it read (if it fetched one) goes; the next attempt fetches again.
    func removeFetchedBlob(of transfer: TransferID) {
        guard objectStore != nil else { return }
        unlink(fetchedBlobPath(of: transfer.taskId, attempt: transfer.attempt))
    }

    /// Writes what `reader` reads to a new file at `path`, which must end up `size` bytes long.
    private static func fetch(_ reader: ObjectReader, into path: String, size: UInt64) async throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var written: UInt64 = 0
        while let chunk = try await reader.next() {  // bounded: the object ends, or the read fails
            try BodyFiles.writeAll(chunk, to: descriptor)
            written += UInt64(chunk.count)
        }
        // A blob is never rewritten: another length means the object is not the blob the row names.
        guard written == size else { throw POSIXError(.EIO) }
    }
}

/// An uploaded blob's file could not be moved into place.
public struct BlobPlacementError: Error {
    public let reason: String
}
