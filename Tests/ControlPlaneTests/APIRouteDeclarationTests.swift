import Foundation
import Logging
import SessionTasks
import TestSupport
import Testing
import TransferEngine
import TransferModels

@testable import ControlPlane

/// The service's own route table (`APIRouter`), read as declared: what each route passes through is in
/// its declaration, and the rules the API promises hold for every route, not only for those a test calls.
@Suite("API route declarations")
struct APIRouteDeclarationTests {
    struct NoDelegate: DelegateDecisions {
        func expectAnswer(toEvent eventId: String, session sessionId: String) -> ExpectedAnswer { ExpectedAnswer { _ in nil } }
        func take(_ answer: DelegateAnswer, toEvent eventId: String, session sessionId: String) -> Bool { false }
    }

    /// The routes as `APIRouter.make` declares them, with a task service that never runs.
    static func declaredRoutes() throws -> [Route] {
        let store = try StoreFixture()
        defer { store.close() }
        var configuration = TaskService.Configuration()
        configuration.engine.downloadsDirectory = store.directory.url.appendingPathComponent("downloads")
        configuration.blobDirectory = store.directory.url.appendingPathComponent("blobs")
        configuration.trustDirectory = store.directory.url.appendingPathComponent("trust")
        configuration.cacheDirectory = store.directory.url.appendingPathComponent("cache")
        let tasks = try TaskService(
            store: store.store, configuration: configuration, decisions: NoDelegate(), locations: APIPaths(),
            logger: quietLogger)
        let router = APIRouter.make(
            application: ApplicationLayer(store: store.store, tasks: tasks), allowedSchemes: ["http", "https"],
            metrics: MetricsFixture().metrics,
            openAPIDocument: [], partsReady: { true })
        return router.allRoutes
    }

    /// The routes anyone may call: health, readiness, the metrics (which check their own token), the
    /// OpenAPI document and the console's files.
    static let open: Set<String> = [
        "GET /healthz", "GET /readyz", "GET /metrics", "GET /openapi.yaml", "GET /console", "GET /console/{file}",
    ]

    @Test func everyRouteButTheOpenOnesStartsWithAuthentication() throws {
        let routes = try Self.declaredRoutes()
        #expect(routes.count > 50)
        for route in routes {
            let name = "\(route.method) \(route.pattern)"
            if Self.open.contains(name) {
                #expect(route.steps.isEmpty, "\(name) is open")
            } else {
                #expect(route.steps.first == .authenticated, "\(name) authenticates first")
            }
        }
    }

    @Test func everyPOSTIsIdempotentAndNothingElseIs() throws {
        for route in try Self.declaredRoutes() {
            let name = "\(route.method) \(route.pattern)"
            #expect(route.steps.contains(.idempotent) == (route.method == "POST"), "\(name)")
            if route.steps.contains(.idempotent) { #expect(route.fast == nil, "\(name) cannot answer fast") }
        }
    }

    @Test func theAdminRoutesWantTheAdminRoleAndBlobUploadsTheirQuota() throws {
        let routes = try Self.declaredRoutes()
        let admin = routes.filter { $0.steps.contains(.admin) }.map { "\($0.method) \($0.pattern)" }
        #expect(admin == ["PUT /v1/admin/networks/{name}"])
        let bounded = routes.filter { $0.steps.contains(.quota(.blobBytes)) }
        #expect(bounded.map { "\($0.method) \($0.pattern)" } == ["POST /v1/blobs"])
        #expect(bounded.allSatisfy { $0.spoolsBody })
    }
}
