public import Foundation
public import Logging
public import ServiceLifecycle
import TransferModels
public import TransferEngine
public import TransferStore

/// Runs the store's tasks on the engine: `resume()`, `suspend()`, `cancel()`, and records what the
/// transfers report (responses, progress, completion) as the task's state.
///
/// Engine callbacks arrive on the loop thread and are only queued here; `run()` writes them to the
/// store in order, batching progress, so the loop never waits for SQLite.
public final class TaskRunner: TransferObserver, Service, @unchecked Sendable {
    // `@unchecked Sendable`: mutable state lives in the `LockedBox`es; the rest is immutable after init.
    public struct Configuration: Sendable {
        public var engine = EngineConfiguration()
        /// Where blob files live (`<data>/blobs`), for uploads from a blob.
        public var blobDirectory = URL(fileURLWithPath: "./data/blobs")
        /// How long a finished download or body is kept unless deleted (`didFinishDownloadingTo`'s file).
        public var fileTimeToLive: TimeInterval = 24 * 3600
        /// Response bodies of data and upload tasks up to this size are kept in the store, not as files.
        public var keptBodyLimit = 64 * 1024
        public init() {}
    }

    let store: TransferStore
    let configuration: Configuration
    /// `configuration.engine.downloadsDirectory` as a path (Foundation's URL building costs ~3% of the CPU
    /// of small tasks).
    let downloadsPath: String
    let logger: Logger
    /// Set once: the engine needs its observer (this runner) to exist first.
    private(set) var engine: TransferEngine!
    /// Finished transfers, in the order the engine reported them, for `prepareCompletions`.
    let completionsStream: AsyncStream<(String, TransferOutcome)>
    private let completionsContinuation: AsyncStream<(String, TransferOutcome)>.Continuation
    /// Tasks whose transfer was stopped by `suspend()`, with the partial files of the stopped attempts:
    /// their abort is not a completion.
    let suspending = LockedBox<[String: [String?]]>([:])
    /// Tasks the engine runs, by id: what their reports need to know without reading the store.
    let active = LockedBox<[String: ActiveTask]>([:])
    /// Reports waiting for the writer, and its doorbell.
    let pending = LockedBox(PendingReports())
    let doorbell = Doorbell()
    let writerClosed = LockedBox(false)
    /// Set at shutdown: transfers the engine aborts now are not completions. Their tasks stay running in
    /// the store, with their partial files, for the next start to pick up (`recoverUnfinishedTasks`).
    let stopping = LockedBox(false)
    /// Downloads cancelled `byProducingResumeData`.
    let resumeWanted = LockedBox<Set<String>>([])
    /// Running tasks with no transfer for now: waiting for their `earliestBeginDate`, or to try again after
    /// a network error. `cancel` ends them at once.
    let scheduled = LockedBox<Set<String>>([])
    /// How many times each background task was tried again (for its backoff).
    let retryAttempts = LockedBox<[String: Int]>([:])
    /// Answers to decision events (`answerDecisions(with:)`); nil: every decision takes the default.
    let decisionSource = LockedBox<DecisionAnswerSource?>(nil)
    let waiters = CompletionWaiters()

    public init(store: TransferStore, configuration: Configuration, logger: Logger) throws {
        self.store = store
        self.configuration = configuration
        self.downloadsPath = configuration.engine.downloadsDirectory.path
        self.logger = logger
        (completionsStream, completionsContinuation) = AsyncStream.makeStream(of: (String, TransferOutcome).self)
        try FileManager.default.createDirectory(at: configuration.engine.downloadsDirectory, withIntermediateDirectories: true)
        self.engine = try TransferEngine(configuration: configuration.engine, observer: self, logger: logger)
    }

    // MARK: URLSessionTask's controls

    /// `resume()`: takes one `suspend()` away; when none is left the transfer starts (or restarts).
    /// Harmless on a running task.
    public func resume(taskId: String, tenant: String) async throws -> TaskRecord {
        let task = try await requireTask(taskId, tenant: tenant)
        guard let session = try await store.session(id: task.sessionId, tenant: tenant) else { throw TaskStoreError.sessionNotFound }
        let (resumed, starts) = try await store.resumeTask(id: taskId)
        return starts ? try await start(resumed, session: session) : resumed
    }

