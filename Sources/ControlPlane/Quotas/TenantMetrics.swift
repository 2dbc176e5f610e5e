import CoreMetrics
import Prometheus
import TransferModels

/// Per-tenant gauges of each quota's usage and limit, the refusals, and how often event watchers wake.
public final class TenantMetrics: Sendable {
    private let factory: PrometheusMetricsFactory
    private let gauges = LockedBox<[String: CoreMetrics.Gauge]>([:])
    private let refusals = LockedBox<[String: CoreMetrics.Counter]>([:])
    private let watcherWakeups: CoreMetrics.Counter

    init(factory: PrometheusMetricsFactory) {
        self.factory = factory
        watcherWakeups = CoreMetrics.Counter(label: "urlsessiond_event_watcher_wakeups_total", factory: factory)
    }

    /// `urlsessiond_tenant_usage{tenant,quota}` and `urlsessiond_tenant_quota{tenant,quota}` (0: no limit).
    func record(usage: [String: TenantUsage], limits: QuotaLimits) {
        for (tenant, usage) in usage {
            for quota in Quota.allCases {
                gauge("urlsessiond_tenant_usage", tenant: tenant, quota: quota).record(usage[quota])
                gauge("urlsessiond_tenant_quota", tenant: tenant, quota: quota).record(limits[quota])
            }
        }
    }

    /// `urlsessiond_quota_exceeded_total{tenant,quota}`: one request refused.
    func quotaExceeded(tenant: String, quota: Quota) {
        let key = "\(tenant)\u{0}\(quota.rawValue)"
        let counter = refusals.withLock { refusals in
            if let counter = refusals[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "urlsessiond_quota_exceeded_total", dimensions: [("tenant", tenant), ("quota", quota.rawValue)],
                factory: factory)
            refusals[key] = counter
            return counter
        }
        counter.increment()
    }

    /// `urlsessiond_event_watcher_wakeups_total`: a long-poll or event stream woke for a hint of its
    /// session's new events (a hint for another session must not wake it).
    func watcherWokeUp() { watcherWakeups.increment() }

    private func gauge(_ label: String, tenant: String, quota: Quota) -> CoreMetrics.Gauge {
        let key = "\(label)\u{0}\(tenant)\u{0}\(quota.rawValue)"
        return gauges.withLock { gauges in
            if let gauge = gauges[key] { return gauge }
            let gauge = CoreMetrics.Gauge(label: label, dimensions: [("tenant", tenant), ("quota", quota.rawValue)], factory: factory)
            gauges[key] = gauge
            return gauge
        }
    }
}
