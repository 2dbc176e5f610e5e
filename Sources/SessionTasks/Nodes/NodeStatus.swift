public import TransferModels
public import TransferStore

/// What the operations and cluster routes say of this node and its store (`/readyz`, `/metrics`,
/// `/v1/nodes`): which database, whether it answers, the statements run, the tasks counted, the nodes.
public struct NodeStatus: Sendable {
    let store: TransferStore

    public init(store: TransferStore) { self.store = store }

    /// `sqlite` or `postgresql`.
    public var backend: String { store.backendName }

    /// Whether the store answers a read now.
    public func storeIsReadable() async -> Bool { await store.isReadable() }

    /// Statements this node ran on its store.
    public var storeStatements: UInt64 { store.statementsExecuted }

    /// The tasks this node's store created and completed since it opened.
    public var taskCounts: TaskCounts { store.tasks.activity.snapshot }

    /// The nodes sharing the database, as their rows say.
    public func nodes() async throws -> [NodeRecord] { try await store.cluster.nodes() }
}
