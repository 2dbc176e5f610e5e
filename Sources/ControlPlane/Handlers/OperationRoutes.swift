import SessionTasks

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.yaml`: no tenant token needed; `/metrics` needs the metrics
/// token when one is configured (`URLSESSIOND_METRICS_TOKEN`).
struct OperationRoutes {
    let nodes: NodeStatus
    let tasks: TaskService
    let metrics: HTTPMetrics
    /// Every tenant's usage, recorded into the gauges at each scrape.
    let usage: UsageRoutes
    /// The metrics token, kept as a digest and compared in constant time; nil: `/metrics` is open.
    let metricsAuthenticator: TokenAuthenticator?
    let openAPIDocument: [UInt8]
    /// Whether every part the service runs (engine, delivery) is up, beyond the store.
    let partsReady: @Sendable () -> Bool
    /// Triggered when the control plane begins its graceful shutdown: from then on, not ready.
    let shutdown: ShutdownSignal

    var routes: [Route] {
        [
            Route("GET", "/healthz", steps: [], fast: { _ in .text(#"{"status":"ok"}"#, contentType: "application/json") }) { _ in
                .text(#"{"status":"ok"}"#, contentType: "application/json")
            },
            Route("GET", "/readyz", steps: []) { _ in
                var ready = !shutdown.isTriggered && partsReady()
                if ready { ready = await nodes.storeIsReadable() }
                return .text(
                    ready ? #"{"status":"ready"}"# : #"{"status":"unavailable"}"#, contentType: "application/json",
                    status: ready ? 200 : 503)
            },
            // Not a fast route: the tenants' gauges are read from the store first (one small table).
            Route("GET", "/metrics", steps: []) { request in
                try authorizeMetrics(request)
                metrics.tenants.record(usage: try await usage.all(), limits: usage.limits)
                metrics.record(storeStatements: nodes.storeStatements)
                metrics.transfers.record(nodes.taskCounts, load: tasks.transferLoad)
                metrics.bandwidth.record(tasks.bandwidthSummary)
                return .text(metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
            },
            Route(
                "GET", "/openapi.yaml", steps: [],
                fast: { _ in
                    HTTPResponse(status: 200, headers: [("Content-Type", "application/yaml")], body: .bytes(openAPIDocument))
                }
            ) { _ in
                HTTPResponse(status: 200, headers: [("Content-Type", "application/yaml")], body: .bytes(openAPIDocument))
            },
        ]
    }

    /// The Prometheus text needs the metrics token when one is configured: a 401 otherwise.
    private func authorizeMetrics(_ request: HTTPRequest) throws {
        if let metricsAuthenticator,
            case .failure(let problem) = metricsAuthenticator.authenticate(authorization: request.header("authorization"))
        {
            throw problem
        }
    }
}
