import Prometheus
import TransferModels

/// `/metrics` for bandwidth limits, set at each scrape from this node's engine (`TaskService.bandwidthSummary`):
///
/// - `urlsessiond_rate_limit_bytes_per_second{level, direction}`: the operator's limits in force now,
///   `level` `service` or `tenant` (each tenant's), `direction` `receive` or `send`; 0: no limit
/// - `urlsessiond_rate_limited_transfers{direction}`: running transfers a limit holds (a segmented
///   download once)
/// - `urlsessiond_rate_limited_share_bytes_per_second{direction}`: the sum of their fair shares
/// - `urlsessiond_rate_limited_throughput_bytes_per_second{direction}`: what they moved, together, over
///   the last quarter second
/// - `urlsessiond_rate_limit_holds_total{direction}`: the times a limit paused a transfer
final class BandwidthMetrics: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let holdsRecorded = LockedBox((receive: 0, send: 0))

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func record(_ summary: BandwidthSummary) {
        for (level, rates) in [("service", summary.service), ("tenant", summary.tenant)] {
            for (direction, rate) in [("receive", rates.receive), ("send", rates.send)] {
                gauge(
                    "urlsessiond_rate_limit_bytes_per_second", "The operator's bandwidth limit in force now (0: none).",
                    [("level", level), ("direction", direction)]
                ).set(Double(rate ?? 0))
            }
        }
        for (direction, values) in [("receive", summary.receive), ("send", summary.send)] {
            let labels = [("direction", direction)]
            gauge("urlsessiond_rate_limited_transfers", "Running transfers a bandwidth limit holds.", labels)
                .set(Double(values.limitedTransfers))
            gauge("urlsessiond_rate_limited_share_bytes_per_second", "The sum of the limited transfers' fair shares.", labels)
                .set(values.shares)
            gauge(
                "urlsessiond_rate_limited_throughput_bytes_per_second",
                "What the limited transfers moved together over the last quarter second.", labels
            ).set(values.throughput)
        }
        let added = holdsRecorded.withLock { recorded in
            defer { recorded = (summary.receive.holds, summary.send.holds) }
            return (max(0, summary.receive.holds - recorded.receive), max(0, summary.send.holds - recorded.send))
        }
        for (direction, count) in [("receive", added.0), ("send", added.1)] {
            registry.makeCounter(
                descriptor: Self.metric("urlsessiond_rate_limit_holds_total", "Times a bandwidth limit paused a transfer."),
                labels: [("direction", direction)]
            ).increment(by: Int64(count))
        }
    }

    private func gauge(_ name: String, _ help: String, _ labels: [(String, String)]) -> Gauge {
        registry.makeGauge(descriptor: Self.metric(name, help), labels: labels)
    }

    private static func metric(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
