import TransferModels

/// Answers made from a table of the store (a session's task list, a task's event page), by request, kept
/// while the table has had no commit since they were read: the store counts its tables' commits
/// (`TaskStore.taskChangeCount`, `.eventChangeCount`), and an entry is current while the count it was
/// read under is the count now. An answer that also shows what changes without a commit (a running task's
/// rate, from memory) is current for a bounded time besides.
///
/// Only answers up to `maximumEntryBytes` are kept, so the cache holds at most `capacity` of them: the
/// polls it is for (`?state=running&limit=1`, a page of new events) are small, while a page of a thousand
/// tasks is hundreds of KiB and rarely read twice between commits (kept by count alone, a soak's pages of
/// finished sessions grew the service by 37 MiB a minute).
final class ChangeCountedJSONCache: Sendable {
    private struct Entry {
        var count: UInt64
        var json: [UInt8]
        /// nil: current for as long as the count is.
        var expires: ContinuousClock.Instant?
    }

    private let entries: LockedBox<BoundedCache<String, Entry>>
    let maximumEntryBytes: Int

    init(capacity: Int = 512, maximumEntryBytes: Int = 32 * 1024) {
        entries = LockedBox(BoundedCache(capacity: capacity))
        self.maximumEntryBytes = maximumEntryBytes
    }

    /// The answer for `key` if it is still current; `count` is the table's count now.
    func cached(_ key: String, count: UInt64) -> [UInt8]? {
        guard let entry = entries.withLock({ $0[key] }), entry.count == count else { return nil }
        if let expires = entry.expires, ContinuousClock.now >= expires { return nil }
        return entry.json
    }

    /// The answer for `key`, made by `make` when none is current; `make` says for how long at most its
    /// answer may be reused (nil: while the count holds). `count` must be taken before `make` queries: a
    /// commit during the query then leaves the answer labelled with the older count.
    func json(
        _ key: String, count: UInt64, make: () async throws -> (json: [UInt8], keptFor: Duration?)
    ) async throws -> [UInt8] {
        if let json = cached(key, count: count) { return json }
        let made = try await make()
        guard made.json.count <= maximumEntryBytes else { return made.json }
        let entry = Entry(count: count, json: made.json, expires: made.keptFor.map { ContinuousClock.now + $0 })
        entries.withLock { _ = $0.insert(entry, for: key) }
        return made.json
    }
}
