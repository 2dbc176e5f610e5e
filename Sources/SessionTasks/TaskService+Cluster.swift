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

/// Work distribution between nodes. Each task's row names the node that runs it (`task.node`); a node's
/// heartbeat is its lease on those tasks. Every heartbeat a node
/// - renews its lease and reports its load (`/v1/admin/nodes` shows both);
/// - takes over the tasks of nodes whose lease expired, picking each up as a restart does (a background
///   download continues by `Range`, a default session's task completes with -1005 and resume data);
/// - claims queued tasks (running, no node) up to its free transfer slots.
/// A task created or resumed on a node with room runs there at once; otherwise the next node with room
/// claims it.
extension TaskService {
    var cluster: ClusterMembership? { configuration.cluster }

    /// This node's membership (nil: the only node).
    public var clusterMembership: ClusterMembership? { configuration.cluster }

    /// Transfers this node runs at once at most (`URLSESSIOND_MAX_TRANSFERS`).
    public var maximumTransfers: Int { configuration.engine.maximumConcurrentTransfers }

    /// The tasks this node has in hand: running, waiting for a slot, or between attempts.
    public var activeTaskCount: Int {
        table.withLock { state in state.entries.values.count { !$0.lifecycle.isSettled } }
    }

    /// What this node may claim now. It holds up to twice its transfer slots, so its engine's own queue
    /// orders what it holds as on a single node (priorities; a discretionary task waits for an idle engine
    /// even when it was claimed before a normal one).
    var freeSlots: Int { max(0, 2 * configuration.engine.maximumConcurrentTransfers - activeTaskCount) }

    /// The node a task created resumed now should name: this one when it has room, else none (claimed
    /// by the next node with room).
    func nodeForNewTask() -> String? {
        guard let cluster else { return nil }
        return freeSlots > 0 ? cluster.nodeID : nil
    }

    /// Registers the node, then heartbeats until cancelled.
    func runClusterMembership(_ cluster: ClusterMembership) async {
        do {
            try await store.registerNode(id: cluster.nodeID, maximumTransfers: configuration.engine.maximumConcurrentTransfers)
        } catch {
            logger.error("Registering the node failed", metadata: ["node": "\(cluster.nodeID)", "error": "\(error)"])
        }
        // The heartbeat has a loop of its own: a slow claim (starting many tasks) never delays the lease.
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    await self.clusterHeartbeat(cluster)
                    try? await Task.sleep(for: .milliseconds(Int64(cluster.heartbeat * 1000)))
                }
            }
            // Queued tasks are claimed every 100 ms while slots are free (a claim of no rows is one index
            // probe), so a node that finishes tasks takes the next ones at once.
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    await self.claimQueuedTasks(cluster)
                }
            }
        }
    }

    /// Claims queued tasks up to the free slots and starts them.
    func claimQueuedTasks(_ cluster: ClusterMembership) async {
        guard !table.isStopping, freeSlots > 0 else { return }
        do {
            for task in try await store.claimQueuedTasks(node: cluster.nodeID, limit: freeSlots) {
                _ = try? await control(task, .start(beginsLater: task.beginsLater, continuing: false), isCurrent: true)
            }
        } catch {
            logger.warning("Claiming queued tasks failed", metadata: ["node": "\(cluster.nodeID)", "error": "\(error)"])
        }
    }

    /// One heartbeat: the lease renewed, expired nodes' tasks taken over.
    func clusterHeartbeat(_ cluster: ClusterMembership) async {
        guard !table.isStopping else { return }
        do {
            guard try await store.heartbeat(node: cluster.nodeID, activeTasks: activeTaskCount) else {
                logger.error("This node's row says it stopped: it claims nothing more", metadata: ["node": "\(cluster.nodeID)"])
                return
            }
            let orphans = try await store.takeOverTasks(node: cluster.nodeID, lease: cluster.lease, limit: max(1, freeSlots))
            if !orphans.isEmpty {
                logger.notice("Took over tasks of a node whose lease expired", metadata: ["tasks": "\(orphans.count)"])
            }
            for task in orphans { await recover(task) }
        } catch {
            logger.warning("A cluster heartbeat failed", metadata: ["node": "\(cluster.nodeID)", "error": "\(error)"])
        }
    }

    /// A graceful stop: the other nodes take this node's unfinished tasks over at once.
    func leaveCluster(_ cluster: ClusterMembership) async {
        do {
            try await store.stopNode(cluster.nodeID)
        } catch {
            logger.warning("Marking the node stopped failed", metadata: ["node": "\(cluster.nodeID)", "error": "\(error)"])
        }
    }

    /// Before a control call that may start a transfer on this node: the task becomes this node's unless
    /// another live node runs it (`TaskOwnedElsewhere`).
    func claimForControl(_ task: TaskRecord) async throws -> TaskRecord {
        guard let cluster else { return task }
        switch try await store.claim(taskId: task.id, node: cluster.nodeID, lease: cluster.lease) {
        case .claimed(let claimed): return claimed
        case .ownedBy(let node): throw TaskOwnedElsewhere(node: node)
        }
    }
}

/// A control call for a task that another live node runs.
public struct TaskOwnedElsewhere: Error, Equatable {
    public let node: String
}
