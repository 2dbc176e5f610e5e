import Foundation
import SessionTasks
import TransferModels

/// `GET /v1/admin/nodes` (admin tokens only): the nodes sharing the database, their lease (live, expired,
/// stopped), last heartbeat, load and the unfinished tasks each runs. With SQLite there is one node: this
/// one, described from memory.
struct NodeRoutes {
    let nodes: NodeStatus
    let tasks: TaskService

    var routes: [Route] {
        [Route("GET", "/v1/admin/nodes", steps: [.authenticated]) { try await nodes($0) }]
    }

    private func nodes(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.principal?.role == .admin else { throw Problem.forbidden("only an admin token may list the nodes") }
        guard let cluster = tasks.clusterMembership else {
            let local = NodeView(
                id: "local", state: "live", isThisNode: true, startedAt: nil, heartbeatAt: nil, stoppedAt: nil,
                activeTasks: tasks.activeTaskCount, maximumTransfers: tasks.maximumTransfers, claimedTasks: tasks.activeTaskCount)
            return try .json(NodeList(backend: nodes.backend, node: local.id, leaseSeconds: nil, items: [local]))
        }
        let now = Date()
        let items = try await nodes.nodes().map { node in
            NodeView(
                id: node.id,
                state: node.stoppedAt != nil ? "stopped" : node.isLive(at: now, lease: cluster.lease) ? "live" : "expired",
                isThisNode: node.id == cluster.nodeID, startedAt: node.startedAt, heartbeatAt: node.heartbeatAt,
                stoppedAt: node.stoppedAt, activeTasks: node.activeTasks, maximumTransfers: node.maximumTransfers,
                claimedTasks: node.claimedTasks)
        }
        return try .json(NodeList(backend: nodes.backend, node: cluster.nodeID, leaseSeconds: cluster.lease, items: items))
    }
}

/// The body of `GET /v1/admin/nodes`.
struct NodeList: Encodable {
    var backend: String
    /// The node that answered.
    var node: String
    var leaseSeconds: Double?
    var items: [NodeView]
}

struct NodeView: Encodable {
    var id: String
    /// `live` (its heartbeat holds its lease), `expired` (its tasks go to other nodes) or `stopped`.
    var state: String
    var isThisNode: Bool
    var startedAt: Date?
    var heartbeatAt: Date?
    var stoppedAt: Date?
    var activeTasks: Int
    var maximumTransfers: Int
    var claimedTasks: Int
}
