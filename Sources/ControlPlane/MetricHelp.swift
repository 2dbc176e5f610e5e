/// `# HELP` lines for the series made through swift-metrics' API (HTTP, delivery, quota, network, store):
/// its factory registers them without help text, and swift-prometheus' registry stops the process if one
/// name is registered with two help texts, so they are written into the exposition here, one table for
/// every such series. The series made on the registry itself (`TransferMetrics`) carry their own.
enum MetricHelp {
    static let texts: [String: String] = [
        "urlsessiond_http_requests_total": "API requests answered, by route template, method and status.",
        "urlsessiond_http_request_duration_seconds": "Time to answer an API request, by route template.",
        "urlsessiond_http_open_connections": "API connections open now.",
        "urlsessiond_store_statements_total": "Statements this node ran on its store.",
        "urlsessiond_events_delivered_total": "Delegate events a webhook receiver acknowledged with a 2xx.",
        "urlsessiond_events_retried_total": "Failed webhook attempts scheduled to be tried again.",
        "urlsessiond_events_failed_total": "Delegate events given up, by reason (gone: 410, decision: unanswered, undeliverable, held).",
        "urlsessiond_events_queue_depth": "Delegate events waiting for delivery.",
        "urlsessiond_event_delivery_latency_seconds": "Time from an event's timestamp to its acknowledgement by the receiver.",
        "urlsessiond_event_watcher_wakeups_total": "Times a long-poll or event stream woke for a hint of its session's new events.",
        "urlsessiond_tenant_usage": "A tenant's use of each quota (sessions, tasks, blobs, bytes, streams).",
        "urlsessiond_tenant_quota": "A tenant's limit of each quota (0: no limit).",
        "urlsessiond_quota_exceeded_total": "Requests refused because a tenant's quota was reached, by quota.",
        "urlsessiond_network_path_available": "1 while a configured network path is up, 0 while it is down.",
        "urlsessiond_network_path_changes_total": "Times a configured network path went up or down.",
    ]

    /// `exposition` with a `# HELP` line before the `# TYPE` line of each series in `texts` that has none.
    static func adding(to exposition: String) -> String {
        var lines: [Substring] = []
        var previous: Substring = ""
        for line in exposition.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), !previous.hasPrefix("# HELP ") {
                let name = line.dropFirst("# TYPE ".count).prefix { $0 != " " }
                if let help = texts[String(name)] { lines.append("# HELP \(name) \(help)") }
            }
            lines.append(line)
            previous = line
        }
        return lines.joined(separator: "\n")
    }
}
