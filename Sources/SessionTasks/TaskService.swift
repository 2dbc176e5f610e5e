public import Foundation
import HTTPCookies
public import Logging
public import NetworkPaths
public import ObjectStorage
public import ServiceLifecycle
public import TransferEngine
public import TransferModels
public import TransferStore

/// URLSession's task layer: creates the store's tasks and runs them on the engine — `resume()`,
/// `suspend()`, `cancel()`, delayed begins, background retries, recovery after a restart — and records
/// what the transfers report (responses, progress, delegate events, completion) as the tasks' state.
///
/// The task layer's door: what the control plane asks of tasks. The tasks run in `TaskRunner`; the
/// sessions' API is `sessions`.
public final class TaskService: Service, Sendable {
    public struct Configuration: Sendable {
        public var engine = EngineConfiguration()
        /// Where blob files live (`<data>/blobs`), for uploads from a blob.
        public var blobDirectory = URL(fileURLWithPath: "./data/blobs")
        /// How long a finished download or body is kept unless deleted (`didFinishDownloadingTo`'s file).
        public var fileTimeToLive: TimeInterval = 24 * 3600
        /// How long finished tasks, delivered events and invalidated sessions are kept.
        public var retention = RetentionPolicy()
        /// Seconds between housekeeping passes (expired files, retention).
        public var housekeepingInterval: TimeInterval = 60
        /// Response bodies of data and upload tasks up to this size are kept in the store, not as files.
        public var keptBodyLimit = 64 * 1024
        /// Where sessions' trust bundles are written (`<data>/trust`).
        public var trustDirectory = URL(fileURLWithPath: "./data/trust")
        /// Where URL caches keep their bodies (`<data>/cache`).
        public var cacheDirectory = URL(fileURLWithPath: "./data/cache")
        /// The capacities of each tenant's shared cache (`URLCache.shared`'s on Apple platforms by default).
        public var sharedCacheMemoryCapacity = 512_000
        public var sharedCacheDiskCapacity = 10_000_000
        /// The host's network paths (`URLSESSIOND_NETWORKS`); empty: one unrestricted path, the default route.
        public var networkPaths: [NetworkPath] = []
        /// The system proxy URLSession would use (`URLSESSIOND_PROXY`), unless a path has its own or a
        /// session's `connectionProxyDictionary` says otherwise; and the hosts it does not apply to.
        public var systemProxy: String?
        public var systemNoProxy: String?
        /// This node among several on one PostgreSQL database; nil: the only node (SQLite, or PostgreSQL
        /// without a cluster).
        public var cluster: ClusterMembership?
        /// Where finished downloads' files go (`URLSESSIOND_OBJECT_STORE_URL`); nil: they stay on disk.
        public var objectStore: ObjectStore?
        /// The one directory `file:` URLs may read from (`URLSESSIOND_FILE_ROOT`); nil: every `file:` URL is refused.
        public var fileRoot: FileRoot?
        public init() {}
    }

    let store: TransferStore
    let configuration: Configuration
    let logger: Logger
    /// Runs the tasks on the engine.
    let runner: TaskRunner
    /// Downloads' and bodies' files, blobs, and their objects in the object store.
    public let files: TaskFiles
    /// The session API and the storages' writer (`tasks.sessions`).
    public let sessions: SessionService
    /// The network paths and their state; transfers are bound to the one their flags choose.
    public let networks: NetworkPathMonitor
    /// Running tasks' connections, bodies and streamed uploads as the API uses them (`tasks.connections`).
    public let connections: TaskConnections
    /// Sessions' trust bundles (their `serverTrust.anchors`).
    public var trustBundles: TrustBundles { runner.jobs.trustBundles }
    /// Control calls, carried out here or forwarded to the node that runs the task.
    let controls: TaskControls
    /// This node among several on one database (nil: the only node).
    var node: ClusterNode? { controls.node }
    /// The answers the transfers here wait for (decision events); answers given through the API go to it.
    let decisions: any DelegateDecisions
    /// From `run()` until graceful shutdown begins.
    private let serving = LockedBox(false)

