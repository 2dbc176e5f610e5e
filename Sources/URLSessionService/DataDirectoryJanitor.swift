import Foundation
import Logging
import TransferModels
import TransferStore

/// Removes, at start-up, the files under the data directory that no row names: what a crash (or kill -9)
/// left between writing a file and recording it, or between forgetting a row and removing its file.
///
/// Alone, it runs before any transfer, upload or cache does, so every file it finds is either named by a
/// row or an orphan. A file a row names is never removed: a running or suspended download's partial file,
/// a finished download or kept body within its time-to-live, the partial file behind resume data.
///
/// Nodes sharing a database share the data directory too (a volume every node mounts). While another node
/// is alive, a file without a row may be one it is writing (a blob arriving, a download renamed just
/// before its completion commits, a cache body stored before its row): then only files untouched for an
/// hour go, and the trust bundles other nodes' transfers read stay.
enum DataDirectoryJanitor {
    /// How long a file with no row must have gone unmodified before it is taken for a leftover while other
    /// nodes share the directory: far beyond the time between writing any file and recording it.
    static let sharedDirectoryGrace: TimeInterval = 3600

    static func removeOrphans(in configuration: ServiceConfiguration, store: TransferStore, logger: Logger) async throws {
        let shared = try await otherNodesAreAlive(configuration, store: store)
        let janitor = Sweep(modifiedBefore: shared ? Date().addingTimeInterval(-sharedDirectoryGrace) : nil)
        var removed: [String: Int] = [:]
        removed["blobs"] = try await janitor.removeOrphanBlobs(in: configuration.blobDirectory, store: store)
        removed["downloads"] = try await janitor.removeOrphanDownloads(in: configuration.downloadsDirectory, store: store)
        removed["cache"] = try await janitor.removeOrphanCacheFiles(in: configuration.cacheDirectory, store: store)
        if !shared {
            removed["trust"] = janitor.removeSessionTrustBundles(in: configuration.dataDirectory.appendingPathComponent("trust"))
        }
        let total = removed.values.reduce(0, +)
        guard total > 0 else { return }
        logger.info(
            "Removed files no row names", metadata: removed.filter { $0.value > 0 }.mapValues { "\($0)" })
    }

    /// Whether a node other than this one has renewed its lease lately (a node that stopped, or whose lease
    /// ran out, writes nothing more). On SQLite the store is this node's alone.
    private static func otherNodesAreAlive(_ configuration: ServiceConfiguration, store: TransferStore) async throws -> Bool {
        guard configuration.databaseURL != nil else { return false }
        let own = configuration.resolvedNodeID
        let since = Date().addingTimeInterval(-configuration.leaseSeconds)
        return try await store.cluster.nodes().contains { $0.id != own && $0.stoppedAt == nil && $0.heartbeatAt > since }
    }
}

/// One pass over the data directory; `modifiedBefore`, when set, spares files modified since.
private struct Sweep {
    var modifiedBefore: Date?

    /// `<data>/blobs`: uploads cut off by a crash, and spooled request bodies.
    func removeOrphanBlobs(in directory: URL, store: TransferStore) async throws -> Int {
        let known = try await store.blobs.allBlobIDs()
        return remove(names(in: directory).filter { !known.contains($0) }, in: directory)
    }

    /// `<data>/downloads`: finished downloads and kept bodies, `.part` files, `.body` spills.
    func removeOrphanDownloads(in directory: URL, store: TransferStore) async throws -> Int {
        let names = names(in: directory)
        guard !names.isEmpty else { return 0 }
        let referenced = try await store.maintenance.referencedDownloadFiles(among: names)
        return remove(names.filter { !referenced.contains($0) }, in: directory)
    }

    /// `<data>/cache/<storage>`: body files no cache row names, and the directories of private caches
    /// whose session is gone or invalidated.
    func removeOrphanCacheFiles(in directory: URL, store: TransferStore) async throws -> Int {
        let storages = names(in: directory)
        let sessionIds = storages.compactMap { $0.hasPrefix("session-") ? String($0.dropFirst("session-".count)) : nil }
        let live = try await store.maintenance.liveSessionIDs(among: sessionIds)
        let named = try await store.maintenance.cacheBodyFileNames()
        var removed = 0
        for storage in storages {
            let path = directory.appendingPathComponent(storage)
            if storage.hasPrefix("session-"), !live.contains(String(storage.dropFirst("session-".count))) {
                if modifiedBefore == nil {
                    removed += names(in: path).count
                    try? FileManager.default.removeItem(at: path)
                } else {
                    // Gone only when emptied: a file spared for its age keeps the directory.
                    removed += remove(names(in: path), in: path)
                    _ = rmdir(path.path)
                }
                continue
            }
            removed += remove(names(in: path).filter { !named.contains($0) }, in: path)
        }
        return removed
    }

    /// `<data>/trust/session-*.pem`: written again the first time each session's transfer needs one.
    func removeSessionTrustBundles(in directory: URL) -> Int {
        remove(names(in: directory).filter { $0.hasPrefix("session-") && $0.hasSuffix(".pem") }, in: directory)
    }

    private func names(in directory: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func remove(_ names: [String], in directory: URL) -> Int {
        names.filter { name in
            let path = directory.appendingPathComponent(name).path
            return old(path) && unlink(path) == 0
        }.count
    }

    private func old(_ path: String) -> Bool {
        guard let modifiedBefore else { return true }
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return TimeInterval(status.st_mtim.tv_sec) < modifiedBefore.timeIntervalSince1970
    }
}
