import TransferModels

/// The `streams` quota: server-sent event streams and long-polls (`?wait=`) each tenant has open at once.
///
/// Counted in memory: they are connections, and none survives a restart.
final class StreamQuota: Sendable {
    /// 0: no limit.
    let limit: Int64
    private let open = LockedBox<[String: Int64]>([:])

    init(limit: Int64) { self.limit = limit }

    /// Takes one of the tenant's streams until the returned slot is released (or dropped).
    func acquire(tenant: String) throws(QuotaExceeded) -> StreamSlot {
        let refused = open.withLock { open -> QuotaExceeded? in
            let count = open[tenant, default: 0]
            if limit > 0 && count >= limit { return QuotaExceeded(quota: .streams, limit: limit, usage: count) }
            open[tenant] = count + 1
            return nil
        }
        if let refused { throw refused }
        return StreamSlot { [open] in
            open.withLock { open in
                let left = open[tenant, default: 1] - 1
                open[tenant] = left > 0 ? left : nil
            }
        }
    }

    /// Runs `body` holding one of the tenant's streams (a long-poll).
    func holding<T>(tenant: String, _ body: () async throws -> T) async throws -> T {
        let slot = try acquire(tenant: tenant)
        defer { slot.release() }
        return try await body()
    }

    /// The tenant's open streams and long-polls.
    func count(tenant: String) -> Int64 { open.withLock { $0[tenant, default: 0] } }

    /// Every tenant with one open.
    var counts: [String: Int64] { open.withLock { $0 } }
}

/// One stream held against the quota. Released once: explicitly when the stream ends, or when the last
/// reference goes (a stream whose producer never ran still gives its slot back).
final class StreamSlot: Sendable {
    private let releaser: LockedBox<(@Sendable () -> Void)?>

    init(release: @escaping @Sendable () -> Void) { releaser = LockedBox(release) }

    func release() {
        let release = releaser.withLock { releaser in
            defer { releaser = nil }
            return releaser
        }
        release?()
    }

    deinit { release() }
}
