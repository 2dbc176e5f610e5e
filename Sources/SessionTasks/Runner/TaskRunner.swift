import Foundation
import HTTPCookies
import Logging
import NetworkPaths
import TransferEngine
import TransferModels
import TransferStore

/// Runs a node's tasks on the engine: the control calls (`resume()`, `suspend()`, `cancel()`), delayed
/// begins, background retries and recovery after a restart go through each task's `TaskLifecycle` in the
/// `TaskTable` (one lock), and the actions it returns are carried out here (`TaskRunner+Control`); as
/// the engine's observer, it records what the transfers report — responses, progress, delegate events,
/// their ends — as the tasks' state, through the report writer.
///
/// What it hands off: making a job (`JobFactory`), asking the delegate (`DelegateQuestions`), making a
/// completion (`TaskCompleter`) and updating the URL cache (`CacheUpdates`). `TaskService` is its door.
final class TaskRunner: TransferObserver, Sendable {
    let store: TransferStore
    let configuration: TaskService.Configuration
    let logger: Logger
    /// Downloads' and bodies' files, blobs, and their objects in the object store.
    let files: TaskFiles
    let jobs: JobFactory
    let questions: DelegateQuestions
    let completer: TaskCompleter
    let cache: CacheUpdates
    /// Set once in `init`: the engine needs its observer (this runner) to exist first.
    nonisolated(unsafe) private(set) var engine: TransferEngine!
    let table: TaskTable
    let writer: ReportWriter
    let waiters: TaskWaiters
    /// Tasks waiting for a usable path, and each path's availability as last seen.
    let connectivity = ConnectivityWaits()
    /// webSocket tasks' channels (`messages`, `ping`) and stream tasks' (`read`, `write`, the closes), open
    /// and recently ended.
    let channels = ConnectionChannels()
    /// Ended transfers, in the order the engine reported them, for `settleEndedAttempts`.
    let ended = AsyncStream.makeStream(of: (TransferID, TransferOutcome).self)

    /// - Parameter slotsFreed: rung when a transfer's completion is queued (its slot is free); nil on a
    ///   single node, where nothing waits for it.
    init(
        store: TransferStore, configuration: TaskService.Configuration, decisions: any DelegateDecisions,
        locations: any TaskBodyLocations, files: TaskFiles, storages: SessionStorages, networks: NetworkPathMonitor,
        trustBundles: TrustBundles, slotsFreed: Doorbell?, logger: Logger
    ) throws {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.files = files
        let table = TaskTable()
        self.table = table
        let waiters = TaskWaiters(completions: CompletionWaiters())
        self.waiters = waiters
        self.writer = ReportWriter(
            store: store, waiters: waiters.completions, node: configuration.cluster?.nodeID, logger: logger, completionQueued: slotsFreed
        ) { written in
            table.completionsWritten(written)
            for id in written { waiters.bodies.completed(id) }
        }
        self.completer = TaskCompleter(
            store: store, configuration: configuration, locations: locations, files: files, channels: channels, logger: logger)
        self.questions = DelegateQuestions(
            writer: writer, decisions: decisions, table: table, store: store, files: files, credentials: storages.credentials,
            allowedSchemes: Set(["http", "https"] + configuration.engine.extraProtocols), logger: logger)
        self.cache = CacheUpdates(
            urlCaches: storages.urlCaches, questions: questions, completer: completer, writer: writer, files: files, logger: logger)
        self.jobs = JobFactory(
            store: store, configuration: configuration, files: files, trustBundles: trustBundles, networks: networks, storages: storages)
        self.engine = try TransferEngine(configuration: configuration.engine, observer: self, logger: logger)
        connectivity.availability.withLock { known in
            for state in networks.states() { known[state.path.name] = state.isAvailable }
        }
    }

    /// The writer, the settling of ended attempts, the timers and the SQLite checkpoints: until `stop()`
    /// and the caller's cancellation (the writer ends once the last completion is written).
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.writer.run() }
            group.addTask {
                await self.settleEndedAttempts()
                self.writer.close()  // after the last completion: the writer writes what is left, then ends
            }
            group.addTask { await self.writer.tick() }
            group.addTask { await self.store.maintenance.runCheckpoints() }  // the WAL copied back, off the writer
            // earliestBeginDate, retry backoffs, resource timeouts
            group.addTask { await self.table.timers.run { await self.timerFired($0, of: $1) } }
        }
    }

    /// Graceful shutdown: nothing new starts, the engine aborts its transfers (not completions: see
    /// `TaskTable.isStopping`), and `run()` returns once the last completion is written.
    func stop() async {
        waiters.releaseAll()
        table.stop()
        await engine.shutdown()
        ended.continuation.finish()
    }

    /// The engine reported the end of an attempt (loop thread): settled in order by `settleEndedAttempts`.
    func transfer(_ transfer: TransferID, didComplete outcome: TransferOutcome) {
        ended.continuation.yield((transfer, outcome))
    }
}
