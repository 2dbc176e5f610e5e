public import ControlPlane
import Curl
import EventDelivery
import Foundation
public import Logging
import ObjectStorage
import Prometheus
public import ServiceLifecycle
import SessionTasks
import TransferEngine
import TransferModels
import TransferStore
import UnixSignals

/// The composition root: opens the store, builds the control plane, and returns the services in start order.
public enum URLSessionService {
    /// The running parts, in the order `ServiceGroup` starts them (it stops them in reverse).
    public struct Parts: Sendable {
        public var services: [any Service]
        public var tokens: [String: Principal]
    }

    public static func build(configuration: ServiceConfiguration, logger: Logger) async throws -> Parts {
        FileDescriptorLimit.raise(logger: logger)
        let fileManager = FileManager.default
        let directories = [
            configuration.dataDirectory, configuration.blobDirectory, configuration.downloadsDirectory, configuration.cacheDirectory,
        ]
        for directory in directories {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let tokens = try await resolveTokens(configuration: configuration, logger: logger)
        let key = try SecretBox.loadKey(base64: configuration.secretKey, file: configuration.secretKeyFile)
        let store = try await openStore(configuration, secrets: SecretBox(key: key), logger: logger)
        try await store.sessions.warmSessionCache()
        _ = try await store.usage.allUsage()  // every tenant's usage in memory: blob uploads are stopped by it as they arrive
        try await DataDirectoryJanitor.removeOrphans(in: configuration, store: store, logger: logger)

        let registry = PrometheusCollectorRegistry()
        let metrics = HTTPMetrics(registry: registry)
        let dispatcher = WebhookDispatcher(
            store: store, configuration: eventDeliveryConfiguration(configuration),
            metricsFactory: eventMetricsFactory(registry), logger: logger)

        var configuration = configuration
        logger.info(
            "Egress policy: private, loopback, link-local and other special-purpose addresses are refused unless allowed",
            metadata: ["URLSESSIOND_EGRESS_ALLOW": "\(configuration.engine.egress.allowed.map(\.description).joined(separator: ","))"])
        try combineTrustStores(&configuration)
        var taskConfiguration = TaskService.Configuration()
        taskConfiguration.engine = configuration.engine
        taskConfiguration.trustDirectory = configuration.dataDirectory.appendingPathComponent("trust")
        taskConfiguration.engine.downloadsDirectory = configuration.downloadsDirectory
        taskConfiguration.blobDirectory = configuration.blobDirectory
        taskConfiguration.fileTimeToLive = configuration.fileTimeToLive
        taskConfiguration.retention = configuration.retention
        taskConfiguration.housekeepingInterval = configuration.housekeepingInterval
        taskConfiguration.cacheDirectory = configuration.cacheDirectory
        taskConfiguration.sharedCacheMemoryCapacity = configuration.sharedCacheMemoryCapacity
        taskConfiguration.sharedCacheDiskCapacity = configuration.sharedCacheDiskCapacity
        taskConfiguration.networkPaths = configuration.networkPaths
        if configuration.databaseURL != nil {
            let membership = ClusterMembership(nodeID: configuration.resolvedNodeID, lease: configuration.leaseSeconds)
            taskConfiguration.cluster = membership
            logger.info("Node of a cluster", metadata: ["node": "\(membership.nodeID)", "leaseSeconds": "\(membership.lease)"])
        }
        taskConfiguration.fileRoot = configuration.fileRoot
        (taskConfiguration.systemProxy, taskConfiguration.systemNoProxy) = (configuration.systemProxy, configuration.systemNoProxy)
        if let objectStore = configuration.objectStore {
            taskConfiguration.objectStore = ObjectStore(configuration: objectStore)
            logger.info("Finished downloads go to an object store", metadata: ["objectStore": "\(objectStore)"])  // no secret
        }
        // Decision events wait for the webhook's answer; no answer means the default handling.
        let tasks = try TaskService(
            store: store, configuration: taskConfiguration, decisions: dispatcher.decisions, locations: APIPaths(),
            logger: logger)

        NetworkMetrics.observe(tasks.networks, registry: registry)
        // The control plane's one door: it reaches the store and the engine only through these services.
        let application = ApplicationLayer(store: store, tasks: tasks)

        var http = configuration.http
        http.spoolDirectory = configuration.blobDirectory
        let router = APIRouter.make(
            application: application, allowedSchemes: Set(["http", "https"] + configuration.engine.extraProtocols),
            metrics: metrics,
            openAPIDocument: try OpenAPIDocument.load(), partsReady: { tasks.isReady && dispatcher.isRunning },
            metricsToken: configuration.http.metricsToken,
            maximumSessionConfigurationSize: configuration.http.maximumSessionConfigurationSize)
        let portFile = configuration.portFile
        let server = HTTPServer(
            configuration: http, router: router, authenticator: TokenAuthenticator(tokens: tokens), application: application,
            metrics: metrics, logger: logger,
            onServerRunning: { port in
                if let portFile { writePortFile(port, to: portFile, logger: logger) }
            },
            onShutdown: { tasks.releaseWaiters() })
        // Expired files, rows past their retention, freed pages.
        let housekeeping = Housekeeping(
            store: store, configuration: taskConfiguration, files: tasks.files, trustBundles: tasks.trustBundles, logger: logger)
        // Started in this order, stopped in reverse: the API first, the store last.
        // The session service writes its storages until after the task service has stopped.
        return Parts(
            services: [StoreService(store: store, logger: logger), housekeeping, tasks.sessions, tasks, dispatcher, server], tokens: tokens)
    }

    /// PostgreSQL when `URLSESSIOND_DATABASE_URL` names one, else the SQLite file in the data directory.
    static func openStore(_ configuration: ServiceConfiguration, secrets: SecretBox, logger: Logger) async throws -> TransferStore {
        guard let url = configuration.databaseURL else {
            return try TransferStore(path: configuration.databasePath, secrets: secrets, logger: logger, quotaLimits: configuration.quotas)
        }
        let store = try await TransferStore.open(postgresURL: url, secrets: secrets, logger: logger, quotaLimits: configuration.quotas)
        logger.info("Store on PostgreSQL", metadata: ["database": "\(PostgresURLError.redacted(url))"])
        return store
    }

    /// `URLSESSIOND_CA_FILE` adds authorities to the system store: libcurl gets one bundle of both,
    /// `<data>/trust/service.pem`, written at each start.
    static func combineTrustStores(_ configuration: inout ServiceConfiguration) throws {
        let directory = configuration.dataDirectory.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let extra = configuration.engine.certificateAuthorities else { return }
        let combined = directory.appendingPathComponent("service.pem").path
        try TrustBundle.write(extras: [try String(contentsOfFile: extra, encoding: .utf8)], to: combined)
        configuration.engine.certificateAuthorities = combined
    }

    /// Webhooks pass the same egress guard, and trust the same extra authorities, as transfers.
    static func eventDeliveryConfiguration(_ configuration: ServiceConfiguration) -> EventDeliveryConfiguration {
        var events = configuration.events
        events.egress = configuration.engine.egress
        events.certificateAuthorities = configuration.engine.certificateAuthorities
        // The node's name and lease, as its tasks' (a restarted node takes its sessions' lanes back at once).
        events.nodeID = configuration.resolvedNodeID
        events.leaseDuration = .milliseconds(Int64(configuration.leaseSeconds * 1000))
        return events
    }

    /// The dispatcher's metrics in the control plane's registry (so `/metrics` shows them), with buckets
    /// for delivery latencies from a millisecond to the hours a retried event can take.
    static func eventMetricsFactory(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(1),
            .seconds(5), .seconds(30), .seconds(300), .seconds(1800), .seconds(7200), .seconds(86400),
        ]
        return factory
    }

