import Foundation
public import SessionTasks
import TransferModels
public import TransferStore

/// Every route of the API, in one table.
public enum APIRouter {
    /// - Parameters:
    ///   - openAPIDocument: the bytes served at `/openapi.yaml`.
    ///   - partsReady: whether the parts other than the store are running (for `/readyz`).
    ///   - metricsToken: the bearer token `/metrics` requires (`URLSESSIOND_METRICS_TOKEN`); nil: open.
    ///   - maximumSessionConfigurationSize: bytes of a session's `configuration` JSON at most (413 past it).
    public static func make(
        store: TransferStore, tasks: TaskService, allowedSchemes: Set<String>, metrics: HTTPMetrics,
        openAPIDocument: [UInt8], partsReady: @escaping @Sendable () -> Bool, metricsToken: String? = nil,
        maximumSessionConfigurationSize: Int = 64 * 1024
    ) -> Router {
        var router = Router()
        let usage = UsageRoutes(store: store, streams: StreamQuota(limit: store.quotaLimits.streams))
        let groups: [[Route]] = [
            OperationRoutes(
                store: store, tasks: tasks, metrics: metrics, usage: usage,
                metricsAuthenticator: metricsToken.map { TokenAuthenticator(tokens: [$0: Principal(tenant: "metrics", role: .user)]) },
                openAPIDocument: openAPIDocument, partsReady: partsReady, shutdown: router.shutdown
            ).routes,
            SessionRoutes(
                sessions: tasks.sessions, tasks: tasks, cursors: store.listCursors,
                maximumConfigurationSize: maximumSessionConfigurationSize
            ).routes,
            TaskRoutes(
                store: store, tasks: tasks, allowedSchemes: allowedSchemes, streams: usage.streams, shutdown: router.shutdown
            ).routes,
            WebSocketRoutes(tasks: tasks, streams: usage.streams).routes,
            StreamRoutes(tasks: tasks, streams: usage.streams).routes,
            WebSocketRelayRoutes(tasks: tasks, streams: usage.streams, shutdown: router.shutdown).routes,
            CookieRoutes(store: store, sessions: tasks.sessions).routes,
            CacheRoutes(sessions: tasks.sessions).routes,
            CredentialRoutes(store: store, sessions: tasks.sessions).routes,
            BlobRoutes(files: tasks.files).routes,
            EventRoutes(
                store: store, sessions: tasks.sessions, shutdown: router.shutdown, streams: usage.streams, metrics: metrics.tenants
            ).routes,
            NetworkRoutes(networks: tasks.networks, cursors: store.listCursors).routes,
            usage.routes,
            NodeRoutes(store: store, tasks: tasks).routes,
            ConsoleRoutes().routes,
        ]
        for route in groups.joined() { router.add(route) }
        return router
    }
}
