import Crypto
import Foundation
import HTTPCaching
import JSONCodec
import Logging
import TransferModels
import TransferStore

/// The URL caches of the service, by scope (`urlCache.storage`): the tenant's `shared` one (as
/// `URLCache.shared` in an app, with the service's capacities), and each session's `private` one with its
/// own capacities. Tenants never share one. `urlCache: null`: none.
///
/// A cache is read from the store on first use. Entries bound for the disk have their body file written
/// when they are stored and their row by `persistChanges()` — every quarter second while something
/// changed, on `flush`, and at shutdown. A row whose file is missing, and a file no row names, are both
/// dropped at load (what a kill -9 between the two leaves). Ephemeral sessions' caches never reach the disk.
final class URLCaches: Sendable {
    /// Where a session's cache lives.
    struct Placement: Sendable {
        var key: String
        /// The session of a private cache (its rows go with it); nil for the tenant's shared one.
        var sessionId: String?
        var memoryCapacity: Int
        /// 0 for ephemeral sessions: nothing on disk.
        var diskCapacity: Int
        /// The directory of its body files.
        var directory: String
    }

    let store: TransferStore
    let directory: URL
    let sharedMemoryCapacity: Int
    let sharedDiskCapacity: Int
    let logger: Logger
    let revalidations = CacheRevalidations()
    private let storages = LockedBox<[String: URLCacheStorage]>([:])
    private let writes = TaskControlQueue()
    /// The pauses of caches whose writes failed (the periodic writer leaves them until they are due).
    let retries: WriteBackRetries

    init(store: TransferStore, directory: URL, sharedMemoryCapacity: Int, sharedDiskCapacity: Int, logger: Logger) {
        self.store = store
        self.directory = directory
        self.sharedMemoryCapacity = sharedMemoryCapacity
        self.sharedDiskCapacity = sharedDiskCapacity
        self.logger = logger
        self.retries = WriteBackRetries(writing: "cache entries", logger: logger)
    }

    func placement(tenant: String, sessionId: String, configuration: SessionConfiguration) -> Placement? {
        switch configuration.urlCache {
        case nil:
            return nil
        case .shared?:
            // Tenant names are the operator's: the directory is named by a digest, never by the name itself.
            let digest = SHA256.hash(data: Data(tenant.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
            return Placement(
                key: StorageKey.shared(tenant: tenant), sessionId: nil, memoryCapacity: sharedMemoryCapacity,
                diskCapacity: sharedDiskCapacity,
                directory: directory.appendingPathComponent("tenant-\(digest)").path)
        case .private(let memory, let disk)?:
            return Placement(
                key: StorageKey.private(sessionId: sessionId), sessionId: sessionId, memoryCapacity: memory,
                diskCapacity: configuration.kind == .ephemeral ? 0 : disk,
                directory: directory.appendingPathComponent("session-\(sessionId)").path)
        }
    }

    func placement(of session: SessionRecord) -> Placement? {
        placement(tenant: session.tenant, sessionId: session.id, configuration: session.configuration)
    }

    /// The cache, read from the store the first time it is used.
    func storage(_ placement: Placement) async throws -> URLCacheStorage {
        if let loaded = storages.withLock({ $0[placement.key] }) { return loaded }
        let entries = placement.diskCapacity > 0 ? try await load(placement) : []
        let loaded = URLCacheStorage(placement: placement, entries: entries)
        return storages.withLock { storages in
            if let first = storages[placement.key] { return first }
            storages[placement.key] = loaded
            return loaded
        }
    }

    /// The stored entries whose files exist, least recently used first; files no row names are removed.
    private func load(_ placement: Placement) async throws -> [URLCacheStorage.Entry] {
        try FileManager.default.createDirectory(atPath: placement.directory, withIntermediateDirectories: true)
        let rows = try await store.urlCaches.cacheEntries(inStorage: placement.key)
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: placement.directory)) ?? [])
        for orphan in files.subtracting(rows.compactMap(\.bodyFile)) { unlink(placement.directory + "/" + orphan) }
        var missing = CacheEntryChanges(storage: placement.key)
        var entries: [URLCacheStorage.Entry] = []
        for row in rows.sorted(by: { $0.lastAccessAt < $1.lastAccessAt }) {
            if let file = row.bodyFile, !files.contains(file) {
                missing.deletions.append(row.url)
                continue
            }
            entries.append(
                URLCacheStorage.Entry(
                    url: row.url, responseURL: row.responseURL, statusCode: row.statusCode, fields: Self.fields(row.headers),
                    varyValues: Dictionary(Self.fields(row.varyValues).map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                    requestTime: row.requestTime, responseTime: row.responseTime, storedAt: row.storedAt,
                    userInfo: row.userInfo.flatMap { try? JSONParser.parse($0) }, bodyLength: row.bodySize, memoryBody: nil,
                    disk: row.bodyFile.map { .file($0) } ?? .inStore, lastAccess: row.lastAccessAt))
        }
        if !missing.deletions.isEmpty { try await store.urlCaches.writeCacheChanges([missing]) }
        return entries
    }

