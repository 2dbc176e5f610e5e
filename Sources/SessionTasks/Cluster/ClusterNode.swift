public import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

/// This node's place among several sharing one PostgreSQL database (`URLSESSIOND_DATABASE_URL`).
public struct ClusterMembership: Sendable {
    /// Unique among the nodes; the same after a restart, so a restarted node takes its own tasks back at
    /// once (`URLSESSIOND_NODE_ID`).
    public var nodeID: String
    /// Seconds a node's heartbeat holds its tasks: a node silent for longer (kill -9, a lost network)
    /// loses them to the others (`URLSESSIOND_LEASE_SECONDS`).
    public var lease: TimeInterval
    /// Seconds between heartbeats, which are also when a node claims queued tasks and takes over those of
    /// expired nodes.
    public var heartbeat: TimeInterval

    public init(nodeID: String, lease: TimeInterval = 15, heartbeat: TimeInterval = 1) {
        self.nodeID = nodeID
        self.lease = lease
        self.heartbeat = heartbeat
    }
}

/// This node among several sharing one database: work distribution between nodes. Each task's row names
/// the node that runs it (`task.node`); a node's heartbeat is its lease on those tasks. Every heartbeat a
/// node
/// - renews its lease and reports its load (`/v1/admin/nodes` shows both);
/// - takes over the tasks of nodes whose lease expired, picking each up as a restart does (a background
///   download continues by `Range`, a default session's task completes with -1005 and resume data);
/// - claims queued tasks (running, no node) up to its free transfer slots.
/// A task created or resumed on a node with room runs there at once; otherwise the next node with room
/// claims it.
///
/// Run by the task service (`run()`, a child of its own run: joined before recovery, left after the
/// engine has stopped, so no other node takes over a task this one still runs).
final class ClusterNode: Sendable {
    let membership: ClusterMembership
    let store: TransferStore
    let logger: Logger
    /// The task service, which owns this node (so never gone while it is used): its table, writer and
    /// engine, and its control calls.
    unowned let tasks: TaskRunner
    /// When this node's last successful heartbeat began: its lease runs from then.
    let leaseRenewedAt = LockedBox(ContinuousClock.now)
    /// Rung when a transfer's completion is queued (its slot is free): queued tasks are claimed at once
    /// instead of at the next claim tick, while the completion is being written.
    let slotsFreed: Doorbell
    /// How many tasks this node holds beyond its slots while its database is far and it is busy.
    let claimAhead = LockedBox(ClaimAhead())
    /// A fence was lifted: the node picks up the tasks still its own at its next takeover pass.
    let ownTasksToPickUp = LockedBox(false)

    init(membership: ClusterMembership, store: TransferStore, tasks: TaskRunner, slotsFreed: Doorbell, logger: Logger) {
        self.membership = membership
        self.store = store
        self.tasks = tasks
        self.slotsFreed = slotsFreed
        self.logger = logger
    }

    private var table: TaskTable { tasks.table }
    private var configuration: TaskService.Configuration { tasks.configuration }

