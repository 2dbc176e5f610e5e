import Foundation
import TransferEngine
import TransferModels
import TransferStore

// Segmented downloads in the task layer: a task's `segments` become its job's policy, and a segmented
// partial file is known by its journal (`SegmentJournal`), which is read, moved and removed with it.
extension TaskService {
    static func segmentPolicy(_ segments: SegmentsConfiguration?) -> SegmentPolicy? {
        segments.map { SegmentPolicy(maximumConnections: $0.max, minimumPartSize: $0.minSize) }
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
