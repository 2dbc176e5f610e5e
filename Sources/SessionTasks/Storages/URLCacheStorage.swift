import Foundation
import HTTPCaching
import JSONCodec
import TransferModels
import TransferStore

/// One `URLCache`: its entries by URL in two tiers, each bounded by its capacity and evicted least
/// recently used first, as URLCache does:
/// - memory: bodies held in memory (`memoryCapacity`);
/// - disk: rows in the store (`diskCapacity`), written by the periodic writer (`takeChanges`), with their
///   bodies in the store too when small (as Apple's `Cache.db` keeps them: no file to create per
///   response), else as files in the cache's directory.
///
/// An entry lives while either tier holds it. A response bigger than 5% of a tier's capacity does not go
/// to that tier (URLCache's rule). The index is guarded by a lock and never does I/O under it.
final class URLCacheStorage: Sendable {
    struct Entry: Sendable {
        var url: String
        var responseURL: String
        var statusCode: Int
        var fields: HTTPFields
        var varyValues: [String: String]
        var requestTime: Date
        var responseTime: Date
        var storedAt: Date
        var userInfo: JSONValue?
        var bodyLength: Int64
        /// The body, when the memory tier holds it.
        var memoryBody: [UInt8]?
        /// Where the disk tier keeps the body, when it holds the entry.
        var disk: DiskBody?
        /// A body bound for the store that has not been written yet (dropped once it is).
        var pendingBody: [UInt8]?
        /// Tells this entry from a later one for the same URL (the writer's acknowledgements).
        var generation: UInt64 = 0
        var lastAccess: Date
        /// Recency for LRU: the storage's use counter at the last use.
        var lastUse: UInt64 = 0

        /// What the entry counts against a capacity: its body and its header fields.
        var size: Int64 { bodyLength + Int64(fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }) }

        var stored: StoredResponse {
            StoredResponse(
                statusCode: statusCode, fields: fields, requestTime: requestTime, responseTime: responseTime, varyValues: varyValues)
        }

        var storagePolicy: URLCacheStoragePolicy { disk != nil ? .allowed : .allowedInMemoryOnly }

