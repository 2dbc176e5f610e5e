import CoreMetrics
import Foundation
public import Prometheus
import TransferModels

/// The control plane's Prometheus metrics: requests by route, method and status; latency; open connections.
public final class HTTPMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// The requests' counters (by route, method and status) and timers (by route), made as first needed:
    /// one lock finds both.
    private let instruments = LockedBox(Instruments())
    private struct Instruments {
        var counters: [String: CoreMetrics.Counter] = [:]
        var timers: [String: CoreMetrics.Timer] = [:]
    }
    private let openConnections = LockedBox<Int>(0)
    private let openConnectionsGauge: CoreMetrics.Gauge
    /// Quotas by tenant, and event watchers' wakeups.
    public let tenants: TenantMetrics
    /// Tasks created and completed, bytes, and the engine's running and queued transfers.
    let transfers: TransferMetrics
    /// Bandwidth limits in force and the transfers they hold.
    let bandwidth: BandwidthMetrics
    /// `urlsessiond_store_statements_total`: the statements the store ran, and the total last recorded.
    private let storeStatements: CoreMetrics.Counter
    private let storeStatementsRecorded = LockedBox<UInt64>(0)

    public init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        self.tenants = TenantMetrics(factory: factory)
        self.transfers = TransferMetrics(registry: registry)
        self.bandwidth = BandwidthMetrics(registry: registry)
        self.openConnectionsGauge = CoreMetrics.Gauge(label: "urlsessiond_http_open_connections", factory: factory)
        openConnectionsGauge.record(0)
        self.storeStatements = CoreMetrics.Counter(label: "urlsessiond_store_statements_total", factory: factory)
    }

    /// Brings `urlsessiond_store_statements_total` to the store's count (`NodeStatus.storeStatements`).
    func record(storeStatements total: UInt64) {
        let added = storeStatementsRecorded.withLock { recorded -> UInt64 in
            defer { recorded = max(recorded, total) }
            return total > recorded ? total - recorded : 0
        }
        if added > 0 { storeStatements.increment(by: Int64(clamping: added)) }
    }

    func requestFinished(route: String, method: String, status: Int, duration: Duration) {
        let key = "\(route) \(method) \(status)"
        let (counter, timer) = instruments.withLock { instruments in
            if instruments.counters[key] == nil {
                instruments.counters[key] = CoreMetrics.Counter(
                    label: "urlsessiond_http_requests_total",
                    dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory)
            }
            if instruments.timers[route] == nil {
                instruments.timers[route] = CoreMetrics.Timer(
                    label: "urlsessiond_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            }
            return (instruments.counters[key]!, instruments.timers[route]!)
        }
        counter.increment()
        let (seconds, attoseconds) = duration.components
        timer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    func connectionChanged(opened: Bool) {
        let count = openConnections.withLock { count in
            count += opened ? 1 : -1
            return count
        }
        openConnectionsGauge.record(count)
    }

    /// The Prometheus text exposition of everything registered, each series with its `# HELP`.
    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return MetricHelp.adding(to: String(decoding: buffer, as: UTF8.self))
    }
}
