public import SessionTasks

/// One endpoint: a method, a path pattern with `{name}` segments, the steps a request passes through
/// (`RouteStep`), and what answers it.
public struct Route: Sendable {
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse
    /// Answers from memory on the HTTP thread, or returns nil to take the asynchronous path.
    /// It must never block: no I/O, no waiting on locks held for long.
    public typealias FastHandler = @Sendable (HTTPRequest) throws -> HTTPResponse?
    /// Where a streamed request body goes, decided from the headers on the HTTP thread: a stream, a
    /// refusal, or either after a wait (`later`: a lookup, a task still starting), during which no byte of
    /// the body is read.
    public typealias BodyStreamResolver = @Sendable (HTTPRequest) -> BodyDestination

    public enum BodyDestination: Sendable {
        case stream(StreamedUploadBody)
        case refused(Problem)
        case later(@Sendable () async -> Result<StreamedUploadBody, Problem>)
    }

    public var method: String
    public var pattern: String
    /// A label for metrics: the pattern itself, so ids never explode cardinality.
    public var name: String { pattern }
    /// What a request passes through before the handler, in order: `[]` for the open routes (`/healthz`),
    /// `[.authenticated]` for most, `[.authenticated, .idempotent]` for a POST.
    public var steps: [RouteStep]
    /// The body goes to a temporary file as it arrives (blobs), not to memory.
    public var spoolsBody: Bool
    /// The body goes, as it arrives, into the stream this returns (a streamed upload's `PUT …/body`), or
    /// the request is answered with the problem before any of it is read. On the HTTP thread: no I/O.
    public var streamsBodyInto: BodyStreamResolver?
    public var fast: FastHandler?
    public var handler: Handler
    let segments: [Segment]
    /// The steps that act on the head, resolved from `steps` by `Router.prepared(with:)`.
    private(set) var headSteps: [any HeadStep] = []
    /// The handler inside the steps that act around it, resolved from `steps` by `Router.prepared(with:)`.
    private(set) var responder: Handler

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    public init(
        _ method: String, _ pattern: String, steps: [RouteStep], spoolsBody: Bool = false,
        streamsBodyInto: BodyStreamResolver? = nil, fast: FastHandler? = nil, handler: @escaping Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.steps = steps
        self.spoolsBody = spoolsBody
        self.streamsBodyInto = streamsBodyInto
        self.fast = fast
        self.handler = handler
        self.responder = handler
        self.segments = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    /// The route with its steps resolved: the head steps in order, and the handler wrapped in the others
    /// (the first listed outermost). Done once per route at start-up.
    func resolved(with resolver: RouteSteps) -> Route {
        var route = self
        let (head, around) = resolver.resolve(self)
        route.headSteps = head
        route.responder = around.reversed().reduce(handler) { next, middleware in
            { request in try await middleware.respond(to: request, next: next) }
        }
        return route
    }
}

/// Finds the route for a method and path. Literal segments win over parameters, so
/// `/v1/sessions/shared` can be told apart from `/v1/sessions/{id}` when both exist.
public struct Router: Sendable {
    public enum Match: Sendable {
        case found(Route, parameters: [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound
    }

    private var routes: [Route] = []
    /// What `match` compares, by the routes' indices: a route is copied out only once it is chosen (a
    /// route carries its closures and steps, and copying every one per request showed in the small-GET profile).
    private var patterns: [Pattern] = []
    /// Triggered by the server when graceful shutdown begins: handlers that wait answer at once.
    let shutdown = ShutdownSignal()

    private struct Pattern: Sendable {
        var method: String
        var segments: [Route.Segment]
    }

    public init(_ routes: [Route] = []) {
        self.routes = routes
        self.patterns = routes.map { Pattern(method: $0.method, segments: $0.segments) }
    }

    public mutating func add(_ route: Route) {
        routes.append(route)
        patterns.append(Pattern(method: route.method, segments: route.segments))
    }

    /// The router with every route's steps resolved (`Route.resolved(with:)`); what the server serves.
    public func prepared(with steps: RouteSteps) -> Router {
        var router = self
        router.routes = routes.map { $0.resolved(with: steps) }
        return router
    }

    /// Every route, as declared (and, once prepared, resolved).
    public var allRoutes: [Route] { routes }

    public func match(method: String, path: String) -> Match {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count <= 8, !path.contains("//") else { return .notFound }
        var best: (index: Int, parameters: [String: String], literals: Int)?
        var allowed: [String] = []
        for index in patterns.indices {
            let pattern = patterns[index]
            guard pattern.segments.count == parts.count else { continue }
            guard let (parameters, literals) = Self.bind(pattern.segments, to: parts) else { continue }
            if pattern.method != method {
                if !allowed.contains(pattern.method) { allowed.append(pattern.method) }
                continue
            }
            if best == nil || literals > best!.literals { best = (index, parameters, literals) }
        }
        if let best { return .found(routes[best.index], parameters: best.parameters) }
        if !allowed.isEmpty { return .methodNotAllowed(allowed: allowed + (allowed.contains("GET") ? ["HEAD"] : [])) }
        return .notFound
    }

    private static func bind(_ segments: [Route.Segment], to parts: [Substring]) -> ([String: String], Int)? {
        var parameters: [String: String] = [:]
        var literals = 0
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text):
                guard text == part else { return nil }
                literals += 1
            case .parameter(let name):
                parameters[name] = String(part)
            }
        }
        return (parameters, literals)
    }
}
