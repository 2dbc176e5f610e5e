import CoreMetrics
import NetworkPaths
import Prometheus
import TransferModels

/// `/metrics` for the network paths: `urlsessiond_network_path_available{path}` (1 or 0) and
/// `urlsessiond_network_path_changes_total{path}`, updated on every change the monitor reports.
enum NetworkMetrics {
    static func observe(_ networks: NetworkPathMonitor, registry: PrometheusCollectorRegistry) {
        let factory = PrometheusMetricsFactory(registry: registry)
        var gauges: [String: CoreMetrics.Gauge] = [:]
        var counters: [String: CoreMetrics.Counter] = [:]
        for state in networks.states() {
            let name = state.path.name
            gauges[name] = CoreMetrics.Gauge(label: "urlsessiond_network_path_available", dimensions: [("path", name)], factory: factory)
            counters[name] = CoreMetrics.Counter(
                label: "urlsessiond_network_path_changes_total", dimensions: [("path", name)], factory: factory)
            gauges[name]?.record(state.isAvailable ? 1 : 0)
        }
        let (available, changes) = (gauges, counters)
        let counted = LockedBox(Dictionary(uniqueKeysWithValues: networks.states().map { ($0.path.name, $0.changes) }))
        networks.onChange { states in
            for state in states {
                available[state.path.name]?.record(state.isAvailable ? 1 : 0)
                let new = counted.withLock { counted in
                    defer { counted[state.path.name] = state.changes }
                    return state.changes - (counted[state.path.name] ?? 0)
                }
                if new > 0 { changes[state.path.name]?.increment(by: Int64(new)) }
            }
        }
    }
}
