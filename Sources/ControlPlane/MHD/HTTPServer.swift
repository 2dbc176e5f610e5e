import CMicroHTTPD
public import Logging
import Prometheus
public import ServiceLifecycle
public import SessionTasks
import Synchronization
import TransferModels

/// The control plane: libmicrohttpd's epoll thread pool in front of the request pipeline.
///
/// MHD threads read requests, pass their heads through the pipeline (the route and its head steps:
/// authentication, quotas), read or refuse their bodies, and answer fast paths at once. Everything else is
/// suspended (`MHD_suspend_connection`) and handed to `run()`, which has the pipeline answer it in a task
/// group and resumes the connection: MHD threads never block and never await. What a request passes
/// through is the pipeline's and its routes' business (`RequestPipeline`, `RouteStep`), none of the server's.
public final class HTTPServer: Service, @unchecked Sendable {
    // `@unchecked Sendable`: immutable after init except `daemon` (started/stopped only by `run()`) and
    // the locked or thread-safe members.
    let configuration: ControlPlaneConfiguration
    let pipeline: RequestPipeline
    let metrics: HTTPMetrics
    let logger: Logger
    let daemon = MHDDaemon()
    /// Requests between their first access-handler call and NOTIFY_COMPLETED.
    let liveRequests = Atomic<Int>(0)
    /// Set once graceful shutdown begins: answers then close their connection.
    let isShuttingDown = Atomic<Bool>(false)
    /// Streamed answers (server-sent events) between their hand-off to MHD and NOTIFY_COMPLETED, so
    /// shutdown can end them: they would otherwise hold the stop for as long as their clients listen.
    let openStreams = LockedBox<[ObjectIdentifier: ResponseStream]>([:])
    /// Streamed request bodies whose client may leave without MHD noticing.
    let hangupWatch = ClientHangupWatch()
    private let pending: AsyncStream<RequestContext>
    private let pendingContinuation: AsyncStream<RequestContext>.Continuation
    private let onServerRunning: @Sendable (UInt16) async -> Void
    private let onShutdown: @Sendable () -> Void

    public init(
        configuration: ControlPlaneConfiguration, pipeline: RequestPipeline, metrics: HTTPMetrics, logger: Logger,
        onServerRunning: @escaping @Sendable (UInt16) async -> Void = { _ in },
        onShutdown: @escaping @Sendable () -> Void = {}
    ) {
        self.onShutdown = onShutdown
        self.configuration = configuration
        self.pipeline = pipeline
        self.metrics = metrics
        self.logger = logger
        self.onServerRunning = onServerRunning
        (pending, pendingContinuation) = AsyncStream.makeStream(of: RequestContext.self)
    }

    /// The server of the service: `router`'s steps resolved with the tenants' tokens and the application
    /// layer's idempotency keys and quotas (`RequestPipeline.init(router:authenticator:idempotency:usage:tenants:logger:)`).
    public convenience init(
        configuration: ControlPlaneConfiguration, router: Router, authenticator: TokenAuthenticator,
        application: ApplicationLayer, metrics: HTTPMetrics, logger: Logger,
        onServerRunning: @escaping @Sendable (UInt16) async -> Void = { _ in },
        onShutdown: @escaping @Sendable () -> Void = {}
    ) {
        let pipeline = RequestPipeline(
            router: router, authenticator: authenticator, idempotency: application.idempotency, usage: application.usage,
            tenants: metrics.tenants, logger: logger)
        self.init(
            configuration: configuration, pipeline: pipeline, metrics: metrics, logger: logger, onServerRunning: onServerRunning,
            onShutdown: onShutdown)
    }

    public func run() async throws {
        let options = MHDDaemon.Options(
            host: configuration.host, port: configuration.port, threads: UInt32(configuration.threads),
            connectionLimit: UInt32(configuration.connectionLimit),
            perIPConnectionLimit: UInt32(configuration.perIPConnectionLimit),
            idleTimeoutSeconds: UInt32(configuration.idleTimeout),
            connectionMemoryLimit: configuration.headerMemoryLimit * 4)
        try daemon.start(
            options, context: Unmanaged.passUnretained(self).toOpaque(),
            access: mhdAccessHandler, completed: mhdRequestCompleted, connectionNotify: mhdConnectionNotify)
        logger.info(
            "Control plane listening",
            metadata: ["http.host": "\(configuration.host)", "http.port": "\(daemon.port)", "http.threads": "\(configuration.threads)"])
        await onServerRunning(daemon.port)

        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.hangupWatch.run { self.isShuttingDown.load(ordering: .acquiring) } }
                for await context in pending {
                    group.addTask { await self.answer(context) }
                }
            }
        } onGracefulShutdown: {
            // No new connections; requests already read are answered before the daemon stops.
            self.isShuttingDown.store(true, ordering: .releasing)
            self.onShutdown()  // long-polls answer now instead of holding the shutdown
            self.pipeline.router.shutdown.trigger()  // so do event long-polls and streams,
            self.finishOpenStreams()  // whose bodies end once what is buffered is sent
            self.daemon.quiesce()
            self.pendingContinuation.finish()
        }
        await waitForAnswersToBeSent()
        daemon.stop()
        logger.info("Control plane stopped")
    }

    /// Waits (bounded) until every answered request has been handed to the client: stopping the daemon
    /// earlier would close connections whose answers are queued but not yet written.
    private func waitForAnswersToBeSent() async {
        let deadline = ContinuousClock.now + .seconds(configuration.shutdownGracePeriod)
        while liveRequests.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let left = liveRequests.load(ordering: .relaxed)
        if left > 0 { logger.warning("Stopping with requests still open", metadata: ["http.open_requests": "\(left)"]) }
    }

    /// Hands a suspended request to `run()`; false once the server is shutting down.
    func dispatch(_ context: RequestContext) -> Bool {
        if case .enqueued = pendingContinuation.yield(context) { return true }
        return false
    }

    /// Answers a suspended request, then resumes its connection so an MHD thread queues the answer. A
    /// streamed answer's producer then runs here, in the server's task group, until the stream ends.
    private func answer(_ context: RequestContext) async {
        let response: HTTPResponse
        if let route = context.route {
            response = await pipeline.respond(to: context.request, route: route)
        } else {
            response = Problem.internalError.response
        }
        context.response = response
        var stream: ResponseStream?
        if case .stream(let body) = response.body {
            stream = body
            context.stream = body  // before the resume: `completed` detaches it
            track(body)
        }
        if case .upgrade(let upgrade) = response.body { context.upgrade = upgrade }
        MHD_resume_connection(context.connection)
        await stream?.run()
    }

    /// Registers an open stream; one opened after shutdown began is finished at once.
    private func track(_ stream: ResponseStream) {
        openStreams.withLock { $0[ObjectIdentifier(stream)] = stream }
        if isShuttingDown.load(ordering: .acquiring) { stream.finish() }
    }

    /// Graceful shutdown: every open stream ends after its buffered bytes (a parked one is resumed),
    /// so no connection stays suspended when the daemon stops.
    private func finishOpenStreams() {
        for stream in openStreams.withLock({ Array($0.values) }) { stream.finish() }
    }

    /// An error met while reading a request (its spool file), as the client gets it.
    func problemResponse(for error: any Error, request: HTTPRequest) -> HTTPResponse {
        pipeline.errors.response(for: error, request: request)
    }
}
