import Prometheus
import TransferModels

/// `/metrics` for tasks and transfers, brought up to date at each scrape from what this node's store
/// committed (`NodeStatus.taskCounts`) and what its engine runs:
///
/// - `urlsessiond_tasks_created_total{tenant, kind}`
/// - `urlsessiond_tasks_completed_total{tenant, kind, outcome, code}`: `outcome` is `success`,
///   `cancelled` or `failed`, `code` the NSURLErrorDomain code (0 on success)
/// - `urlsessiond_task_bytes_received_total{tenant}`, `urlsessiond_task_bytes_sent_total{tenant}`: the
///   bytes of the tasks that completed, counted at their completion
/// - `urlsessiond_transfers_running`, `urlsessiond_transfers_queued`: the engine's slots in use and the
///   transfers waiting for one
///
/// The `tenant` label is bounded: the first `tenantLabelLimit` tenants seen have their own value, later
/// ones share `other`, so a service with many tenants cannot grow the exposition without end.
final class TransferMetrics: Sendable {
    static let tenantLabelLimit = 100

    private let registry: PrometheusCollectorRegistry
    private let running: Gauge
    private let queued: Gauge
    /// What the counters hold, per raw key, and each tenant's label value.
    private let recorded = LockedBox(Recorded())

    private struct Recorded {
        var counts = TaskCounts()
        var tenantLabels: [String: String] = [:]
    }

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        running = registry.makeGauge(
            descriptor: Self.metric("urlsessiond_transfers_running", "Transfers holding one of the engine's slots on this node."))
        queued = registry.makeGauge(
            descriptor: Self.metric("urlsessiond_transfers_queued", "Transfers waiting on this node for a slot of its engine."))
    }

    /// Adds to each counter what `counts` has beyond what was recorded, and sets the gauges to `load`.
    func record(_ counts: TaskCounts, load: (running: Int, queued: Int)) {
        running.set(Double(load.running))
        queued.set(Double(load.queued))
        recorded.withLock { recorded in
            for (key, total) in counts.created {
                let added = total - (recorded.counts.created[key] ?? 0)
                guard added > 0 else { continue }
                let labels = [("tenant", tenantLabel(key.tenant, &recorded)), ("kind", key.kind.rawValue)]
                registry.makeCounter(
                    descriptor: Self.metric("urlsessiond_tasks_created_total", "Tasks created through this node."), labels: labels
                ).increment(by: Int64(added))
            }
            for (key, total) in counts.completed {
                let added = total - (recorded.counts.completed[key] ?? 0)
                guard added > 0 else { continue }
                let labels = [
                    ("tenant", tenantLabel(key.tenant, &recorded)), ("kind", key.kind.rawValue), ("outcome", key.outcome),
                    ("code", String(key.code)),
                ]
                registry.makeCounter(
                    descriptor: Self.metric(
                        "urlsessiond_tasks_completed_total",
                        "Tasks completed on this node, by outcome (success, cancelled, failed) and NSURLErrorDomain code."),
                    labels: labels
                ).increment(by: Int64(added))
            }
            addBytes(
                counts.bytesReceived, beyond: recorded.counts.bytesReceived, to: "urlsessiond_task_bytes_received_total",
                help: "Bytes received by the tasks that completed on this node (their countOfBytesReceived).", &recorded)
            addBytes(
                counts.bytesSent, beyond: recorded.counts.bytesSent, to: "urlsessiond_task_bytes_sent_total",
                help: "Bytes sent by the tasks that completed on this node (their countOfBytesSent).", &recorded)
            recorded.counts = counts
        }
    }

    /// Adds each tenant's bytes beyond what was recorded to the counter `name`.
    private func addBytes(
        _ totals: [String: Int64], beyond recordedTotals: [String: Int64], to name: String, help: String, _ recorded: inout Recorded
    ) {
        for (tenant, total) in totals {
            let added = total - (recordedTotals[tenant] ?? 0)
            guard added > 0 else { continue }
            registry.makeCounter(descriptor: Self.metric(name, help), labels: [("tenant", tenantLabel(tenant, &recorded))])
                .increment(by: added)
        }
    }

    /// A metric's whole name (its unit included) and its `# HELP` text.
    private static func metric(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    private func tenantLabel(_ tenant: String, _ recorded: inout Recorded) -> String {
        if let label = recorded.tenantLabels[tenant] { return label }
        let label = recorded.tenantLabels.count < Self.tenantLabelLimit ? tenant : "other"
        recorded.tenantLabels[tenant] = label
        return label
    }
}
