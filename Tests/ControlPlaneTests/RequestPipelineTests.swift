import Logging
import SessionTasks
import TestSupport
import Testing
import TransferModels
import TransferStore

@testable import ControlPlane

/// The router's dispatch with its steps, as the server drives it but with no MHD: the head (the route, then
/// the head steps), then the fast answer or the steps around the handler, and the error boundary.
@Suite("Request pipeline")
struct RequestPipelineTests {
    struct Broken: Error {}

    /// The routes the tests dispatch to, each listing its steps, and how often their handlers ran.
    static func routes(_ calls: Calls) -> [Route] {
        [
            Route("GET", "/healthz", steps: [], fast: { _ in .text("fast ok") }) { _ in .text("ok") },
            Route("GET", "/v1/things/{id}", steps: [.authenticated]) { request in
                calls.record()
                return .text("\(request.tenant) \(request.parameter("id"))")
            },
            Route("GET", "/v1/things/mine", steps: [.authenticated], fast: { request in .text("fast \(request.tenant)") }) { _ in
                .text("slow")
            },
            Route("POST", "/v1/things", steps: [.authenticated, .idempotent]) { request in
                calls.record()
                return HTTPResponse(
                    status: 201, headers: [("Location", "/v1/things/\(calls.count)")], body: .bytes(Array("\(calls.count)".utf8)))
            },
            Route("PUT", "/v1/admin/switch", steps: [.authenticated, .admin]) { _ in .noContent },
            Route("POST", "/v1/blobs", steps: [.authenticated, .quota(.blobBytes), .idempotent], spoolsBody: true) { _ in
                .noContent
            },
            Route("GET", "/v1/broken", steps: [.authenticated]) { _ in throw Broken() },
            Route("GET", "/v1/crowded", steps: [.authenticated]) { _ in
                throw QuotaExceeded(quota: .streams, limit: 2, usage: 2)
            },
        ]
    }

    /// A pipeline over `routes` with a real store behind its idempotency step.
    struct Harness {
        let calls = Calls()
        let store: StoreFixture
        let metrics = MetricsFixture()
        let pipeline: RequestPipeline

        init(blobBytesLimit: Int64 = 0, usage: FixedUsage = FixedUsage()) throws {
            store = try StoreFixture()
            var limits = QuotaLimits.unlimited
            limits.blobBytes = blobBytesLimit
            let steps = RouteSteps(
                authenticator: Tokens.authenticator, idempotency: IdempotencyKeys(store: store.store), quotaLimits: limits, usage: usage,
                errors: metrics.errors)
            pipeline = RequestPipeline(router: Router(RequestPipelineTests.routes(calls)), steps: steps, errors: metrics.errors)
        }

        /// Admits the head, then answers as the server would once the body is in (fast first).
        func answer(_ request: HTTPRequest) async -> (admission: RequestPipeline.Admission, response: HTTPResponse) {
            var request = request
            let admission = pipeline.admit(&request)
            if let refusal = admission.refusal { return (admission, refusal) }
            guard let route = admission.route else { return (admission, Problem.internalError.response) }
            if let fast = pipeline.respondFast(to: request, route: route) { return (admission, fast) }
            return (admission, await pipeline.respond(to: request, route: route))
        }
    }

    func withHarness(blobBytesLimit: Int64 = 0, usage: FixedUsage = FixedUsage(), _ body: (Harness) async throws -> Void)
        async throws
    {
        let harness = try Harness(blobBytesLimit: blobBytesLimit, usage: usage)
        defer { harness.store.close() }
        try await body(harness)
    }

    @Test func anUnknownPathIs404AndAnotherMethod405() async throws {
        try await withHarness { harness in
            let (missing, notFound) = await harness.answer(makeRequest("GET", "/v1/nowhere", token: Tokens.alpha))
            #expect(missing.route == nil)
            #expect(notFound.status == 404)
            #expect((try? ProblemBody(notFound))?.detail == "no resource at /v1/nowhere")

            let (_, notAllowed) = await harness.answer(makeRequest("DELETE", "/v1/things/7", token: Tokens.alpha))
            #expect(notAllowed.status == 405)
            #expect(notAllowed.header("Allow") == "GET, HEAD")
            #expect(harness.calls.count == 0)
        }
    }

    @Test func anOpenRouteNeedsNoToken() async throws {
        try await withHarness { harness in
            let (admission, response) = await harness.answer(makeRequest("GET", "/healthz"))
            #expect(admission.route?.pattern == "/healthz")
            #expect(response.text == "fast ok")
        }
    }

