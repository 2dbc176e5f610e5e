import ControlPlane
import Curl
import EventDelivery
import Foundation
import Logging
import NetworkPaths
import ObjectStorage
import TransferEngine
public import TransferModels

extension ServiceConfiguration {
    /// Values given as command-line flags; each wins over its `URLSESSIOND_*` variable.
    public struct Overrides: Sendable {
        public var host: String?
        public var port: Int?
        public var dataDirectory: String?
        public var tokens: String?
        public var logLevel: String?
        /// `--log-format`: `text` or `json`.
        public var logFormat: String?
        public var portFile: String?
        public var httpThreads: Int?
        public var maxConnections: Int?
        public var idleTimeout: Int?
        public var maxJSONBody: Int64?
        public var maxBlobSize: Int64?
        public var requireTokens: Bool?
        public var egressAllow: String?
        public var maxTransfers: Int?
        public var tenantMaxTransfers: Int?
        public var webhookRetrySchedule: String?
        public var webhookTimeout: Double?
        /// `--network`, repeatable; any replaces `URLSESSIOND_NETWORKS`.
        public var networks: [String] = []
        public var proxy: String?
        public var noProxy: String?
        /// `--metrics-token`: the bearer token `GET /metrics` then requires.
        public var metricsToken: String?
        /// `--quota-sessions`, `--quota-tasks`, … (`ServiceConfiguration.quotaSetting`).
        public var quotas: [Quota: Int64] = [:]
        public var maxDownloadSize: Int64?
        /// `--rate-limit`, `--tenant-rate-limit`: bandwidth limits as `rateLimit` JSON.
        public var rateLimit: String?
        public var tenantRateLimit: String?
        public var maxSessionConfiguration: Int?
        public var maxConnectionsPerIP: Int?
        /// `--event-retention`, `--task-retention`, `--session-retention`, `--housekeeping-interval` (seconds).
        public var eventRetention: Int?
        public var taskRetention: Int?
        public var sessionRetention: Int?
        public var housekeepingInterval: Int?

        public init(
            host: String? = nil, port: Int? = nil, dataDirectory: String? = nil, tokens: String? = nil,
            logLevel: String? = nil, portFile: String? = nil, httpThreads: Int? = nil, maxConnections: Int? = nil,
            idleTimeout: Int? = nil, maxJSONBody: Int64? = nil, maxBlobSize: Int64? = nil, requireTokens: Bool? = nil
        ) {
            self.host = host
            self.port = port
            self.dataDirectory = dataDirectory
            self.tokens = tokens
            self.logLevel = logLevel
            self.portFile = portFile
            self.httpThreads = httpThreads
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
            self.maxJSONBody = maxJSONBody
            self.maxBlobSize = maxBlobSize
            self.requireTokens = requireTokens
        }
    }