    /// Runs every part until SIGTERM or SIGINT, then shuts them down in reverse order.
    public static func run(configuration: ServiceConfiguration, logger: Logger) async throws {
        let parts = try await build(configuration: configuration, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: parts.services.map { .init(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
    }

    /// The configured tokens; with none, the admin token kept in `<data>/token` (made on first start).
    static func resolveTokens(configuration: ServiceConfiguration, logger: Logger) async throws -> [String: Principal] {
        guard configuration.tokens.isEmpty else { return configuration.tokens }
        guard !configuration.requireTokens else {
            throw ConfigurationError(setting: "URLSESSIOND_TOKENS", detail: "no token configured, and this deployment requires them")
        }
        let file = configuration.tokenFile
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw ConfigurationError(setting: file.path, detail: "the token file is empty") }
            logger.info("Using the generated admin token", metadata: ["token.file": "\(file.path)", "tenant": "default"])
            return [token: Principal(tenant: "default", role: .admin)]
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token =
            "usd_"
            + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        try FileCreation.writeExclusive(Data((token + "\n").utf8), to: file, mode: 0o600)
        logger.info("No token configured: generated an admin token", metadata: ["token.file": "\(file.path)", "tenant": "default"])
        return [token: Principal(tenant: "default", role: .admin)]
    }

    /// Writes the bound port atomically (temporary file, then rename) for whoever started us with port 0.
    static func writePortFile(_ port: UInt16, to url: URL, logger: Logger) {
        let temporary = url.appendingPathExtension("tmp")
        do {
            try Data("\(port)\n".utf8).write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            logger.error("Could not write the port file", metadata: ["file": "\(url.path)", "error": "\(error)"])
        }
    }
}
