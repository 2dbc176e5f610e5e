import Foundation
import Logging
public import ObjectStorage
import TransferEngine
import TransferModels
import TransferStore

/// The files the task layer keeps outside the store's rows, where each lives, and their copies in the
/// object store (`URLSESSIOND_OBJECT_STORE_URL`): finished downloads and kept bodies, blobs, downloads'
/// partial files.
/// Every node reaches the objects, so `/file`, `/data` and uploads from a blob work whichever node ran the
/// task. Used by the completer (files in), housekeeping and resets (files out) and the control plane.
public final class TaskFiles: Sendable {
    /// The object store finished downloads, kept body files and blobs go to; nil: they stay on disk.
    public let objectStore: ObjectStore?
    let store: TransferStore
    /// Where blob files live (`<data>/blobs`).
    let blobDirectory: URL
    /// Where downloads and kept bodies live, as a path (Foundation's URL building costs ~3% of the CPU of
    /// small tasks).
    let downloadsPath: String
    let logger: Logger

    init(objectStore: ObjectStore?, store: TransferStore, blobDirectory: URL, downloadsDirectory: URL, logger: Logger) {
        self.objectStore = objectStore
        self.store = store
        self.blobDirectory = blobDirectory
        self.downloadsPath = downloadsDirectory.path
        self.logger = logger
    }

    /// A partial file for one attempt of the task: `<id>.<random>.part`.
    func newPartialPath(of taskId: String) -> String {
        let attempt = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        return downloadsPath + "/\(taskId).\(attempt).part"
    }

    /// Where a finished download, or a body kept as a file, lives: `<downloads>/<id>`.
    func finishedPath(of taskId: String) -> String {
        downloadsPath + "/" + taskId
    }

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

    /// Removes a download's partial file, and its journal when it was fetched in parts.
    static func removePartialFile(_ path: String) {
        SegmentJournal.remove(partialPath: path)
        unlink(path)
    }

    /// Where a download's partial file stands: for a segmented one, its journal (nil when the journal is
    /// damaged: its size says nothing, so the file cannot be continued); otherwise nil, and its size counts.
    static func segmentedResume(ofPartial path: String) -> (isSegmented: Bool, resume: SegmentedResume?) {
        guard SegmentJournal.exists(partialPath: path) else { return (false, nil) }
        return (true, SegmentJournal.read(partialPath: path))
    }
}