    /// The configuration from flags, then `URLSESSIOND_*` variables, then defaults.
    public init(overrides: Overrides, environment: [String: String]) throws {
        self.init()
        let env = Environment(values: environment)
        http.host = overrides.host ?? env["URLSESSIOND_HOST"] ?? http.host
        let port = try overrides.port ?? env.integer("URLSESSIOND_PORT") ?? Int(http.port)
        guard (0...65535).contains(port) else { throw ConfigurationError(setting: "URLSESSIOND_PORT", detail: "must be 0...65535") }
        http.port = UInt16(port)
        if let directory = overrides.dataDirectory ?? env["URLSESSIOND_DATA_DIR"] {
            dataDirectory = URL(fileURLWithPath: directory)
        }
        if let url = env["URLSESSIOND_DATABASE_URL"], !url.isEmpty {
            guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
                throw ConfigurationError(
                    setting: "URLSESSIOND_DATABASE_URL", detail: "expected postgres://user:password@host:port/database")
            }
            databaseURL = url
        }
        if let url = env["URLSESSIOND_OBJECT_STORE_URL"], !url.isEmpty {
            do {
                objectStore = try ObjectStoreConfiguration(
                    url: url, accessKeyId: env["AWS_ACCESS_KEY_ID"], secretAccessKey: env["AWS_SECRET_ACCESS_KEY"])
            } catch {
                throw ConfigurationError(setting: "URLSESSIOND_OBJECT_STORE_URL", detail: error.detail)
            }
        }
        nodeID = env["URLSESSIOND_NODE_ID"]
        if let seconds = try env.seconds("URLSESSIOND_LEASE_SECONDS") {
            guard (2...3600).contains(seconds) else {
                throw ConfigurationError(setting: "URLSESSIOND_LEASE_SECONDS", detail: "must be 2...3600 seconds")
            }
            leaseSeconds = seconds
        }
        if let text = overrides.tokens ?? env["URLSESSIOND_TOKENS"] {
            tokens = try Self.parseTokens(text)
        }
        if let token = overrides.metricsToken ?? env["URLSESSIOND_METRICS_TOKEN"] {
            http.metricsToken = try Self.checkMetricsToken(token)
        }
        requireTokens = try overrides.requireTokens ?? env.boolean("URLSESSIOND_REQUIRE_TOKENS") ?? false
        secretKey = env["URLSESSIOND_SECRET_KEY"]
        if let text = overrides.logLevel ?? env["URLSESSIOND_LOG_LEVEL"] {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ConfigurationError(
                    setting: "URLSESSIOND_LOG_LEVEL", detail: "must be trace, debug, info, notice, warning, error or critical")
            }
            logLevel = level
        }
        if let text = overrides.logFormat ?? env["URLSESSIOND_LOG_FORMAT"] {
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw ConfigurationError(setting: "URLSESSIOND_LOG_FORMAT", detail: "must be text or json")
            }
            logFormat = format
        }
        if let path = overrides.portFile ?? env["URLSESSIOND_PORT_FILE"] { portFile = URL(fileURLWithPath: path) }
        http.threads =
            try positive(overrides.httpThreads ?? env.integer("URLSESSIOND_HTTP_THREADS"), "URLSESSIOND_HTTP_THREADS", max: 256)
            ?? http.threads
        http.connectionLimit =
            try positive(
                overrides.maxConnections ?? env.integer("URLSESSIOND_MAX_CONNECTIONS"), "URLSESSIOND_MAX_CONNECTIONS", max: 1_000_000)
            ?? http.connectionLimit
        http.idleTimeout =
            try positive(overrides.idleTimeout ?? env.integer("URLSESSIOND_IDLE_TIMEOUT"), "URLSESSIOND_IDLE_TIMEOUT", max: 86_400)
            ?? http.idleTimeout
        if let value = try overrides.maxJSONBody ?? env.integer("URLSESSIOND_MAX_JSON_BODY").map(Int64.init) {
            guard value > 0 else { throw ConfigurationError(setting: "URLSESSIOND_MAX_JSON_BODY", detail: "must be > 0") }
            http.maximumJSONBodySize = value
        }
        if let text = overrides.egressAllow ?? env["URLSESSIOND_EGRESS_ALLOW"] {
            switch EgressPolicy.parseAllowList(text) {
            case .success(let ranges): engine.egress = EgressPolicy(allowed: ranges)
            case .failure(let error): throw ConfigurationError(setting: "URLSESSIOND_EGRESS_ALLOW", detail: error.description)
            }
        }
        engine.maximumConcurrentTransfers =
            try positive(
                overrides.maxTransfers ?? env.integer("URLSESSIOND_MAX_TRANSFERS"), "URLSESSIOND_MAX_TRANSFERS", max: 10_000)
            ?? engine.maximumConcurrentTransfers
        engine.maximumTransfersPerTenant = try positive(
            overrides.tenantMaxTransfers ?? env.integer("URLSESSIOND_TENANT_MAX_TRANSFERS"), "URLSESSIOND_TENANT_MAX_TRANSFERS",
            max: 10_000)
        try configureProtocols(env)
        if let path = env["URLSESSIOND_CA_FILE"] {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw ConfigurationError(setting: "URLSESSIOND_CA_FILE", detail: "\(path) is not a readable file")
            }
            engine.certificateAuthorities = path
        }
        if let ttl = try env.integer("URLSESSIOND_FILE_TTL") {
            guard ttl > 0 else { throw ConfigurationError(setting: "URLSESSIOND_FILE_TTL", detail: "must be > 0") }
            fileTimeToLive = Double(ttl)
        }
        for (name, limit) in [("URLSESSIOND_SHARED_CACHE_MEMORY", 1 << 30), ("URLSESSIOND_SHARED_CACHE_DISK", 1 << 40)] {
            guard let value = try env.integer(name) else { continue }
            guard (0...limit).contains(value) else { throw ConfigurationError(setting: name, detail: "must be bytes in 0...\(limit)") }
            if name.hasSuffix("MEMORY") { sharedCacheMemoryCapacity = value } else { sharedCacheDiskCapacity = value }
        }
        if let text = overrides.webhookRetrySchedule ?? env["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE"] {
            guard let schedule = RetryPolicy.parseSchedule(text) else {
                throw ConfigurationError(
                    setting: "URLSESSIOND_WEBHOOK_RETRY_SCHEDULE",
                    detail: "must be comma-separated seconds between attempts, each 0...604800 (e.g. 5,300,1800)")
            }
            events.retryPolicy.schedule = schedule
        }
        if let timeout = try overrides.webhookTimeout ?? env.seconds("URLSESSIOND_WEBHOOK_TIMEOUT") {
            guard timeout > 0, timeout <= 300 else {
                throw ConfigurationError(setting: "URLSESSIOND_WEBHOOK_TIMEOUT", detail: "must be seconds in (0, 300]")
            }
            events.timeout = timeout
        }
        events.maximumConcurrentDeliveries =
            try positive(env.integer("URLSESSIOND_WEBHOOK_CONCURRENCY"), "URLSESSIOND_WEBHOOK_CONCURRENCY", max: 10_000)
            ?? events.maximumConcurrentDeliveries
        events.maximumConcurrentDeliveriesPerTenant = try positive(
            env.integer("URLSESSIOND_WEBHOOK_TENANT_CONCURRENCY"), "URLSESSIOND_WEBHOOK_TENANT_CONCURRENCY", max: 10_000)
        try configureNetworks(overrides, env)
        try configureBounds(overrides, env)
        try configureRateLimits(overrides, env)
        try configureRetention(overrides, env)
        if let value = try overrides.maxBlobSize ?? env.integer("URLSESSIOND_MAX_BLOB_SIZE").map(Int64.init) {
            guard value > 0 else { throw ConfigurationError(setting: "URLSESSIOND_MAX_BLOB_SIZE", detail: "must be > 0") }
            http.maximumBlobSize = value
        }
    }

    /// The network paths and the system proxy.
    private mutating func configureNetworks(_ overrides: Overrides, _ env: Environment) throws {
        do {
            if !overrides.networks.isEmpty {
                networkPaths = try overrides.networks.enumerated().map { try NetworkPath.parse($1, position: $0) }
                let names = networkPaths.map(\.name)
                guard Set(names).count == names.count else {
                    throw ConfigurationError(setting: "--network", detail: "two paths have the same name")
                }
            } else if let text = env["URLSESSIOND_NETWORKS"] {
                networkPaths = try NetworkPath.parseList(text)
            }
        } catch let error as NetworkPathError {
            throw ConfigurationError(setting: "URLSESSIOND_NETWORKS", detail: error.description)
        }
        if let proxy = overrides.proxy ?? env["URLSESSIOND_PROXY"] {
            guard let url = URLComponents(string: proxy), url.host?.isEmpty == false,
                ["http", "https", "socks4", "socks4a", "socks5", "socks5h"].contains(url.scheme?.lowercased() ?? "")
            else {
                throw ConfigurationError(
                    setting: "URLSESSIOND_PROXY",
                    detail: "must be a proxy URL: http, https, socks4, socks4a, socks5 or socks5h, with a host")
            }
            systemProxy = proxy
        }
        systemNoProxy = overrides.noProxy ?? env["URLSESSIOND_NO_PROXY"]
    }

    private func positive(_ value: Int?, _ setting: String, max: Int) throws -> Int? {
        guard let value else { return nil }
        guard (1...max).contains(value) else { throw ConfigurationError(setting: setting, detail: "must be 1...\(max)") }
        return value
    }
}

/// `URLSESSIOND_*` variables, typed.
struct Environment {
    let values: [String: String]

    subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    func integer(_ name: String) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text) else { throw ConfigurationError(setting: name, detail: "must be an integer") }
        return value
    }

    func seconds(_ name: String) throws -> Double? {
        guard let text = self[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw ConfigurationError(setting: name, detail: "must be a number of seconds")
        }
        return value
    }

    func boolean(_ name: String) throws -> Bool? {
        guard let text = self[name]?.lowercased() else { return nil }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError(setting: name, detail: "must be true or false")
        }
    }
}
