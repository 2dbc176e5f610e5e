import Foundation
import TransferEngine
import TransferModels
import TransferStore

// Segmented downloads in the task layer: a task's `segments` become its job's policy (a segmented
// partial file is known by its journal: `TaskFiles.segmentedResume`).
extension TaskService {
    static func segmentPolicy(_ segments: SegmentsConfiguration?) -> SegmentPolicy? {
        segments.map { SegmentPolicy(maximumConnections: $0.max, minimumPartSize: $0.minSize) }
    }
}
