import ArgumentParser
import CommandLineClient
import Foundation
import Logging
import URLSessionService

@main
struct Urlsessiond: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "urlsessiond",
        abstract: "Apple's URLSession as a service: sessions and tasks over a JSON API, transfers by libcurl.",
        version: ServiceVersion.description,
        // `serve` runs the service; `get`, `tasks` and `watch` are its clients, against a running one.
        subcommands: [Serve.self, GetCommand.self, TasksCommand.self, WatchCommand.self],
        defaultSubcommand: Serve.self)
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the service. Every flag can also be set with the URLSESSIOND_* variable named in its help.")

    @Option(help: "Address to bind (URLSESSIOND_HOST, default 127.0.0.1).") var host: String?
    @Option(help: "Port to bind, 0 for any (URLSESSIOND_PORT, default 8080).") var port: Int?
    @Option(name: .customLong("data-dir"), help: "Data directory (URLSESSIOND_DATA_DIR, default ./data).") var dataDirectory: String?
    @Option(name: .customLong("token"), help: "token:tenant:role; repeatable (URLSESSIOND_TOKENS, comma-separated).") var tokens: [String] =
        []
    @Option(name: .customLong("log-level"), help: "trace|debug|info|notice|warning|error|critical (URLSESSIOND_LOG_LEVEL, default info).")
    var logLevel: String?
    @Option(name: .customLong("log-format"), help: "text|json: one JSON object per log line (URLSESSIOND_LOG_FORMAT, default text).")
    var logFormat: String?
    @Option(name: .customLong("port-file"), help: "Write the bound port here once listening (URLSESSIOND_PORT_FILE).") var portFile: String?
    @Option(name: .customLong("http-threads"), help: "HTTP worker threads (URLSESSIOND_HTTP_THREADS, default: cores, at least 2).")
    var httpThreads: Int?
    @Option(name: .customLong("max-connections"), help: "Open API connections at most (URLSESSIOND_MAX_CONNECTIONS, default 10000).")
    var maxConnections: Int?
    @Option(name: .customLong("idle-timeout"), help: "Seconds an idle API connection is kept (URLSESSIOND_IDLE_TIMEOUT, default 60).")
    var idleTimeout: Int?
    @Option(name: .customLong("max-json-body"), help: "Largest JSON body in bytes (URLSESSIOND_MAX_JSON_BODY, default 1048576).")
    var maxJSONBody: Int64?
    @Option(name: .customLong("max-blob-size"), help: "Largest blob in bytes (URLSESSIOND_MAX_BLOB_SIZE, default 4294967296).")
    var maxBlobSize: Int64?
    @Option(name: .customLong("egress-allow"), help: "CIDRs transfers may reach besides public addresses (URLSESSIOND_EGRESS_ALLOW).")
    var egressAllow: String?
    @Option(name: .customLong("max-transfers"), help: "Transfers running at once (URLSESSIOND_MAX_TRANSFERS, default 64).")
    var maxTransfers: Int?
    @Option(
        name: .customLong("tenant-max-transfers"),
        help: "Transfers one tenant may run at once (URLSESSIOND_TENANT_MAX_TRANSFERS, default half of --max-transfers).")
    var tenantMaxTransfers: Int?
    @Option(
        name: .customLong("webhook-retry-schedule"),
        help:
            "Seconds between webhook attempts, comma-separated (URLSESSIOND_WEBHOOK_RETRY_SCHEDULE, default 5,300,1800,7200,18000,36000,50400,72000,86400)."
    ) var webhookRetrySchedule: String?
    @Option(name: .customLong("webhook-timeout"), help: "Seconds one webhook POST may take (URLSESSIOND_WEBHOOK_TIMEOUT, default 15).")
    var webhookTimeout: Double?
    @Option(
        name: .customLong("network"),
        help:
            "A network path, NAME:interface=IF|address=IP[,type=wiredEthernet|wifi|cellular|other][,expensive][,constrained][,proxy=URL][,preference=N]; repeatable (URLSESSIOND_NETWORKS, ;-separated)."
    ) var networks: [String] = []
    @Option(name: .customLong("proxy"), help: "The system proxy sessions use by default (URLSESSIOND_PROXY).") var proxy: String?
    @Option(name: .customLong("no-proxy"), help: "Hosts the system proxy does not apply to, comma-separated (URLSESSIOND_NO_PROXY).")
    var noProxy: String?
    @Option(
        name: .customLong("metrics-token"),
        help: "Bearer token GET /metrics then requires, 16+ characters (URLSESSIOND_METRICS_TOKEN; default: /metrics is open).")
    var metricsToken: String?
    @Option(name: .customLong("quota-sessions"), help: "Sessions per tenant, 0: no limit (URLSESSIOND_QUOTA_SESSIONS, default 1000).")
    var quotaSessions: Int64?
    @Option(name: .customLong("quota-tasks"), help: "Tasks not completed per tenant, 0: no limit (URLSESSIOND_QUOTA_TASKS, default 10000).")
    var quotaTasks: Int64?
    @Option(
        name: .customLong("quota-blob-bytes"),
        help: "Blob bytes per tenant, 0: no limit (URLSESSIOND_QUOTA_BLOB_BYTES, default 10737418240).")
    var quotaBlobBytes: Int64?
    @Option(name: .customLong("quota-blob-count"), help: "Blobs per tenant, 0: no limit (URLSESSIOND_QUOTA_BLOB_COUNT, default 10000).")
    var quotaBlobCount: Int64?
    @Option(
        name: .customLong("quota-stored-bytes"),
        help:
            "Bytes of kept downloads, bodies and disk caches per tenant, 0: no limit (URLSESSIOND_QUOTA_STORED_BYTES, default 107374182400)."
    )
    var quotaStoredBytes: Int64?
    @Option(
        name: .customLong("quota-streams"),
        help: "Event streams and long-polls open at once per tenant, 0: no limit (URLSESSIOND_QUOTA_STREAMS, default 100).")
    var quotaStreams: Int64?
    @Option(
        name: .customLong("max-download-size"),
        help: "Largest response body a task receives, 0: no limit (URLSESSIOND_MAX_DOWNLOAD_SIZE, default 17179869184).")
    var maxDownloadSize: Int64?
    @Option(
        name: .customLong("rate-limit"),
        help:
            #"The whole service's bandwidth limit, shared fairly by every transfer, as rateLimit JSON: {"receiveBytesPerSecond":N,"sendBytesPerSecond":N} or a timetable {"schedule":[{"from":"08:00","to":"18:00","receiveBytesPerSecond":N}],"timeZone":"Europe/Paris"} (URLSESSIOND_RATE_LIMIT, default none)."#
    )
    var rateLimit: String?
    @Option(
        name: .customLong("tenant-rate-limit"),
        help:
            "Each tenant's bandwidth limit, shared fairly by its transfers, as rateLimit JSON (URLSESSIOND_TENANT_RATE_LIMIT, default none)."
    )
    var tenantRateLimit: String?
    @Option(
        name: .customLong("max-session-configuration"),
        help: "Largest session configuration JSON in bytes (URLSESSIOND_MAX_SESSION_CONFIGURATION, default 65536).")
    var maxSessionConfiguration: Int?
    @Option(
        name: .customLong("max-connections-per-ip"),
        help: "Open API connections per client address, 0: no limit (URLSESSIOND_MAX_CONNECTIONS_PER_IP, default 256).")
    var maxConnectionsPerIP: Int?
    @Option(
        name: .customLong("event-retention"),
        help: "Seconds a delivered event is kept after its delivery (URLSESSIOND_EVENT_RETENTION, default 604800).")
    var eventRetention: Int?
    @Option(
        name: .customLong("task-retention"),
        help: "Seconds a finished task, its events and files are kept after completion (URLSESSIOND_TASK_RETENTION, default 2592000).")
    var taskRetention: Int?
    @Option(
        name: .customLong("session-retention"),
        help: "Seconds an invalidated session is kept after invalidation (URLSESSIOND_SESSION_RETENTION, default 604800).")
    var sessionRetention: Int?
    @Option(
        name: .customLong("housekeeping-interval"),
        help: "Seconds between removals of expired files and rows past retention (URLSESSIOND_HOUSEKEEPING_INTERVAL, default 60).")
    var housekeepingInterval: Int?
    @Flag(name: .customLong("require-tokens"), help: "Refuse to start without configured tokens (URLSESSIOND_REQUIRE_TOKENS=1).")
    var requireTokens = false

    func run() async throws {
        var flags = ServiceConfiguration.Overrides(
            host: host, port: port, dataDirectory: dataDirectory, tokens: tokens.isEmpty ? nil : tokens.joined(separator: ","),
            logLevel: logLevel, portFile: portFile, httpThreads: httpThreads, maxConnections: maxConnections,
            idleTimeout: idleTimeout, maxJSONBody: maxJSONBody, maxBlobSize: maxBlobSize, requireTokens: requireTokens ? true : nil)
        flags.logFormat = logFormat
        flags.egressAllow = egressAllow
        flags.maxTransfers = maxTransfers
        flags.tenantMaxTransfers = tenantMaxTransfers
        flags.webhookRetrySchedule = webhookRetrySchedule
        flags.webhookTimeout = webhookTimeout
        (flags.networks, flags.proxy, flags.noProxy) = (networks, proxy, noProxy)
        flags.metricsToken = metricsToken
        flags.setQuotas(
            sessions: quotaSessions, tasks: quotaTasks, blobBytes: quotaBlobBytes, blobCount: quotaBlobCount,
            storedBytes: quotaStoredBytes, streams: quotaStreams)
        (flags.maxDownloadSize, flags.maxSessionConfiguration) = (maxDownloadSize, maxSessionConfiguration)
        (flags.rateLimit, flags.tenantRateLimit) = (rateLimit, tenantRateLimit)
        flags.maxConnectionsPerIP = maxConnectionsPerIP
        (flags.eventRetention, flags.taskRetention, flags.sessionRetention) = (eventRetention, taskRetention, sessionRetention)
        flags.housekeepingInterval = housekeepingInterval
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration(overrides: flags, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("\(error)")
        }
        let (level, format) = (configuration.logLevel, configuration.logFormat)
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
        let logger = Logger(label: "urlsessiond")
        do {
            try await URLSessionService.run(configuration: configuration, logger: logger)
        } catch {
            logger.critical("urlsessiond stopped with an error", metadata: ["error": "\(error)"])
            throw ExitCode.failure
        }
    }
}