    /// An entry's body wherever it is: memory, not yet written, the store, or its file.
    func storedBytes(of entry: URLCacheStorage.Entry, in storage: URLCacheStorage) async throws -> [UInt8]? {
        if let bytes = entry.memoryBody ?? entry.pendingBody { return bytes }
        switch entry.disk {
        case .inStore?: return try await store.urlCaches.cacheBody(inStorage: storage.placement.key, url: entry.url)
        case .file(let name)?: return FileManager.default.contents(atPath: storage.path(of: name)).map { [UInt8]($0) }
        case nil: return nil
        }
    }

    /// Removes files, logging (not throwing) a failure: a file left behind is removed at the next load.
    func unlinkFiles(_ files: [String], in storage: URLCacheStorage) {
        for file in files where unlink(storage.path(of: file)) != 0 && errno != ENOENT {
            logger.warning("Removing a cache file failed", metadata: ["file": "\(file)", "errno": "\(errno)"])
        }
    }

    /// `removeAllCachedResponses()` of the session's cache (the tenant's, when it is `shared`, as
    /// URLSession's `reset` empties the shared cache), in memory, on disk and in the store.
    func reset(_ session: SessionRecord) async throws {
        guard let placement = placement(of: session) else { return }
        let storage = try await storage(placement)
        unlinkFiles(storage.removeAll(since: nil), in: storage)
        try await persistChanges()
    }

    /// The session is invalidated: its private cache goes from memory, disk and store. A shared one stays.
    func discard(_ session: SessionRecord) async throws {
        guard let placement = placement(of: session), placement.sessionId != nil else { return }
        let storage = storages.withLock { $0.removeValue(forKey: placement.key) }
        retries.forget(placement.key)
        if let storage { _ = storage.removeAll(since: nil) }
        if placement.diskCapacity > 0 {
            var change = CacheEntryChanges(storage: placement.key)
            change.removesAll = true
            try await store.urlCaches.writeCacheChanges([change])
            try? FileManager.default.removeItem(atPath: placement.directory)
        }
    }

    /// Writes the rows changed since the last call, every cache's in one transaction. When that fails,
    /// each cache's are written alone, so that one the store refuses holds back no other; what failed is
    /// logged and tried again later, and the first failure thrown. `onlyDue`: the periodic writer's turn,
    /// which leaves a cache that failed until its pause is over.
    func persistChanges(onlyDue: Bool = false) async throws {
        try await writes.run("cache") {
            let now = ContinuousClock.now
            let changed = storages.withLock { Array($0.values) }
                .filter { !onlyDue || retries.isDue($0.placement.key, at: now) }
                .compactMap { storage in storage.takeChanges().map { (storage, $0) } }
            guard !changed.isEmpty else { return }
            try await StorageWriteBack.write(
                changed, { batch in try await store.urlCaches.writeCacheChanges(batch.map(\.1.changes)) },
                written: { storage, taken in
                    storage.written(taken.bodies)
                    retries.logWritten(storage.placement.key)
                },
                failed: { member, error in
                    member.0.giveBack(member.1.changes)
                    retries.logFailure(member.0.placement.key, error)
                })
        }
    }

    /// Persists every quarter second while the service runs (`cancel` ends it). A failure is logged where
    /// it happens, by cache.
    func persistPeriodically(every interval: Duration = .milliseconds(250)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { break }
            try? await persistChanges(onlyDue: true)
        }
    }

    /// Header fields as the store keeps them: one `name: value` per line.
    static func lines(_ fields: HTTPFields) -> String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    static func fields(_ lines: String) -> HTTPFields {
        lines.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
    }
}
