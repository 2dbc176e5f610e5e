import Foundation
import TransferModels

/// The housekeeping's writes, timed: each holds the one writer while it runs, so how long the longest
/// took is how long a task's own write may have waited for it (reported with each pass). Shared by the
/// aggregates whose housekeeping writes (`MaintenanceStore`, `BlobStore`'s expired files, `UsageStore`'s fold).
struct HousekeepingWrites: Sendable {
    let database: any StoreDatabase
    /// The longest write of the housekeeping since it last asked (`takeLongest`).
    let longestHousekeepingWrite = LockedBox(Duration.zero)

    /// Runs `body` in a write transaction as `database.write` does, and records how long it held the
    /// writer: from the moment the body starts (the writer is ours) until the commit has returned.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await timedOnWriter(body) { try await self.database.write($0) }
    }

    /// Runs `body` through `write` (a way onto the writer: a transaction, or SQLite's writer outside one
    /// for the vacuum steps), timed from its start.
    func timedOnWriter<Connection, T: Sendable>(
        _ body: @escaping @Sendable (Connection) throws -> T,
        _ write: (@escaping @Sendable (Connection) throws -> T) async throws -> T
    ) async throws -> T {
        let started = LockedBox<ContinuousClock.Instant?>(nil)
        let result = try await write { db in
            started.withLock { $0 = .now }
            return try body(db)
        }
        noteHousekeepingWrite(since: started)
        return result
    }

    /// The longest housekeeping write since the last call, and starts counting again.
    func takeLongest() -> Duration {
        longestHousekeepingWrite.withLock { longest in
            defer { longest = .zero }
            return longest
        }
    }

    private func noteHousekeepingWrite(since started: LockedBox<ContinuousClock.Instant?>) {
        guard let started = started.withLock({ $0 }) else { return }
        let held = ContinuousClock.now - started
        longestHousekeepingWrite.withLock { $0 = max($0, held) }
    }
}
