import Foundation
import TransferStore

extension TaskFiles {
    /// `DELETE /v1/tasks/{id}/file`: the download's file (on disk, in the object store, or its bytes kept in
    /// the store) is released now instead of at its time-to-live. False when it had none any more (deleted,
    /// expired, released).
    public func releaseFile(ofTask taskId: String, tenant: String) async throws -> Bool {
        switch try await store.blobs.releaseFile(taskId: taskId, tenant: tenant) {
        case .file(let path)?: return unlink(path) == 0
        case .object(let key)?: await deleteObjects([key])  // a failure is logged; the row no longer names it
        case .stored?: break
        case nil: return false
        }
        return true
    }
}
