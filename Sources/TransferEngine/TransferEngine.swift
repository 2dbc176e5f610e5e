import Curl
import Foundation
public import Logging
public import ServiceLifecycle
public import TransferModels

/// Runs transfers with libcurl's multi interface on a dedicated loop thread, and reports what happens
/// to a `TransferObserver`. A `Service`: it stops after the control plane, aborting what still runs.
public final class TransferEngine: Service, Sendable {
    private let loop: CurlMultiLoop<TransferScheduler>
    /// WebSocket and stream jobs run here, on a loop of their own (`WebSocketLoop`).
    private let webSockets: WebSocketLoop
    private let logger: Logger
    /// The scheduler's count of running and queued transfers (`load`).
    private let schedulerLoad: LockedBox<(running: Int, queued: Int)>
    private let bandwidthReadings: LockedBox<BandwidthReadings>

    public init(configuration: EngineConfiguration, observer: any TransferObserver, logger: Logger) throws {
        let scheduler = TransferScheduler(configuration: configuration, observer: observer)
        self.schedulerLoad = scheduler.load
        self.bandwidthReadings = scheduler.bandwidth.published
        self.loop = try CurlMultiLoop(name: "urlsessiond-engine", driver: scheduler, logger: logger) { multi throws(CurlError) in
            try multi.setMaximumTotalConnections(0)
            try multi.setMaximumCachedConnections(configuration.maximumCachedConnections)
        }
        self.logger = logger
        // A stream's TLS writes with OpenSSL's socket BIO (`write`), which raises SIGPIPE on a connection the
        // peer reset; libcurl and MHD avoid it per call (MSG_NOSIGNAL), OpenSSL cannot: the process ignores it.
        signal(SIGPIPE, SIG_IGN)
        self.webSockets = WebSocketLoop(configuration: configuration, observer: observer, logger: logger)
        webSockets.start()
        scheduler.sendToLoop = { [weak loop] command in loop?.send(command) }
        loop.start()
    }

    /// The bandwidth limits in force, each running task's share and rate (`/metrics`, the task's `rateLimit`).
    public var bandwidth: BandwidthReadings { bandwidthReadings.withLock { $0 } }

    /// `PATCH /v1/tasks/{id}`: the transfer `id` (running or queued) runs under this `rateLimit` now.
    public func setRateLimit(_ id: TransferID, _ limit: RateLimit?) {
        loop.send(.setRateLimit(id, limit))
    }

    /// Transfers holding a slot and jobs waiting for one, as of the loop's last turn (`/metrics`).
    /// WebSocket and stream connections are not transfers here.
    public var load: (running: Int, queued: Int) { schedulerLoad.withLock { $0 } }

    /// Whether the engine's loop thread runs (for readiness).
    public var isRunning: Bool { loop.isRunning }

    /// Queues a transfer; it starts when a slot is free, by priority.
    public func start(_ job: TransferJob) {
        if job.kind == .webSocket || job.kind == .stream { return webSockets.send(.start(job)) }
        loop.send(.start(job))
    }

    /// Aborts a queued or running transfer; its observer hears `cancelled`. A WebSocket connection sends a
    /// going-away close frame first (unless `closeWebSocket` began a close handshake, which then ends it).
    public func cancel(_ id: TransferID) {
        loop.send(.cancel(id))
        webSockets.send(.cancel(id))  // ids are unique across both loops: the one that does not know it ignores it
    }

    /// `cancel(with:reason:)` of a WebSocket job: the close handshake; the peer's close frame ends it.
    public func closeWebSocket(_ id: TransferID, code: Int, reason: String) {
        webSockets.send(.close(id, WebSocketClose(code: code, reason: reason)))
    }

    /// Answers `asksToRedirect` for the transfer `id`.
    public func resolveRedirect(_ id: TransferID, _ disposition: RedirectDisposition) {
        loop.send(.redirect(id, disposition))
    }

    /// Answers `asksAbout` (the response) for the transfer `id`.
    public func resolveResponse(_ id: TransferID, _ disposition: ResponseDisposition) {
        loop.send(.response(id, disposition))
    }

    /// Answers `asksAbout` (a challenge) for the transfer `id`.
    public func resolveChallenge(_ id: TransferID, _ disposition: ChallengeDisposition) {
        loop.send(.challenge(id, disposition))
    }

    /// Closes the session's connections (`reset`: all of them — running transfers keep theirs until they
    /// end; `flush`: only when none of its transfers runs, i.e. all its connections are idle). Its next
    /// transfer opens new ones.
    public func closeConnections(ofSession sessionId: String, idleOnly: Bool) {
        loop.send(.closeConnections(sessionId: sessionId, idleOnly: idleOnly))
    }

    /// The session is being invalidated: its connections close as soon as none of its transfers runs or
    /// waits, as URLSession tears an invalidated session's connections down.
    public func sessionInvalidated(_ sessionId: String) {
        loop.send(.sessionInvalidated(sessionId))
    }

    /// The network path `name` went down: its transfers end with -1005 (`networkConnectionLost`), jobs
    /// queued for it with -1009, and its connections close.
    public func pathLost(_ name: String) {
        loop.send(.pathLost(name))
        webSockets.send(.pathLost(name))
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Aborts every transfer and waits for the loop thread to release its handles.
    public func shutdown() async {
        await webSockets.stop()
        await loop.stop(with: .stop)
        logger.info("Transfer engine stopped")
    }
}
