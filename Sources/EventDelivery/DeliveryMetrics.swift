import CoreMetrics
import Foundation
import TransferModels

/// The dispatcher's metrics, named like the control plane's (`urlsessiond_<thing>_<unit>`):
/// - `urlsessiond_events_delivered_total`: events acknowledged by a 2xx;
/// - `urlsessiond_events_retried_total`: failed attempts scheduled to be tried again;
/// - `urlsessiond_events_failed_total{reason}`: events given up (`gone`: 410, `decision`: a decision
///   not answered by a 2xx, `undeliverable`: a completion event whose task has no URL any more);
/// - `urlsessiond_events_queue_depth`: events waiting (see `DeliveryStore.deliveryQueueDepth`);
/// - `urlsessiond_event_delivery_latency_seconds`: the event's timestamp to its acknowledgement.
final class DeliveryMetrics: Sendable {
    private let delivered: CoreMetrics.Counter
    private let retried: CoreMetrics.Counter
    private let failed: [String: CoreMetrics.Counter]
    private let queueDepth: CoreMetrics.Gauge
    private let latency: CoreMetrics.Timer

    init(factory: any MetricsFactory) {
        delivered = CoreMetrics.Counter(label: "urlsessiond_events_delivered_total", factory: factory)
        retried = CoreMetrics.Counter(label: "urlsessiond_events_retried_total", factory: factory)
        var failed: [String: CoreMetrics.Counter] = [:]
        for reason in ["gone", "decision", "undeliverable", "held"] {
            failed[reason] = CoreMetrics.Counter(
                label: "urlsessiond_events_failed_total", dimensions: [("reason", reason)], factory: factory)
        }
        self.failed = failed
        queueDepth = CoreMetrics.Gauge(label: "urlsessiond_events_queue_depth", factory: factory)
        latency = CoreMetrics.Timer(label: "urlsessiond_event_delivery_latency_seconds", factory: factory)
    }

    func deliveredEvent(timestamp: Date, at now: Date) {
        delivered.increment()
        latency.recordNanoseconds(Int64(max(0, now.timeIntervalSince(timestamp)) * 1_000_000_000))
    }

    func retriedAttempt() { retried.increment() }

    func failedEvent(reason: String) { failed[reason]?.increment() }

    func recordQueueDepth(_ depth: Int) { queueDepth.record(depth) }
}
