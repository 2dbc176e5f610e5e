import Foundation
import Logging
import TransferStore

/// Removes, at start-up, the files under the data directory that no row names: what a crash (or kill -9)
/// left between writing a file and recording it, or between forgetting a row and removing its file.
///
/// It runs before any transfer, upload or cache does, so every file it finds is either named by a row or
/// an orphan. A file a row names is never removed: a running or suspended download's partial file, a
/// finished download or kept body within its time-to-live, the partial file behind resume data.
enum DataDirectoryJanitor {
    static func removeOrphans(in configuration: ServiceConfiguration, store: TransferStore, logger: Logger) async throws {
        var removed: [String: Int] = [:]
        removed["blobs"] = try await removeOrphanBlobs(in: configuration.blobDirectory, store: store)
        removed["downloads"] = try await removeOrphanDownloads(in: configuration.downloadsDirectory, store: store)
        removed["cache"] = try await removeOrphanCacheFiles(in: configuration.cacheDirectory, store: store)
        removed["trust"] = removeSessionTrustBundles(in: configuration.dataDirectory.appendingPathComponent("trust"))
        let total = removed.values.reduce(0, +)
        guard total > 0 else { return }
        logger.info(
            "Removed files no row names", metadata: removed.filter { $0.value > 0 }.mapValues { "\($0)" })
    }

    /// `<data>/blobs`: uploads cut off by a crash, and spooled request bodies.
    private static func removeOrphanBlobs(in directory: URL, store: TransferStore) async throws -> Int {
        let known = try await store.allBlobIDs()
        return remove(names(in: directory).filter { !known.contains($0) }, in: directory)
    }

    /// `<data>/downloads`: finished downloads and kept bodies, `.part` files, `.body` spills.
    private static func removeOrphanDownloads(in directory: URL, store: TransferStore) async throws -> Int {
        let names = names(in: directory)
        guard !names.isEmpty else { return 0 }
        let referenced = try await store.referencedDownloadFiles(among: names)
        return remove(names.filter { !referenced.contains($0) }, in: directory)
    }

    /// `<data>/cache/<storage>`: body files no cache row names, and the directories of private caches
    /// whose session is gone or invalidated.
    private static func removeOrphanCacheFiles(in directory: URL, store: TransferStore) async throws -> Int {
        let storages = names(in: directory)
        let sessionIds = storages.compactMap { $0.hasPrefix("session-") ? String($0.dropFirst("session-".count)) : nil }
        let live = try await store.liveSessionIDs(among: sessionIds)
        let named = try await store.cacheBodyFileNames()
        var removed = 0
        for storage in storages {
            let path = directory.appendingPathComponent(storage)
            if storage.hasPrefix("session-"), !live.contains(String(storage.dropFirst("session-".count))) {
                removed += names(in: path).count
                try? FileManager.default.removeItem(at: path)
                continue
            }
            removed += remove(names(in: path).filter { !named.contains($0) }, in: path)
        }
        return removed
    }

    /// `<data>/trust/session-*.pem`: written again the first time each session's transfer needs one.
    private static func removeSessionTrustBundles(in directory: URL) -> Int {
        remove(names(in: directory).filter { $0.hasPrefix("session-") && $0.hasSuffix(".pem") }, in: directory)
    }

    private static func names(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private static func remove(_ names: [String], in directory: URL) -> Int {
        names.filter { unlink(directory.appendingPathComponent($0).path) == 0 }.count
    }
}
