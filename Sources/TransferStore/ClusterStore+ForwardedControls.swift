import Foundation
import TransferModels

/// A control call (`resume`, `suspend`, `cancel`) made on one node for a task another live node runs:
/// only the node running a task can stop or start its transfer, so the call is forwarded to it through
/// the database (`NOTIFY`), and its answer comes back the same way.
public struct ForwardedControl: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable {
        case resume, suspend, cancel, cancelProducingResumeData
        /// `PATCH /v1/tasks/{id}` stored a new `rateLimit`: the node running the task hands the row's limit
        /// to its transfer, which takes it without starting again.
        case applyRateLimit
    }

    /// Names the call, for its answer.
    public var request: String
    /// The node asked: the one the task's row names.
    public var node: String
    public var task: String
    public var tenant: String
    public var action: Action

    public init(request: String, node: String, task: String, tenant: String, action: Action) {
        self.request = request
        self.node = node
        self.task = task
        self.tenant = tenant
        self.action = action
    }
}

/// How the node asked carried out a `ForwardedControl`.
public struct ForwardedControlAnswer: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// Done: the task's row shows the result.
        case done
        /// The task's state does not allow it (`TaskStoreError.invalidStateTransition`).
        case invalidState
        /// No such task any more.
        case notFound
        /// The node asked no longer runs the task (taken over meanwhile): ask again.
        case notHere
        /// Anything else, said in `detail`.
        case failed
    }

    public var request: String
    public var outcome: Outcome
    public var detail: String?

    public init(request: String, outcome: Outcome, detail: String? = nil) {
        self.request = request
        self.outcome = outcome
        self.detail = detail
    }
}

extension ClusterStore {
    /// Sends `control` to the node it names (sent at the commit of a transaction of its own).
    public func forward(_ control: ForwardedControl) async throws {
        let payload = String(decoding: try JSONEncoder().encode(control), as: UTF8.self)
        try await database.write { db in db.notify(.controls, payload) }
    }

    /// Sends the answer to a forwarded control call back to the node that forwarded it.
    public func answer(_ answer: ForwardedControlAnswer) async throws {
        let payload = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        try await database.write { db in db.notify(.controlAnswers, payload) }
    }
}
