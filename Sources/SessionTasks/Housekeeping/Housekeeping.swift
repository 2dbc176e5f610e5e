import Foundation
public import Logging
public import ServiceLifecycle
import TransferModels
public import TransferStore

/// The periodic clean-up, a service of its own: files past their time-to-live, then rows past their
/// retention (`RetentionPolicy`), then the database pages they freed, every `housekeepingInterval`.
///
/// Every step finds its work on a reader and deletes it in small write transactions, awaiting in
/// between, so the tasks' own writes queue behind one batch at most, never behind a whole pass.
/// Graceful shutdown stops a pass between two batches; the service group stops it before the store.
public final class Housekeeping: Service, Sendable {
    /// Batches one pass runs at most per kind of row: a pass ends, the next goes on.
    static let maximumBatchesPerPass = 2_000

    let store: TransferStore
    /// Its retention, `fileTimeToLive`, `housekeepingInterval` and `cacheDirectory`.
    let configuration: TaskService.Configuration
    let files: TaskFiles
    let trustBundles: TrustBundles
    let logger: Logger

    /// The task layer's files and trust bundles: `tasks.files`, `tasks.trustBundles`.
    public init(
        store: TransferStore, configuration: TaskService.Configuration, files: TaskFiles, trustBundles: TrustBundles,
        logger: Logger
    ) {
        self.store = store
        self.configuration = configuration
        self.files = files
        self.trustBundles = trustBundles
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.keepTidy() }
    }

    /// Runs a pass every `configuration.housekeepingInterval` until cancelled.
    func keepTidy() async {
        let stopping = LockedBox(false)
        while !Task.isCancelled {
            // Not cancelled with the loop: a cancelled write interrupts SQLite, and an interrupt still
            // pending when the store closes at shutdown fails the close (seen once under load). The pass
            // stops between batches instead.
            let pass = Task { await self.housekeepingPass(now: Date(), stopping: stopping) }
            await withTaskCancellationHandler {
                await pass.value
            } onCancel: {
                stopping.withLock { $0 = true }
            }
            try? await Task.sleep(for: .milliseconds(Int64(configuration.housekeepingInterval * 1000)))
        }
    }

    /// One pass: expired files, delivered events, finished tasks, invalidated sessions, idempotency keys,
    /// then an incremental vacuum when anything went.
    func housekeepingPass(now: Date, stopping: LockedBox<Bool>) async {
        let policy = configuration.retention
        let limit = policy.batchSize
        let store = self.store
        let fileCutoff = now.addingTimeInterval(-configuration.fileTimeToLive)
        var longest = Duration.zero  // the longest batch of the pass: its read, its wait for the writer, its write
        let files = await repeatBatches("Expiring task files", stopping, &longest) {
            try await store.blobs.takeExpiredFiles(now: now, partialsCompletedBefore: fileCutoff, limit: limit)
        }
        let events = await repeatBatches("Pruning delivered events", stopping, &longest) {
            try await store.maintenance.pruneDeliveredEvents(deliveredBefore: now.addingTimeInterval(-policy.deliveredEvents), limit: limit)
        }
        let tasks = await repeatBatches("Pruning finished tasks", stopping, &longest) {
            try await store.maintenance.pruneFinishedTasks(completedBefore: now.addingTimeInterval(-policy.finishedTasks), limit: limit)
        }
        let sessions = await repeatBatches("Pruning invalidated sessions", stopping, &longest) {
            try await store.maintenance.pruneInvalidatedSessions(
                invalidatedBefore: now.addingTimeInterval(-policy.invalidatedSessions), limit: limit)
        }
        let keys = await repeatBatches("Pruning idempotency keys", stopping, &longest) {
            try await store.maintenance.pruneIdempotencyKeys(
                createdBefore: now.addingTimeInterval(-IdempotencyStore.idempotencyWindow), limit: limit)
        }
        guard events + tasks + sessions + keys > 0 || store.maintenance.checkpointIsOwed else { return }
        var released = 0
        do {
            released = try await store.maintenance.releaseFreePages(stopping: { stopping.withLock { $0 } })
        } catch {
            logger.warning("Releasing free database pages failed", metadata: ["error": "\(error)"])
        }
        logger.info(
            "Pruned rows past their retention",
            metadata: [
                "expiredFiles": "\(files)", "events": "\(events)", "tasks": "\(tasks)", "sessions": "\(sessions)",
                "idempotencyKeys": "\(keys)", "releasedPages": "\(released)",
                "longestBatchMilliseconds": "\(Self.milliseconds(longest))",
                "longestWriteMilliseconds": "\(Self.milliseconds(store.maintenance.takeLongestHousekeepingWrite()))",
            ])
    }

    /// Runs `batch` until it reports its last one (or the pass is stopping), removing the files (and
    /// objects) each released once their rows are gone; returns the rows (files, for file expiry) it deleted.
    private func repeatBatches(
        _ what: String, _ stopping: LockedBox<Bool>, _ longest: inout Duration,
        _ batch: @Sendable () async throws -> PrunedBatch
    ) async -> Int {
        var count = 0
        for _ in 0..<Self.maximumBatchesPerPass where !stopping.withLock({ $0 }) {
            do {
                let started = ContinuousClock.now
                let done = try await batch()
                longest = max(longest, ContinuousClock.now - started)
                for path in done.files { TaskFiles.removePartialFile(path) }  // a partial file's journal too
                await files.deleteObjects(done.objects)
                for session in done.sessions { forgetFiles(ofSession: session) }
                count += done.rows
                if done.isLast { break }
            } catch {
                logger.warning("\(what) failed", metadata: ["error": "\(error)"])
                break
            }
            await Task.yield()
        }
        return count
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// A pruned session's files outside the store: its trust bundle and its private URL cache's directory.
    private func forgetFiles(ofSession id: String) {
        trustBundles.forget(session: id)
        try? FileManager.default.removeItem(at: configuration.cacheDirectory.appendingPathComponent("session-\(id)"))
    }
}