    /// Heartbeats, takeovers, claims, the fence, and the calls forwarded by other nodes, until cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.runClusterMembership() }
            group.addTask { await self.serveOtherNodes() }
        }
    }

    /// How long this node runs transfers without renewing its lease: two thirds of it, so they have
    /// stopped before another node may take its tasks over (a process frozen past the whole lease still
    /// cannot complete them: completions are written only for tasks still this node's).
    var fenceAfter: Duration { .milliseconds(Int64(membership.lease * 2 / 3 * 1000)) }

    /// What this node may claim now. It holds up to twice its transfer slots, so its engine's own queue
    /// orders what it holds as on a single node (priorities; a discretionary task waits for an idle engine
    /// even when it was claimed before a normal one), and a busy node far from its database some more
    /// (`ClaimAhead`).
    var freeSlots: Int {
        max(0, claimAhead.withLock { $0.holding(slots: configuration.engine.maximumConcurrentTransfers) } - tasks.activeTaskCount)
    }

    /// The node a task created and resumed now should name: this one when it has room, or when the task's
    /// tenant holds fewer of its tasks than a tenant may run at once (its engine then gives the task the
    /// next free slot in the tenants' turn, as on a single node, instead of leaving it behind another
    /// tenant's backlog); else none (claimed by the next node with room).
    func nodeForNewTask(tenant: String) -> String? {
        guard !table.isFenced else { return nil }
        guard freeSlots == 0 else { return membership.nodeID }
        let held = table.withLock { state in state.entries.values.count { !$0.lifecycle.isSettled && $0.tenant == tenant } }
        return held < configuration.engine.tenantTransferLimit ? membership.nodeID : nil
    }

    /// Registers the node with a fresh lease: before it picks up its own tasks, so that no other node
    /// takes them over meanwhile on the strength of the heartbeat it wrote before it stopped.
    func joinCluster() async {
        do {
            let began = ContinuousClock.now
            try await store.cluster.registerNode(id: membership.nodeID, maximumTransfers: configuration.engine.maximumConcurrentTransfers)
            leaseRenewedAt.withLock { $0 = began }
        } catch {
            logger.error("Registering the node failed", metadata: ["node": "\(membership.nodeID)", "error": "\(error)"])
        }
    }

    /// This node's unfinished tasks, each claimed again under its row's lock (another node may be taking
    /// it over at this moment, its lease seen expired), picked up as a restart does.
    func pickUpOwnTasks() async throws {
        for task in try await store.cluster.tasks(ofNode: membership.nodeID) where table.withLock({ $0.entries[task.id] == nil }) {
            guard
                case .claimed(let claimed) = try await store.cluster.claim(
                    taskId: task.id, node: membership.nodeID, lease: membership.lease)
            else { continue }
            await tasks.recover(claimed)
        }
    }

    /// Heartbeats, takes over, claims and fences until cancelled.
    func runClusterMembership() async {
        // Each in a loop of its own: a slow claim or takeover (starting many tasks, behind a busy writer)
        // never delays the lease renewal, and a renewal stuck on an unreachable database never keeps the
        // fence from noticing that the lease is running out.
        let heartbeat = Duration.milliseconds(Int64(membership.heartbeat * 1000))
        await renewLease()  // at once: the recovery since joining may have taken most of the lease
        await withDiscardingTaskGroup { group in
            group.addTask { await Self.repeating(every: heartbeat) { await self.renewLease() } }
            group.addTask { await Self.repeating(every: heartbeat) { await self.takeOverTasks() } }
            group.addTask { await Self.repeating(every: heartbeat) { await self.foldUsageOfClosedConnections() } }
            group.addTask { await Self.repeating(every: .milliseconds(200)) { self.fenceIfLeaseRunsOut() } }
            // Queued tasks are claimed every 100 ms while slots are free (a scan of the queued tasks, for the
            // tenants' turns), and at once whenever a transfer ends (its completion queued, written
            // meanwhile): a node holds at most twice its slots, so with a claim per tick only it ran at
            // most that many tasks a tick (320/s with 16 slots), and with a claim per written completion
            // its engine idled for the completion's round trips and the claim's, each cycle.
            group.addTask {
                await Self.repeating(every: .milliseconds(100), orWhenRung: self.slotsFreed) { await self.claimQueuedTasks() }
            }
        }
    }

    /// Runs `body` every `interval` (after each wait) until the calling task is cancelled; with `doorbell`,
    /// also each time it rings.
    private static func repeating(every interval: Duration, orWhenRung doorbell: Doorbell? = nil, _ body: () async -> Void) async {
        guard let doorbell else {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await body()
            }
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    doorbell.ring(.tick)
                }
                doorbell.ring(.closed)
            }
            while !Task.isCancelled {
                guard !(await doorbell.wait()).contains(.closed) else { break }
                await body()
            }
            group.cancelAll()
        }
    }

    /// Claims queued tasks up to the free slots and starts them.
    func claimQueuedTasks() async {
        guard !table.isStopping, !table.isFenced else { return }
        guard freeSlots > 0 else {
            let completions = tasks.writer.queuedCompletions
            claimAhead.withLock { $0.claimed(completions: completions, at: .now, duration: nil) }
            return
        }
        do {
            let began = ContinuousClock.now
            let claimed = try await store.cluster.claimQueuedTasks(node: membership.nodeID, limit: freeSlots)
            let completions = tasks.writer.queuedCompletions
            claimAhead.withLock { $0.claimed(completions: completions, at: began, duration: began.duration(to: .now)) }
            for task in claimed {
                _ = try? await tasks.control(task, .start(beginsLater: task.beginsLater, continuing: false), isCurrent: true)
            }
        } catch {
            logger.warning("Claiming queued tasks failed", metadata: ["node": "\(membership.nodeID)", "error": "\(error)"])
        }
    }

    /// One heartbeat: the lease renewed with this node's load, and a fence lifted once it is.
    func renewLease() async {
        guard !table.isStopping else { return }
        do {
            let began = ContinuousClock.now
            guard try await store.cluster.heartbeat(node: membership.nodeID, activeTasks: tasks.activeTaskCount) else {
                logger.error("This node's row says it stopped: it claims nothing more", metadata: ["node": "\(membership.nodeID)"])
                return
            }
            leaseRenewedAt.withLock { $0 = max($0, began) }
            // Not lifted by a renewal sent before the lease ran out (it waited out a partition: counted from
            // its start, as it must be, the lease is spent again and the fence would fall back at once), nor
            // while stopped attempts are still ending: the next heartbeat tries again.
            if table.isFenced, ContinuousClock.now - began < fenceAfter, table.liftFence() {
                logger.notice("The lease is renewed again: this node runs its tasks again", metadata: ["node": "\(membership.nodeID)"])
                ownTasksToPickUp.withLock { $0 = true }
            }
        } catch {
            logger.warning("Renewing the node's lease failed", metadata: ["node": "\(membership.nodeID)", "error": "\(error)"])
        }
    }

    /// Picks up the tasks of nodes whose lease expired (and, after a fence, this node's own), as a
    /// restart does.
    func takeOverTasks() async {
        guard !table.isStopping, !table.isFenced else { return }
        do {
            if ownTasksToPickUp.withLock({ $0 }) {
                try await pickUpOwnTasks()
                ownTasksToPickUp.withLock { $0 = false }
            }
            let orphans = try await store.cluster.takeOverTasks(node: membership.nodeID, lease: membership.lease, limit: max(1, freeSlots))
            if !orphans.isEmpty {
                logger.notice("Took over tasks of a node whose lease expired", metadata: ["tasks": "\(orphans.count)"])
            }
            for task in orphans { await tasks.recover(task) }
        } catch {
            logger.warning("Taking over tasks failed", metadata: ["node": "\(membership.nodeID)", "error": "\(error)"])
        }
    }

    /// Folds the usage rows of closed database connections into one (`UsageStore`), as often as the
    /// heartbeat, so reads sum about one row per live connection. A write on the writer, behind its group
    /// commits: never in the renewal's loop, whose time decides the fence.
    func foldUsageOfClosedConnections() async {
        guard !table.isStopping else { return }
        do {
            try await store.usage.foldUsageOfClosedConnections()
        } catch {
            logger.warning("Folding the usage of closed connections failed", metadata: ["error": "\(error)"])
        }
    }

    /// Stops this node's transfers, as a shutdown does, once its lease has gone unrenewed for `fenceAfter`:
    /// the database unreachable, or this process stalled. Their tasks stay running in the store, this
    /// node's until another takes them over; the next successful heartbeat lifts the fence and picks up
    /// what is still this node's as a restart does.
    func fenceIfLeaseRunsOut() {
        guard !table.isStopping, !table.isFenced, ContinuousClock.now - leaseRenewedAt.withLock({ $0 }) > fenceAfter else { return }
        let attempts = table.fence()
        for attempt in attempts { tasks.engine.cancel(attempt) }
        logger.error(
            "This node's lease was not renewed in time: its transfers stop until it is",
            metadata: ["node": "\(membership.nodeID)", "transfers": "\(attempts.count)"])
    }

    /// A graceful stop: the other nodes take this node's unfinished tasks over at once.
    func leaveCluster() async {
        do {
            try await store.cluster.stopNode(membership.nodeID)
        } catch {
            logger.warning("Marking the node stopped failed", metadata: ["node": "\(membership.nodeID)", "error": "\(error)"])
        }
    }

    /// Before a control call that may start a transfer on this node: the task becomes this node's unless
    /// another live node runs it (`TaskOwnedElsewhere`).
    func claimForControl(_ task: TaskRecord) async throws -> TaskRecord {
        switch try await store.cluster.claim(taskId: task.id, node: membership.nodeID, lease: membership.lease) {
        case .claimed(let claimed): return claimed
        case .ownedBy(let node): throw TaskOwnedElsewhere(node: node)
        }
    }
}

/// A control call for a task that another live node runs.
public struct TaskOwnedElsewhere: Error, Equatable {
    public let node: String
}
