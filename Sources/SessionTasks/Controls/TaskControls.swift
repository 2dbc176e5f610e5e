import Foundation
import TransferEngine
import TransferModels
import TransferStore

/// Where a control call (`resume()`, `suspend()`, `cancel()`) is carried out: on this node, by its task
/// runner — or, with several nodes, forwarded to the live node that runs the task.
final class TaskControls: Sendable {
    let runner: TaskRunner
    /// This node among several on one database (nil: the only node).
    let node: ClusterNode?

    init(runner: TaskRunner, node: ClusterNode?) {
        self.runner = runner
        self.node = node
    }

    /// Carries out `action` on this node, or forwards it to the node running the task.
    func perform(_ action: ForwardedControl.Action, taskId: String, tenant: String) async throws -> TaskRecord {
        let record = try await runner.admittedTask(for: action, taskId: taskId, tenant: tenant)
        var task = record
        if let node {
            do {
                task = try await node.claimForControl(record)
            } catch let elsewhere as TaskOwnedElsewhere {
                return try await node.forward(action, of: record, tenant: tenant, to: elsewhere.node)
            }
        }
        return try await runner.perform(action, on: task)
    }
}

extension TaskControls: SessionTransfers {
    func closeConnections(ofSession id: String, idleOnly: Bool) { runner.engine.closeConnections(ofSession: id, idleOnly: idleOnly) }
    func sessionInvalidated(_ id: String) { runner.engine.sessionInvalidated(id) }
    func cancel(taskId: String, tenant: String, producingResumeData: Bool) async throws -> TaskRecord {
        try await perform(producingResumeData ? .cancelProducingResumeData : .cancel, taskId: taskId, tenant: tenant)
    }
}