    /// - Parameters:
    ///   - decisions: asks the delegate what to do (redirects, responses, challenges, delayed requests);
    ///     event delivery implements it.
    ///   - locations: the API paths of kept files and bodies; the control plane implements it.
    public init(
        store: TransferStore, configuration: Configuration, decisions: any DelegateDecisions,
        locations: any TaskBodyLocations, logger: Logger
    ) throws {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.decisions = decisions
        let files = TaskFiles(
            objectStore: configuration.objectStore, store: store, blobDirectory: configuration.blobDirectory,
            downloadsDirectory: configuration.engine.downloadsDirectory, logger: logger)
        self.files = files
        let suffixes = PublicSuffixList()
        if suffixes == nil {
            logger.warning(
                "The public suffix list is missing: cookies are refused only for single-label domains",
                metadata: ["file": "\(PublicSuffixList.defaultPath)"])
        }
        let storages = SessionStorages(
            cookies: CookieStorages(store: store, publicSuffixes: suffixes, logger: logger),
            urlCaches: URLCaches(
                store: store, directory: configuration.cacheDirectory, sharedMemoryCapacity: configuration.sharedCacheMemoryCapacity,
                sharedDiskCapacity: configuration.sharedCacheDiskCapacity, logger: logger),
            credentials: CredentialStorages(store: store))
        let networks = NetworkPathMonitor(paths: configuration.networkPaths, logger: logger)
        self.networks = networks
        try FileManager.default.createDirectory(at: configuration.engine.downloadsDirectory, withIntermediateDirectories: true)
        // Rung when a transfer's completion is queued (its slot is free): a cluster's node claims then.
        // Nothing else waits for it, so a single node does not ring it.
        let slotsFreed = Doorbell()
        let runner = try TaskRunner(
            store: store, configuration: configuration, decisions: decisions, locations: locations, files: files, storages: storages,
            networks: networks,
            trustBundles: TrustBundles(directory: configuration.trustDirectory, authorities: configuration.engine.certificateAuthorities),
            slotsFreed: configuration.cluster == nil ? nil : slotsFreed, logger: logger)
        self.runner = runner
        networks.onChange { [weak runner] states in runner?.networksChanged(states) }
        let node = configuration.cluster.map {
            ClusterNode(membership: $0, store: store, tasks: runner, slotsFreed: slotsFreed, logger: logger)
        }
        let controls = TaskControls(runner: runner, node: node)
        self.controls = controls
        self.sessions = SessionService(store: store, storages: storages, files: files, transfers: controls)
        self.connections = TaskConnections(runner: runner)
    }

    /// Transfers holding one of the engine's slots, and those waiting for one (`/metrics`).
    public var transferLoad: (running: Int, queued: Int) { runner.engine.load }

    /// This node's membership (nil: the only node).
    public var clusterMembership: ClusterMembership? { configuration.cluster }

    /// Transfers this node runs at once at most (`URLSESSIOND_MAX_TRANSFERS`).
    public var maximumTransfers: Int { configuration.engine.maximumConcurrentTransfers }

    /// The tasks this node has in hand: running, waiting for a slot, or between attempts.
    public var activeTaskCount: Int { runner.activeTaskCount }

    /// `NSURLSessionDownloadTaskResumeData`: the key of a cancelled download's resume data in its error's `userInfo`.
    public static let resumeDataKey = "NSURLSessionDownloadTaskResumeData"

    // MARK: The task API

    /// Creates a task in `session`; with `"resume": true` it starts at once (and may already have
    /// completed, when it could not start).
    /// With several nodes, a node without a free transfer slot leaves the task queued for one with room.
    public func create(tenant: String, session: SessionRecord, request: ValidatedTaskRequest) async throws -> TaskRecord {
        let owner = node?.nodeForNewTask(tenant: tenant)
        let task = try await store.tasks.createTask(tenant: tenant, sessionId: session.id, request: request, node: owner)
        guard task.state == .running, node == nil || task.node != nil else { return task }
        return try await runner.control(
            task, .start(beginsLater: task.beginsLater, continuing: false), isCurrent: true, session: session)
    }