    /// Starts the transfer of a task the store already shows as running (created with `"resume": true`).
    public func start(_ running: TaskRecord, session: SessionRecord) async throws -> TaskRecord {
        do {
            try await launch(running, session: session)
            return running
        } catch let failure as TransferError {
            return try await complete(running.id, error: failure)
        }
    }

    /// Hands the task's job to the engine, the task now active (its reports have what they need). With
    /// `continuing`, a download whose partial file was checkpointed continues it (`Range` + `If-Range`).
    func launch(_ task: TaskRecord, session: SessionRecord, continuing: Bool = false) async throws {
        if let begin = task.earliestBeginDate, begin.timeIntervalSinceNow > 0 {
            scheduled.withLock { _ = $0.insert(task.id) }
            Task { await self.begin(task.id, at: begin, continuing: continuing) }
            return
        }
        var job = try await makeJob(for: task, session: session)
        if continuing, let resume = Self.resumePoint(of: task) {
            (job.downloadPath, job.resumeOffset, job.ifRange) = (resume.path, resume.offset, resume.validator)
        } else {
            if let stale = task.partialPath { unlink(stale) }  // an attempt that cannot be continued
            if task.resumeData != nil { continueFromResumeData(task, job: &job) }  // a token's file, once
        }
        if task.kind == .download, let path = job.downloadPath {
            pending.withLock { $0.partialFiles[task.id] = path }  // the checkpoint a restart continues from
        }
        let entry = active.withLock { active in
            let entry = ActiveTask(
                record: task, session: session, started: active[task.id]?.started ?? Date(), partialPath: job.downloadPath)
            active[task.id] = entry
            return entry
        }
        job.decidesRedirects = entry.decidesRedirects
        job.decidesResponse = entry.decidesResponse
        job.decidesChallenges = entry.decidesChallenges
        engine.start(job)
    }

    /// `suspend()`: the transfer stops (no traffic, no timeouts) and it takes as many `resume()` calls as
    /// `suspend()` calls to run again; `resume()` starts it again from the beginning.
    public func suspend(taskId: String, tenant: String) async throws -> TaskRecord {
        let task = try await requireTask(taskId, tenant: tenant)
        guard task.state == .running else { return try await store.suspendTask(id: taskId).0 }
        // Stop the attempt first: from here its reports are ignored, and its last counters are the task's.
        let (stopped, counts) = active.withLock { active in
            (active.removeValue(forKey: taskId), pending.withLock { $0.progress.removeValue(forKey: taskId) })
        }
        if let stopped { suspending.withLock { $0[taskId, default: []].append(stopped.partialPath) } }
        engine.cancel(TransferID(taskId: taskId, attempt: 0))
        return try await store.suspendTask(id: taskId, counts: counts).0
    }

    /// `cancel()`: the task completes with `NSURLErrorCancelled`. `producingResumeData`
    /// (`cancel(byProducingResumeData:)`): a running download keeps its partial file and its error
    /// carries the resume data (`userInfo.NSURLSessionDownloadTaskResumeData`) when it can be continued.
    public func cancel(taskId: String, tenant: String, producingResumeData: Bool = false) async throws -> TaskRecord {
        let task = try await requireTask(taskId, tenant: tenant)
        switch task.state {
        case .completed: throw TaskStoreError.invalidStateTransition
        case .canceling: return task
        case .suspended:
            return try await complete(taskId, error: .cancelled(failingURL: task.currentRequest?.url ?? task.originalRequest?.url))
        case .running:
            if scheduled.withLock({ $0.remove(taskId) }) != nil {  // waiting to begin or between two attempts: nothing runs
                return try await complete(taskId, error: .cancelled(failingURL: task.currentRequest?.url ?? task.originalRequest?.url))
            }
            let canceling = try await store.updateTaskState(id: taskId, to: .canceling)
            if producingResumeData { resumeWanted.withLock { _ = $0.insert(taskId) } }
            engine.cancel(TransferID(taskId: taskId, attempt: 0))
            return canceling
        }
    }

    /// Waits until the task completes, at most `timeout` (the API's `?wait=`).
    public func waitForCompletion(of taskId: String, tenant: String, timeout: Duration) async throws -> TaskRecord {
        try await waiters.wait(for: taskId, timeout: timeout) { [store] in
            try await store.task(id: taskId, tenant: tenant)?.state == .completed
        }
        return try await requireTask(taskId, tenant: tenant)
    }

