public import Foundation

/// How the HTTP control plane listens and what it tolerates from clients.
public struct ControlPlaneConfiguration: Sendable {
    /// Address to bind (`URLSESSIOND_HOST`); an IP address or `localhost`.
    public var host = "127.0.0.1"
    /// Port to bind (`URLSESSIOND_PORT`); 0 lets the OS choose.
    public var port: UInt16 = 8080
    /// MHD worker threads, each with its own epoll loop.
    public var threads = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Open connections at most; more are refused at accept.
    public var connectionLimit = 10_000
    /// Open connections per client address at most (0: no limit; `URLSESSIOND_MAX_CONNECTIONS_PER_IP`), so
    /// one client cannot take every connection from the others.
    public var perIPConnectionLimit = 256
    /// Seconds an idle connection is kept (slow clients cannot pin connections forever).
    public var idleTimeout = 60
    /// Bytes of a request's header fields at most (431 past it, as problem+json). The HTTP server's memory
    /// per connection is four times this, so heads up to that reach the service and get its problem; only
    /// larger ones get libmicrohttpd's own short HTML answer.
    public var headerMemoryLimit = 32 * 1024
    /// Bytes of a request's path and query at most (414 past it, as problem+json).
    public var maximumURILength = 16 * 1024
    /// Seconds graceful shutdown waits for open requests (slow uploads included) before closing them.
    public var shutdownGracePeriod = 10
    /// Largest JSON body accepted (413 past it).
    public var maximumJSONBodySize: Int64 = 1 << 20
    /// Largest blob accepted by `POST /v1/blobs` (413 past it).
    public var maximumBlobSize: Int64 = 1 << 32
    /// Bytes of a session's `configuration` JSON at most (`URLSESSIOND_MAX_SESSION_CONFIGURATION`; 413 past it).
    public var maximumSessionConfigurationSize = 64 * 1024
    /// `URLSESSIOND_METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <it>` (401
    /// otherwise); nil: `/metrics` is open, as `/healthz` is.
    public var metricsToken: String?
    /// Where spooled uploads are written before a handler claims them (same file system as blobs).
    public var spoolDirectory: URL = URL(fileURLWithPath: "./data/blobs")

    public init() {}
}