    /// Creates a batch of tasks in `session` in one transaction, one result per request in order (a
    /// refused one created nothing); those with `"resume": true` then start as `create` starts one, in
    /// order, so their events follow the members' order.
    public func create(
        tenant: String, session: SessionRecord, requests: [ValidatedTaskRequest]
    ) async throws -> [Result<TaskRecord, any Error>] {
        let nodes: [String?]? = node.map { node in
            let free = node.freeSlots
            return requests.indices.map { $0 < free ? node.membership.nodeID : nil }
        }
        var results = try await store.tasks.createTasks(tenant: tenant, sessionId: session.id, requests: requests, nodes: nodes)
        for (index, result) in results.enumerated() {
            guard case .success(let task) = result, task.state == .running, node == nil || task.node != nil else { continue }
            let started = try await runner.control(
                task, .start(beginsLater: task.beginsLater, continuing: false), isCurrent: true, session: session)
            results[index] = .success(started)
        }
        return results
    }

    /// The session's tasks, oldest first, after the cursor `after`.
    public func list(
        sessionId: String, kind: TaskKind?, state: TaskState?, after: Int64?, limit: Int
    ) async throws -> [TaskRecord] {
        try await store.tasks.tasks(sessionId: sessionId, kind: kind, state: state, after: after, limit: limit)
    }

    /// The tenant's task, or `TaskStoreError.taskNotFound`.
    public func requireTask(_ id: String, tenant: String) async throws -> TaskRecord {
        try await runner.requireTask(id, tenant: tenant)
    }

    /// `resume()`: takes one `suspend()` away; when none is left the transfer starts (again from the
    /// beginning). Harmless on a running task.
    /// A resume that would start a transfer is refused (`QuotaExceeded`, `storedBytes`) while the tenant's
    /// stored bytes are at their limit.
    public func resume(taskId: String, tenant: String) async throws -> TaskRecord {
        try await controls.perform(.resume, taskId: taskId, tenant: tenant)
    }

    /// `suspend()`: the transfer stops (no traffic, no timeouts) and it takes as many `resume()` calls as
    /// `suspend()` calls to run again.
    public func suspend(taskId: String, tenant: String) async throws -> TaskRecord {
        try await controls.perform(.suspend, taskId: taskId, tenant: tenant)
    }

    /// `cancel()`: the task completes with `NSURLErrorCancelled`. `producingResumeData`
    /// (`cancel(byProducingResumeData:)`): a running download keeps its partial file and its error
    /// carries the resume data (`userInfo.NSURLSessionDownloadTaskResumeData`) when it can be continued.
    public func cancel(taskId: String, tenant: String, producingResumeData: Bool = false) async throws -> TaskRecord {
        try await controls.perform(producingResumeData ? .cancelProducingResumeData : .cancel, taskId: taskId, tenant: tenant)
    }

    /// Waits until the task completes, at most `timeout` (the API's `?wait=`).
    public func waitForCompletion(of taskId: String, tenant: String, timeout: Duration) async throws -> TaskRecord {
        try await runner.waitForCompletion(of: taskId, tenant: tenant, timeout: timeout)
    }

    /// Ends every `?wait=` now (graceful shutdown must not sit out long-polls).
    public func releaseWaiters() {
        runner.waiters.releaseAll()
    }

    // MARK: Service

    /// Takes work: `run()` has begun, no shutdown has, and the engine's loop runs.
    public var isReady: Bool { serving.withLock { $0 } && runner.engine.isRunning }

    public func run() async throws {
        serving.withLock { $0 = true }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.runner.run() }
                if let node = self.node { await node.joinCluster() }
                await self.recoverUnfinishedTasks()
                group.addTask { await self.networks.run() }  // the links' state, once a second
                if let node = self.node { group.addTask { await node.run() } }
                try? await gracefulShutdown()
                await self.runner.stop()
                group.cancelAll()  // the ticker, the timers, the network monitor, the heartbeat
                if let node = self.node { await node.leaveCluster() }  // the others take its tasks over now
            }
        } onGracefulShutdown: {
            self.serving.withLock { $0 = false }
            self.releaseWaiters()
        }
    }
}

extension TaskRecord {
    /// Whether its `earliestBeginDate` is still ahead.
    var beginsLater: Bool { earliestBeginDate.map { $0.timeIntervalSinceNow > 0 } ?? false }
}

extension TaskService {
    /// After a restart, tasks the store still shows as running are settled; with several nodes, only this
    /// node's (the others' are theirs, or taken over once their lease expires).
    func recoverUnfinishedTasks() async {
        guard let node else { return await runner.recoverUnfinishedTasks() }
        do {
            try await node.pickUpOwnTasks()
        } catch {
            logger.error("Recovering tasks after a restart failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }
}
