import Foundation
import Logging
public import ObjectStorage
import TransferModels
import TransferStore

// Finished downloads and kept bodies in the object store (`URLSESSIOND_OBJECT_STORE_URL`): every node
// reaches them, so `/file` and `/data` are served whichever node ran the task.
extension TaskService {
    /// The object store finished downloads, kept body files and blobs go to; nil: they stay on disk.
    public var objectStore: ObjectStore? { configuration.objectStore }

    /// The object key of a download's file, or of a data or upload task's body kept as a file.
    static func objectName(ofFileOf task: TaskRecord) -> String {
        task.kind == .download ? "downloads/\(task.id)" : "bodies/\(task.id)"
    }

    /// Puts a finished download's file, or a body kept as a file (kept, digest checked), into the object
    /// store. Once the put
    /// succeeded the completion names the object instead of the file, and the local copy goes when the
    /// completion is recorded (`ReportWriter`). A failed put leaves the file where it is, named by the
    /// completion as without an object store: the download still completes, and no byte is lost.
    func moveToObjectStore(_ completion: inout TaskCompletion, of task: TaskRecord) async {
        guard let objectStore, let path = completion.filePath else { return }
        let taskId = task.id
        let key = objectStore.configuration.key(Self.objectName(ofFileOf: task))
        do {
            _ = try await objectStore.put(fileAt: path, key: key)
            completion.fileObject = key
            completion.localCopy = path
            completion.filePath = nil
            logger.debug("A task's file put into the object store", metadata: ["task.id": "\(taskId)", "object.key": "\(key)"])
        } catch {
            logger.error(
                "Putting a task's file into the object store failed; it stays on this node's disk",
                metadata: ["task.id": "\(taskId)", "object.key": "\(key)", "error": "\(error)"])
        }
    }

    /// Deletes objects the store let go of (a released or expired file, a pruned task, a reset session).
    /// The rows no longer name them, so a failure is only logged: the object is left behind (storage,
    /// never a wrong answer), and an operator can remove `downloads/` keys no task names.
    public func deleteObjects(_ keys: [String]) async {
        guard !keys.isEmpty else { return }
        guard let objectStore else {
            logger.warning(
                "Tasks named files in an object store that is no longer configured: they were not deleted",
                metadata: ["objects": "\(keys.count)"])
            return
        }
        for key in keys {
            do {
                try await objectStore.delete(key: key)
            } catch {
                logger.error("Deleting a file from the object store failed", metadata: ["object.key": "\(key)", "error": "\(error)"])
            }
        }
    }
}
