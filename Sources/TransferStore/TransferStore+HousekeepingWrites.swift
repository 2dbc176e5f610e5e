import Foundation
import GRDB
import TransferModels

/// The housekeeping's writes, timed: each holds the one writer while it runs, so how long the longest
/// took is how long a task's own write may have waited for it (reported with each pass).
extension TransferStore {
    /// Runs `body` in a write transaction as `pool.write` does, and records how long it held the writer:
    /// from the moment the body starts (the writer is ours) until the commit has returned.
    func housekeepingWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await timedOnWriter(body) { try await self.pool.write($0) }
    }

    /// `housekeepingWrite` outside a transaction (the vacuum steps).
    func housekeepingWriteWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await timedOnWriter(body) { try await self.pool.writeWithoutTransaction($0) }
    }

    /// Runs `body` through `write` (one of the pool's ways onto the writer), timed from its start.
    private func timedOnWriter<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T,
        _ write: (@escaping @Sendable (Database) throws -> T) async throws -> T
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
    public func takeLongestHousekeepingWrite() -> Duration {
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
