public import TransferModels

// `progress.throughput` and `estimatedTimeRemaining` of running tasks: kept in memory with each attempt
// (`ActiveTask.rate`, sampled as the engine reports), never written to the store. A rate belongs to the
// moment it is read — a stalled transfer's falls with no report to write — so a stored one would be stale
// between writes unless every running task's row were written on every tick; and a column would need a
// migration on both backends for a value no restart needs. The cost: on a cluster, only the node running
// the task can show its rate.
extension TaskService {
    /// `task` with the rate of the attempt this node runs for it; as it was (0 and null) when the task is
    /// not running, or its attempt is not in this node's engine: waiting for its begin date, a retry or a
    /// network path, or run by another node of a cluster.
    public func withLiveRate(_ task: TransferTask) -> TransferTask {
        guard task.state == .running else { return task }
        let now = ContinuousClock.now
        guard let reading = runner.table.withLock({ $0.entries[task.id]?.attempt?.rate.reading(at: now) }) else { return task }
        var task = withLimitInForce(task)
        task.progress.throughput = reading.throughput
        task.progress.estimatedTimeRemaining = reading.estimatedTimeRemaining
        return task
    }
}