    @Test func anAuthenticatedRouteRefusesBeforeItsHandler() async throws {
        try await withHarness { harness in
            for request in [makeRequest("GET", "/v1/things/7"), makeRequest("GET", "/v1/things/7", token: "stolen")] {
                let (admission, response) = await harness.answer(request)
                #expect(admission.route?.pattern == "/v1/things/{id}", "the route is known, for the metrics")
                #expect(response.status == 401)
                #expect(response.header("WWW-Authenticate") == #"Bearer realm="urlsessiond""#)
            }
            #expect(harness.calls.count == 0)
        }
    }

    @Test func theHandlerSeesTheTenantAndTheParameters() async throws {
        try await withHarness { harness in
            let (_, alpha) = await harness.answer(makeRequest("GET", "/v1/things/7", token: Tokens.alpha))
            let (_, beta) = await harness.answer(makeRequest("HEAD", "/v1/things/8", token: Tokens.beta))
            #expect(alpha.text == "alpha 7")
            #expect(beta.text == "beta 8", "HEAD is answered as GET")
            let (_, mine) = await harness.answer(makeRequest("GET", "/v1/things/mine", token: Tokens.beta))
            #expect(mine.text == "fast beta", "a literal segment wins over a parameter; the fast answer passed the steps")
        }
    }

    @Test func aFastAnswerComesAfterTheHeadSteps() async throws {
        try await withHarness { harness in
            let (_, response) = await harness.answer(makeRequest("GET", "/v1/things/mine"))
            #expect(response.status == 401)
        }
    }

    @Test func anAdminRouteWantsTheAdminRole() async throws {
        try await withHarness { harness in
            #expect(await harness.answer(makeRequest("PUT", "/v1/admin/switch")).response.status == 401)
            let (_, user) = await harness.answer(makeRequest("PUT", "/v1/admin/switch", token: Tokens.alpha))
            #expect(user.status == 403)
            #expect((try? ProblemBody(user))?.detail == "this endpoint needs a token with the admin role")
            #expect(await harness.answer(makeRequest("PUT", "/v1/admin/switch", token: Tokens.root)).response.status == 204)
        }
    }

    @Test func anIdempotentRouteReplaysAndOthersDoNot() async throws {
        try await withHarness { harness in
            let key = [(name: "idempotency-key", value: "k-1")]
            let first = await harness.answer(makeRequest("POST", "/v1/things", token: Tokens.alpha, headers: key, body: "{}")).response
            let retry = await harness.answer(makeRequest("POST", "/v1/things", token: Tokens.alpha, headers: key, body: "{}")).response
            #expect(first.status == 201)
            #expect(retry.status == 201)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.header("Location") == first.header("Location"))
            #expect(harness.calls.count == 1)

            let reused = await harness.answer(makeRequest("POST", "/v1/things", token: Tokens.alpha, headers: key, body: "[]")).response
            #expect(reused.status == 409)
            #expect(reused.header("Content-Type") == "application/problem+json")

            // A route that does not list the step ignores the header.
            _ = await harness.answer(makeRequest("GET", "/v1/things/1", token: Tokens.alpha, headers: key))
            _ = await harness.answer(makeRequest("GET", "/v1/things/1", token: Tokens.alpha, headers: key))
            #expect(harness.calls.count == 3)
        }
    }

    @Test func aQuotaRouteBoundsItsBody() async throws {
        var usage = FixedUsage()
        usage.usage["alpha", default: TenantUsage()].blobBytes = 400
        try await withHarness(blobBytesLimit: 1_000, usage: usage) { harness in
            var request = makeRequest("POST", "/v1/blobs", token: Tokens.alpha)
            let admission = harness.pipeline.admit(&request)
            #expect(admission.refusal == nil)
            #expect(admission.bodyQuota == BodyQuota(quota: .blobBytes, limit: 1_000, usage: 400))
            #expect(request.principal?.tenant == "alpha", "the head steps' work is the request's")

            var other = makeRequest("GET", "/v1/things/1", token: Tokens.alpha)
            #expect(harness.pipeline.admit(&other).bodyQuota == nil)

            var anonymous = makeRequest("POST", "/v1/blobs")
            let refused = harness.pipeline.admit(&anonymous)
            #expect(refused.refusal?.status == 401)
            #expect(refused.bodyQuota == nil, "no bound for a request that is not read")
        }
    }

    @Test func errorsBecomeProblemsAndQuotaRefusalsAreCounted() async throws {
        try await withHarness { harness in
            let (_, broken) = await harness.answer(makeRequest("GET", "/v1/broken", token: Tokens.alpha))
            #expect(broken.status == 500)
            #expect((try? ProblemBody(broken))?.type == "urn:urlsessiond:problem:internal")

            let (_, crowded) = await harness.answer(makeRequest("GET", "/v1/crowded", token: Tokens.beta))
            #expect(crowded.status == 429)
            #expect((try? ProblemBody(crowded))?.members["quota"] as? String == "streams")
            #expect(harness.metrics.exposition.contains(#"urlsessiond_quota_exceeded_total{tenant="beta",quota="streams"} 1"#))
        }
    }

