import Foundation
import Logging
import TransferStore

/// Removes files under `<data>/blobs` that no row names: uploads cut off by a crash.
enum BlobJanitor {
    static func removeOrphans(in directory: URL, store: TransferStore, logger: Logger) async throws {
        let known = try await store.allBlobIDs()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names where !known.contains(name) {
            if unlink(directory.appendingPathComponent(name).path) == 0 { removed += 1 }
        }
        if removed > 0 { logger.info("Removed orphaned upload files", metadata: ["count": "\(removed)"]) }
    }
}
