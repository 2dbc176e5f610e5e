import Logging
import TransferModels

/// The write-back of changed storages (cookies, caches): all of them in one write, and when that fails,
/// each alone, so that one the store refuses holds back no other.
enum StorageWriteBack {
    /// `write(batch)`; when it fails and the batch holds more than one member, `write([member])` for each.
    /// `written` is called for each member stored, `failed` for each not (given back for the next turn)
    /// with the error of its write; the first failure is thrown.
    static func write<Member>(
        _ batch: [Member], _ write: ([Member]) async throws -> Void, written: (Member) -> Void,
        failed: (Member, any Error) -> Void
    ) async throws {
        do {
            try await write(batch)
            batch.forEach(written)
            return
        } catch {
            guard batch.count > 1 else {
                for member in batch { failed(member, error) }
                throw error
            }
        }
        var failure: (any Error)?
        for member in batch {
            do {
                try await write([member])
                written(member)
            } catch {
                failed(member, error)
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }
}

/// When a storage whose write failed is tried again by the periodic writer: after n failures in a row,
/// `first` × 2ⁿ⁻¹, at most `longest`. A storage the store keeps refusing (a row it rejects, a full disk,
/// a database that is down) then costs a write and a log line a minute, not four a second, while the
/// other storages are written at the writer's own pace. An explicit write (`flush`, `reset`, shutdown)
/// tries every storage whatever its pause.
final class WriteBackRetries: Sendable {
    struct Failure: Equatable {
        /// Failed writes in a row.
        var count: Int
        /// How long the storage is left before the next try.
        var pause: Duration
    }

    static let first = Duration.milliseconds(500)
    static let longest = Duration.seconds(60)

    private let pauses = LockedBox<[String: (count: Int, until: ContinuousClock.Instant)]>([:])
    /// What is written, for the log: "cookies", "cache entries".
    private let what: String
    private let logger: Logger

    init(writing what: String, logger: Logger) {
        self.what = what
        self.logger = logger
    }

    /// Whether the periodic writer may try the storage `key` at `now`.
    func isDue(_ key: String, at now: ContinuousClock.Instant = .now) -> Bool {
        pauses.withLock { $0[key].map { now >= $0.until } ?? true }
    }

    /// Records a failed write of `key`: how many in a row, and the pause before the next try.
    func failed(_ key: String, at now: ContinuousClock.Instant = .now) -> Failure {
        pauses.withLock { pauses in
            let count = (pauses[key]?.count ?? 0) + 1
            let pause = Self.pause(afterFailures: count)
            pauses[key] = (count, now + pause)
            return Failure(count: count, pause: pause)
        }
    }

    /// Records a write of `key` that succeeded; returns the failures in a row it ends (0 for none).
    func succeeded(_ key: String) -> Int {
        pauses.withLock { $0.removeValue(forKey: key)?.count ?? 0 }
    }

    /// Records and logs a failed write of `key` (the storage, the failures in a row, the next try).
    func logFailure(_ key: String, _ error: any Error) {
        let failure = failed(key)
        logger.error(
            "Writing \(what) failed",
            metadata: [
                "storage": "\(key)", "failedWrites": "\(failure.count)", "nextTryIn": "\(failure.pause)",
                "error": "\(String(reflecting: error))",
            ])
    }

    /// Records a write of `key` that succeeded, with a notice when it ends failures.
    func logWritten(_ key: String) {
        let failures = succeeded(key)
        guard failures > 0 else { return }
        logger.notice("Writing \(what) succeeded again", metadata: ["storage": "\(key)", "failedWrites": "\(failures)"])
    }

    /// The storage `key` is gone (its session invalidated): its pause, if any, goes too.
    func forget(_ key: String) {
        pauses.withLock { _ = $0.removeValue(forKey: key) }
    }

    static func pause(afterFailures count: Int) -> Duration {
        let doublings = min(max(count - 1, 0), 16)
        return min(first * (1 << doublings), longest)
    }
}
