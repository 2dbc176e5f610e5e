public import TransferModels

/// What this node's store has committed about tasks since it opened, for `/metrics`: tasks created,
/// tasks completed by outcome, and the bytes the completed ones moved. Counted after each commit, so a
/// transaction run again (a PostgreSQL deadlock) or rolled back counts nothing. With several nodes each
/// counts what it wrote: the sums over the nodes are the cluster's.
public final class TaskActivity: Sendable {
    public typealias Counts = TaskCounts
    public typealias Completion = TaskCounts.Completion
    public typealias TaskKey = TaskCounts.TaskKey

    private let counts = LockedBox(Counts())

    public init() {}

    public var snapshot: Counts { counts.withLock { $0 } }

    func created(_ tasks: some Sequence<TaskRecord>) {
        counts.withLock { counts in
            for task in tasks { counts.created[TaskKey(tenant: task.tenant, kind: task.kind), default: 0] += 1 }
        }
    }

    func completed(_ rows: some Sequence<BatchWrites.CompletedRow>) {
        counts.withLock { counts in
            for row in rows {
                let outcome = TransferError.outcome(of: row.error)
                let code = row.error.map { $0.domain == "NSURLErrorDomain" ? $0.code : 0 } ?? 0
                let key = Completion(tenant: row.tenant, kind: row.summary.kind, outcome: outcome, code: code)
                counts.completed[key, default: 0] += 1
                counts.bytesReceived[row.tenant, default: 0] += max(0, row.bytesReceived)
                counts.bytesSent[row.tenant, default: 0] += max(0, row.bytesSent)
            }
        }
    }
}
