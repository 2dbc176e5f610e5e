public import Logging
public import SessionTasks

/// The way a request goes through the API, with no MHD in it: the route for its method and path, the
/// route's head steps before any of the body is read, then — once the body is in — the fast answer or the
/// route's middleware and handler, and the error boundary around them. The server feeds it what it reads
/// and sends what it answers; the tests call it directly. A class: the server reaches it for every request,
/// and a reference is all that reaching it costs.
public final class RequestPipeline: Sendable {
    /// The routes, each with its steps resolved.
    public let router: Router
    public let errors: ProblemResponder

    /// Resolves every route's steps (once: the requests pay for none of it).
    public init(router: Router, steps: RouteSteps, errors: ProblemResponder) {
        self.router = router.prepared(with: steps)
        self.errors = errors
    }

    /// The pipeline of the service: the tenants' tokens, and the application layer's idempotency keys,
    /// quota limits and usage hints behind the steps.
    public convenience init(
        router: Router, authenticator: TokenAuthenticator, idempotency: IdempotencyKeys, usage: TenantUsages, tenants: TenantMetrics,
        logger: Logger
    ) {
        let errors = ProblemResponder(tenants: tenants, logger: logger)
        let steps = RouteSteps(
            authenticator: authenticator, idempotency: idempotency, quotaLimits: usage.limits, usage: usage,
            errors: errors)
        self.init(router: router, steps: steps, errors: errors)
    }

    /// What the head decided: the route (nil when none matched), a refusal to answer instead of reading
    /// on, and a bound on the body.
    struct Admission {
        var route: Route?
        var refusal: HTTPResponse?
        var bodyQuota: BodyQuota?
    }

    /// The head is read: finds the route (HEAD is answered as GET) and runs its head steps, which may fill
    /// in `request` (its parameters, its principal). On the HTTP thread.
    func admit(_ request: inout HTTPRequest) -> Admission {
        switch router.match(method: request.method == "HEAD" ? "GET" : request.method, path: request.path) {
        case .notFound:
            return Admission(refusal: Problem.notFound("no resource at \(request.path)").response)
        case .methodNotAllowed(let allowed):
            return Admission(refusal: Problem.methodNotAllowed(allowed: allowed).response)
        case .found(let route, let parameters):
            request.parameters = parameters
            guard !route.headSteps.isEmpty else { return Admission(route: route) }
            // The request is swapped into the head and back: moved, never copied.
            var head = RequestHead(request: .placeholder)
            swap(&head.request, &request)
            var refusal: Problem?
            for step in route.headSteps {
                refusal = step.admit(&head)
                if refusal != nil { break }
            }
            swap(&head.request, &request)
            guard let refusal else { return Admission(route: route, bodyQuota: head.bodyQuota) }
            return Admission(route: route, refusal: errors.response(for: refusal, request: request))
        }
    }

    /// The whole request is in: the route's answer from memory, on the HTTP thread, or nil for the
    /// asynchronous path.
    func respondFast(to request: HTTPRequest, route: Route) -> HTTPResponse? {
        guard let fast = route.fast else { return nil }
        do {
            return try fast(request)
        } catch {
            return errors.response(for: error, request: request)
        }
    }

    /// The whole request is in: the route's middleware and handler answer it, any error as problem+json.
    func respond(to request: HTTPRequest, route: Route) async -> HTTPResponse {
        do {
            return try await route.responder(request)
        } catch {
            return errors.response(for: error, request: request)
        }
    }
}

extension HTTPRequest {
    /// An empty request that holds nothing (its strings and collections are the empty ones): what stands in
    /// a `RequestHead` until the request is swapped in.
    static let placeholder = HTTPRequest(
        method: "", path: "", query: [], headers: [], body: [], spooledBody: nil, parameters: [:], principal: nil, requestID: "")
}