        var diskFile: String? {
            if case .file(let name) = disk { return name }
            return nil
        }
    }

    enum DiskBody: Sendable, Equatable {
        /// A file in the cache's directory.
        case file(String)
        /// A row of the store's `cache_body`.
        case inStore
    }

    /// Bodies up to this size go to the store rather than to a file of their own.
    static let inStoreBodyLimit: Int64 = 64 * 1024

    /// The longest URL (UTF-8 bytes) whose response the disk tier takes; a longer one is kept in memory
    /// only. The store's key of an entry is its storage and URL, and PostgreSQL's b-tree holds keys of at
    /// most 2,704 bytes (a third of a page): a longer, incompressible URL would fail the write of every
    /// row of its batch, again at each turn. The same on SQLite, so both stores keep the same entries.
    static let maximumStoredURLLength = 2048

    private struct State {
        var entries: [String: Entry] = [:]
        var memoryUsage: Int64 = 0
        var diskUsage: Int64 = 0
        var useCounter: UInt64 = 0
        var changes: CacheEntryChanges
        var upserts: Set<String> = []
    }

    let placement: URLCaches.Placement
    private let state: LockedBox<State>

    /// - Parameter entries: the stored entries, least recently used first.
    init(placement: URLCaches.Placement, entries: [Entry]) {
        self.placement = placement
        var state = State(changes: CacheEntryChanges(storage: placement.key))
        for (index, var entry) in entries.enumerated() {
            entry.lastUse = UInt64(index + 1)
            state.diskUsage += entry.size
            state.entries[entry.url] = entry
        }
        state.useCounter = UInt64(entries.count)
        self.state = LockedBox(state)
    }

    /// The largest response the memory tier takes: 5% of its capacity (the disk tier's: `Offer.fitsDiskTier`).
    var memoryLimit: Int64 { Int64(placement.memoryCapacity / 20) }

    func path(of file: String) -> String { placement.directory + "/" + file }

    /// The entry for `url` (a cache key), marked as used.
    func entry(for url: String) -> Entry? {
        state.withLock { state in
            guard var entry = state.entries[url] else { return nil }
            state.useCounter += 1
            entry.lastUse = state.useCounter
            entry.lastAccess = Date()
            state.entries[url] = entry
            return entry
        }
    }

    /// The entry for `url`, not counted as a use (the API's look).
    func peek(_ url: String) -> Entry? { state.withLock { $0.entries[url] } }

    var usage: (memory: Int64, disk: Int64, count: Int) {
        state.withLock { ($0.memoryUsage, $0.diskUsage, $0.entries.count) }
    }

    /// Stores `entry` (replacing the one for its URL); its tiers are already decided: `memoryBody` set
    /// for the memory tier, `disk` for the disk tier (a file already written, or `pendingBody` for the
    /// store). Returns the files to unlink.
    func insert(_ entry: Entry) -> [String] {
        state.withLock { state in
            var unlinked = Self.remove(entry.url, from: &state)
            var entry = entry
            state.useCounter += 1
            entry.lastUse = state.useCounter
            entry.generation = state.useCounter
            state.entries[entry.url] = entry
            if entry.memoryBody != nil { state.memoryUsage += entry.size }
            if entry.disk != nil {
                state.diskUsage += entry.size
                state.upserts.insert(entry.url)
            }
            unlinked += evict(&state)
            return unlinked
        }
    }

    /// Keeps `body` in memory for an entry read from its file, when it fits the memory tier.
    func promote(_ url: String, body: [UInt8]) -> [String] {
        state.withLock { state in
            guard var entry = state.entries[url], entry.memoryBody == nil, Int64(body.count) == entry.bodyLength,
                entry.size <= memoryLimit
            else { return [] }
            entry.memoryBody = body
            state.entries[url] = entry
            state.memoryUsage += entry.size
            return evict(&state)
        }
    }

    /// A 304 revalidated the entry: its fields and times are the new ones.
    func revalidated(_ url: String, fields: HTTPFields, requestTime: Date, responseTime: Date) {
        state.withLock { state in
            guard var entry = state.entries[url] else { return }
            let before = entry.size
            (entry.fields, entry.requestTime, entry.responseTime) = (fields, requestTime, responseTime)
            if entry.memoryBody != nil { state.memoryUsage += entry.size - before }
            if entry.disk != nil {
                state.diskUsage += entry.size - before
                state.upserts.insert(url)
            }
            state.entries[url] = entry
        }
    }

    /// Removes the entry for `url`; returns the files to unlink.
    func remove(_ url: String) -> [String] {
        state.withLock { Self.remove(url, from: &$0) }
    }

    /// Removes every entry stored since `date` (all without one); returns the files to unlink.
    func removeAll(since date: Date?) -> [String] {
        state.withLock { state in
            guard let date else {
                let files = state.entries.values.compactMap(\.diskFile)
                state = State(useCounter: state.useCounter, changes: CacheEntryChanges(storage: placement.key))  // generations stay unique
                state.changes.removesAll = true
                return files
            }
            let urls = state.entries.values.filter { $0.storedAt >= date }.map(\.url)
            return urls.flatMap { Self.remove($0, from: &state) }
        }
    }

    private static func remove(_ url: String, from state: inout State) -> [String] {
        guard let entry = state.entries.removeValue(forKey: url) else { return [] }
        if entry.memoryBody != nil { state.memoryUsage -= entry.size }
        guard entry.disk != nil else { return [] }
        state.diskUsage -= entry.size
        state.upserts.remove(url)
        state.changes.deletions.append(url)
        return entry.diskFile.map { [$0] } ?? []
    }

    /// Evicts least recently used bodies until each tier is within its capacity.
    private func evict(_ state: inout State) -> [String] {
        var unlinked: [String] = []
        while state.memoryUsage > Int64(placement.memoryCapacity),
            let victim = state.entries.values.lazy.filter({ $0.memoryBody != nil }).min(by: { $0.lastUse < $1.lastUse })
        {
            if victim.disk == nil {
                unlinked += Self.remove(victim.url, from: &state)
            } else {
                state.entries[victim.url]?.memoryBody = nil
                state.memoryUsage -= victim.size
            }
        }
        while state.diskUsage > Int64(placement.diskCapacity),
            let victim = state.entries.values.lazy.filter({ $0.disk != nil }).min(by: { $0.lastUse < $1.lastUse })
        {
            if victim.memoryBody == nil {
                unlinked += Self.remove(victim.url, from: &state)
            } else {
                state.entries[victim.url]?.disk = nil
                state.entries[victim.url]?.pendingBody = nil
                state.diskUsage -= victim.size
                state.upserts.remove(victim.url)
                state.changes.deletions.append(victim.url)
                unlinked += victim.diskFile.map { [$0] } ?? []
            }
        }
        return unlinked
    }

    /// The rows (and bodies) to write since the last call, nil when nothing changed; with the entries
    /// whose bodies they carry, for `written` to acknowledge.
    func takeChanges() -> (changes: CacheEntryChanges, bodies: [(url: String, generation: UInt64)])? {
        state.withLock { state in
            var changes = state.changes
            var carried: [(url: String, generation: UInt64)] = []
            for url in state.upserts {
                guard let entry = state.entries[url], let row = record(of: entry) else { continue }
                changes.upserts.append(row)
                if let body = entry.pendingBody {
                    changes.bodies[url] = body
                    carried.append((url, entry.generation))
                }
            }
            state.changes = CacheEntryChanges(storage: placement.key)
            state.upserts.removeAll()
            return changes.isEmpty ? nil : (changes, carried)
        }
    }

    /// The bodies a write carried are in the store: their memory copies (kept for the write) go, unless
    /// a newer entry took the URL meanwhile.
    func written(_ bodies: [(url: String, generation: UInt64)]) {
        state.withLock { state in
            for (url, generation) in bodies where state.entries[url]?.generation == generation {
                state.entries[url]?.pendingBody = nil
            }
        }
    }

    /// A write failed: its changes are tried again at the next turn (newer changes win; bodies not
    /// written are still pending).
    func giveBack(_ changes: CacheEntryChanges) {
        state.withLock { state in
            if changes.removesAll { state.changes.removesAll = true }
            let newer = Set(state.changes.deletions)
            state.changes.deletions =
                changes.deletions.filter { !newer.contains($0) && state.entries[$0]?.disk == nil }
                + state.changes.deletions
            for row in changes.upserts where state.entries[row.url]?.disk != nil { state.upserts.insert(row.url) }
        }
    }

    private func record(of entry: Entry) -> CacheEntryRecord? {
        guard entry.disk != nil else { return nil }
        return CacheEntryRecord(
            storage: placement.key, sessionId: placement.sessionId, url: entry.url, responseURL: entry.responseURL,
            statusCode: entry.statusCode, headers: URLCaches.lines(entry.fields),
            varyValues: URLCaches.lines(entry.varyValues.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
            requestTime: entry.requestTime, responseTime: entry.responseTime, storedAt: entry.storedAt,
            userInfo: entry.userInfo.flatMap { try? String(decoding: WireJSON.encode($0), as: UTF8.self) }, bodyFile: entry.diskFile,
            bodySize: entry.bodyLength, lastAccessAt: entry.lastAccess)
    }
}