    @Test func stepsAreResolvedOnceInTheirOrder() throws {
        let store = try StoreFixture()
        defer { store.close() }
        var limits = QuotaLimits.unlimited
        limits.blobBytes = 10
        let errors = MetricsFixture().errors
        let steps = RouteSteps(
            authenticator: Tokens.authenticator, idempotency: IdempotencyKeys(store: store.store), quotaLimits: limits, usage: FixedUsage(),
            errors: errors)
        let router = Router(Self.routes(Calls())).prepared(with: steps)
        let resolved = Dictionary(uniqueKeysWithValues: router.allRoutes.map { ("\($0.method) \($0.pattern)", $0) })
        let blobs = try #require(resolved["POST /v1/blobs"])
        #expect(blobs.headSteps.count == 2)
        #expect(blobs.headSteps.first is Authentication)
        #expect(blobs.headSteps.last is BodyQuotaStep)
        #expect(try #require(resolved["PUT /v1/admin/switch"]).headSteps.last is AdminRole)
        #expect(try #require(resolved["GET /healthz"]).headSteps.isEmpty)
        #expect(Router(Self.routes(Calls())).allRoutes.allSatisfy { $0.headSteps.isEmpty }, "declared, not yet resolved")
    }

    @Test func theServicePipelineTakesTheStoresLimits() async throws {
        var limits = QuotaLimits.unlimited
        limits.blobBytes = 2_048
        let store = try StoreFixture(quotaLimits: limits)
        defer { store.close() }
        let metrics = MetricsFixture()
        let pipeline = RequestPipeline(
            router: Router(Self.routes(Calls())), authenticator: Tokens.authenticator, idempotency: IdempotencyKeys(store: store.store),
            usage: TenantUsages(store: store.store), tenants: metrics.metrics.tenants, logger: quietLogger)
        var request = makeRequest("POST", "/v1/blobs", token: Tokens.beta)
        #expect(pipeline.admit(&request).bodyQuota == BodyQuota(quota: .blobBytes, limit: 2_048, usage: 0))
    }
}

/// A list of steps that cannot work as written stops the start-up, before any request is served.
@Suite("Route step declarations")
struct RouteStepDeclarationTests {
    /// Resolves one route's steps, as the server does when it starts.
    static func resolve(_ route: Route) throws {
        let store = try StoreFixture()
        // Removed before the steps are resolved (the open store needs no path): a start-up stopped there, in
        // an exit test's process, leaves no directory behind.
        store.directory.remove()
        defer { store.close() }
        let steps = RouteSteps(
            authenticator: Tokens.authenticator, idempotency: IdempotencyKeys(store: store.store), quotaLimits: .unlimited,
            usage: FixedUsage(), errors: MetricsFixture().errors)
        _ = Router([route]).prepared(with: steps)
    }

    @Test func aWellFormedListResolves() throws {
        try Self.resolve(Route("POST", "/v1/blobs", steps: [.authenticated, .quota(.blobBytes), .idempotent]) { _ in .noContent })
    }

    /// The standard error of a start-up stopped by `route`'s steps.
    static func stopMessage(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func aHeadStepAfterOneAroundTheHandlerStopsTheStartUp() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try RouteStepDeclarationTests.resolve(Route("POST", "/v1/things", steps: [.idempotent, .authenticated]) { _ in .noContent })
        }
        #expect(Self.stopMessage(result).contains("POST /v1/things: list authenticated, which acts on the head, first"))
    }

    @Test func aRoleWithoutAuthenticationStopsTheStartUp() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try RouteStepDeclarationTests.resolve(Route("PUT", "/v1/admin/switch", steps: [.admin]) { _ in .noContent })
        }
        #expect(Self.stopMessage(result).contains(".admin needs .authenticated before it"))
    }

    @Test func anIdempotentGETStopsTheStartUp() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try RouteStepDeclarationTests.resolve(Route("GET", "/v1/things", steps: [.authenticated, .idempotent]) { _ in .noContent })
        }
        #expect(Self.stopMessage(result).contains("Idempotency-Key is for POSTs"))
    }

    @Test func aQuotaTheBodyDoesNotCountAgainstStopsTheStartUp() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            try RouteStepDeclarationTests.resolve(
                Route("POST", "/v1/things", steps: [.authenticated, .quota(.sessions)]) { _ in .noContent })
        }
        #expect(Self.stopMessage(result).contains("only the blobBytes quota bounds a body"))
    }
}