    /// Ends every `?wait=` now (graceful shutdown must not sit out long-polls).
    public func releaseWaiters() { waiters.releaseAll() }

    /// The tenant's task, or `TaskStoreError.taskNotFound`.
    public func requireTask(_ id: String, tenant: String) async throws -> TaskRecord {
        guard let task = try await store.task(id: id, tenant: tenant) else { throw TaskStoreError.taskNotFound }
        return task
    }

    // MARK: TransferObserver (engine loop thread: short work under a lock, no I/O)

    public func transfer(_ transfer: TransferID, didReceive response: ResponseHead, for request: OutgoingRequest) {
        let id = transfer.taskId
        let snapshot = HTTPResponseSnapshot(url: request.url, statusCode: response.statusCode, headerLines: response.fields)
        active.withLock { active in
            guard let task = active[id] else { return }
            pending.withLock { pending in
                pending.record(ResponseReport(response: snapshot), for: id)
                // A delegate that decides gets the decision event instead (`asksAbout`).
                if task.record.kind != .download && !task.isCompletionForm && !task.decidesResponse {
                    pending.events.append(task.event(.response(snapshot)))
                }
            }
        }
    }

    /// `currentRequest` follows the redirect; `response` shows the 3xx until the next one.
    public func transfer(_ transfer: TransferID, willRedirect response: ResponseHead, to request: OutgoingRequest) {
        let id = transfer.taskId
        active.withLock { active in
            guard let task = active[id], let base = task.record.originalRequest else { return }
            pending.withLock { pending in
                let current = pending.responses[id]?.currentRequest?.url ?? base.url
                let head = HTTPResponseSnapshot(url: current, statusCode: response.statusCode, headerLines: response.fields)
                let next = RequestSnapshots.snapshot(of: request, basedOn: base)
                pending.record(ResponseReport(response: head, currentRequest: next), for: id)
                // A redirect the delegate decided was reported by its decision event.
                if task.reportsRedirects && !task.decidesRedirects { pending.events.append(task.event(.redirect(head, next))) }
            }
        }
    }

    /// Counters always; progress events at most once per `progressInterval`. (Both locks, in this order,
    /// as `suspend` takes them: a stopped attempt's late report changes nothing.)
    public func transfer(_ transfer: TransferID, didProgress progress: TransferProgress) {
        let id = transfer.taskId
        let counts = Self.counts(progress)
        let now = ContinuousClock.now
        active.withLock { active in
            guard var task = active[id] else { return }
            let events = task.progressEvents(progress, now: now)
            if !events.isEmpty { active[id] = task }
            pending.withLock { pending in
                pending.progress[id] = counts
                pending.events += events
            }
        }
    }

    /// `downloadTask.didResumeAtOffset`; progress events count on from the offset.
    public func transfer(_ transfer: TransferID, didResumeAtOffset offset: Int64, expectedTotalBytes: Int64) {
        let id = transfer.taskId
        active.withLock { active in
            guard var task = active[id] else { return }
            task.reportedReceived = offset
            active[id] = task
            pending.withLock { $0.events.append(task.event(.resumed(offset, expectedTotalBytes))) }
        }
    }

    public func transfer(_ transfer: TransferID, didComplete outcome: TransferOutcome) {
        let id = transfer.taskId
        completionsContinuation.yield((id, outcome))
    }

    // MARK: Service

    public func run() async throws {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.writeReports() }
                group.addTask {
                    await self.prepareCompletions()
                    self.closeWriter()  // after the last completion: the writer writes what is left, then ends
                }
                group.addTask { await self.tickWriter() }
                await self.recoverUnfinishedTasks()
                group.addTask { await self.expireFiles() }
                try? await gracefulShutdown()
                self.releaseWaiters()
                self.stopping.withLock { $0 = true }
                await self.engine.shutdown()  // aborts transfers: not completions (see `stopping`)
                self.completionsContinuation.finish()
                group.cancelAll()  // the ticker and the file janitor
            }
        } onGracefulShutdown: {
            self.releaseWaiters()
        }
    }
}
