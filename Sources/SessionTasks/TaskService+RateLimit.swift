import TransferEngine
public import TransferModels
import TransferStore

// The bandwidth limits of tasks: `PATCH /v1/tasks/{id}`, and the limit a running task shows.
extension TaskService {
    /// Sets the task's own `rateLimit` (nil: none): stored, so later attempts and a restart keep it, and
    /// handed to the attempt that runs it, whose transfer takes it at once without starting again — on
    /// this node, or on the node of a cluster that runs it (forwarded as a control call is; a node that
    /// does not answer in time leaves the limit stored, taken at the attempt's next start).
    /// - Throws: `TaskStoreError.taskNotFound`, `.invalidStateTransition` once completed or canceling.
    public func updateRateLimit(taskId: String, tenant: String, to limit: RateLimit?) async throws -> TaskRecord {
        let record = try await store.tasks.updateRateLimit(id: taskId, tenant: tenant, to: limit)
        guard let id = runner.applyRateLimit(record) else {
            if let node, let owner = record.node, owner != node.membership.nodeID, record.state == .running {
                await node.forwardRateLimit(of: record, tenant: tenant, to: owner)
            }
            return record
        }
        // The answer shows the limit in force with the new one: the engine's loop takes it within a turn
        // (a transfer with no flow yet, queued or never limited, has no reading to wait for).
        for _ in 0..<50 {
            guard let reading = runner.engine.bandwidth.tasks[id], reading.taskLimit != limit else { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        return record
    }

    /// `task` with the bandwidth limit in force for the attempt this node runs (the lowest of its task's,
    /// session's, tenant's and the service's, timetables evaluated; null: none); its own setting otherwise.
    func withLimitInForce(_ task: TransferTask) -> TransferTask {
        guard task.state == .running, task.kind.isRateLimited,
            let attempt = runner.table.withLock({ $0.entries[task.id]?.attempt?.number })
        else { return task }
        // No reading: no limit applies to it (or its job waits for a slot): its own setting stands.
        guard let reading = runner.engine.bandwidth.tasks[TransferID(taskId: task.id, attempt: attempt)] else { return task }
        var task = task
        task.rateLimit = RateLimit(reading.inForce)
        return task
    }
}

extension TaskRunner {
    /// Hands `task`'s stored `rateLimit` to the attempt this node runs; nil when it runs none.
    func applyRateLimit(_ task: TaskRecord) -> TransferID? {
        guard let attempt = table.withLock({ $0.entries[task.id]?.attempt?.number }) else { return nil }
        let id = TransferID(taskId: task.id, attempt: attempt)
        engine.setRateLimit(id, task.rateLimit)
        return id
    }
}

extension TaskService {
    /// This node's limits and limited transfers (`/metrics`).
    public var bandwidthSummary: BandwidthSummary {
        let readings = runner.engine.bandwidth
        var summary = BandwidthSummary()
        (summary.service, summary.tenant) = (readings.service, readings.tenant)
        (summary.receive.holds, summary.send.holds) = readings.holds
        for reading in readings.tasks.values {
            if let share = reading.receiveShare {
                summary.receive.limitedTransfers += 1
                summary.receive.shares += share
                summary.receive.throughput += reading.measuredReceive
            }
            if let share = reading.sendShare {
                summary.send.limitedTransfers += 1
                summary.send.shares += share
                summary.send.throughput += reading.measuredSend
            }
        }
        return summary
    }
}
