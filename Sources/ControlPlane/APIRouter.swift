import Foundation
public import SessionTasks
import TransferModels

/// Every route of the API, in one table.
public enum APIRouter {
    /// - Parameters:
    ///   - openAPIDocument: the bytes served at `/openapi.yaml`.
    ///   - partsReady: whether the parts other than the store are running (for `/readyz`).
    ///   - metricsToken: the bearer token `/metrics` requires (`URLSESSIOND_METRICS_TOKEN`); nil: open.
    ///   - maximumSessionConfigurationSize: bytes of a session's `configuration` JSON at most (413 past it).
    public static func make(
        application: ApplicationLayer, allowedSchemes: Set<String>, metrics: HTTPMetrics,
        openAPIDocument: [UInt8], partsReady: @escaping @Sendable () -> Bool, metricsToken: String? = nil,
        maximumSessionConfigurationSize: Int = 64 * 1024
    ) -> Router {
        var router = Router()
        let tasks = application.tasks
        let usage = UsageRoutes(usage: application.usage, streams: StreamQuota(limit: application.usage.limits.streams))
        let groups: [[Route]] = [
            OperationRoutes(
                nodes: application.nodes, tasks: tasks, metrics: metrics, usage: usage,
                metricsAuthenticator: metricsToken.map { TokenAuthenticator(tokens: [$0: Principal(tenant: "metrics", role: .user)]) },
                openAPIDocument: openAPIDocument, partsReady: partsReady, shutdown: router.shutdown
            ).routes,
            SessionRoutes(
                sessions: tasks.sessions, tasks: tasks, cursors: application.cursors,
                maximumConfigurationSize: maximumSessionConfigurationSize
            ).routes,
            TaskRoutes(
                application: application, allowedSchemes: allowedSchemes, streams: usage.streams, shutdown: router.shutdown
            ).routes,
            WebSocketRoutes(tasks: tasks, streams: usage.streams).routes,
            StreamRoutes(tasks: tasks, streams: usage.streams).routes,
            WebSocketRelayRoutes(tasks: tasks, streams: usage.streams, shutdown: router.shutdown).routes,
            CookieRoutes(cursors: application.cursors, sessions: tasks.sessions).routes,
            CacheRoutes(sessions: tasks.sessions).routes,
            CredentialRoutes(cursors: application.cursors, sessions: tasks.sessions).routes,
            BlobRoutes(files: tasks.files).routes,
            EventRoutes(
                events: application.events, queries: application.queries, sessions: tasks.sessions, shutdown: router.shutdown,
                streams: usage.streams, metrics: metrics.tenants
            ).routes,
            DecisionAnswerRoutes(sessions: tasks.sessions, tasks: tasks).routes,
            NetworkRoutes(networks: tasks.networks, cursors: application.cursors).routes,
            usage.routes,
            NodeRoutes(nodes: application.nodes, tasks: tasks).routes,
            ConsoleRoutes().routes,
        ]
        for route in groups.joined() { router.add(route) }
        return router
    }
}
