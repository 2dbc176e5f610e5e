public import ControlPlane
import Crypto
public import EventDelivery
public import Foundation
public import Logging
public import NetworkPaths
public import ObjectStorage
public import SessionTasks
public import TransferEngine
public import TransferModels
public import TransferStore

/// Everything an operator can set, with the defaults of `urlsessiond serve`.
public struct ServiceConfiguration: Sendable {
    /// `URLSESSIOND_DATA_DIR`: the SQLite file, downloads, blobs, cache, keys.
    public var dataDirectory = URL(fileURLWithPath: "./data")
    /// `URLSESSIOND_DATABASE_URL`: `postgres://user:password@host:port/database`, a PostgreSQL database that
    /// several nodes share; absent: the SQLite file in the data directory. An environment variable only, never
    /// a flag: a flag's password would show in `ps`.
    public var databaseURL: String?
    /// `URLSESSIOND_OBJECT_STORE_URL` (`s3://bucket[/prefix]?endpoint=http://host:port[&region=…]`) with
    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`: an S3-compatible object store finished downloads
    /// are put into, so every node serves them; absent: they stay in the data directory. Environment only:
    /// the secret must not show in `ps`, and is never logged.
    public var objectStore: ObjectStoreConfiguration?
    /// `URLSESSIOND_NODE_ID`: this node's name among those sharing the PostgreSQL database; unique, and the
    /// same after a restart. Default: the host name and a digest of the data directory's path.
    public var nodeID: String?
    /// `URLSESSIOND_LEASE_SECONDS`: how long a silent node keeps its tasks before others take them over.
    public var leaseSeconds: Double = 15
    /// `URLSESSIOND_TOKENS`: `token:tenant:role,...`. Empty: an admin token is generated into `<data>/token`.
    public var tokens: [String: Principal] = [:]
    /// `URLSESSIOND_REQUIRE_TOKENS`: refuse to start without configured tokens (containers set it).
    public var requireTokens = false
    /// `URLSESSIOND_SECRET_KEY`: base64 of 32 bytes sealing secrets at rest; else `<data>/secret.key`.
    public var secretKey: String?
    /// `URLSESSIOND_LOG_LEVEL`.
    public var logLevel: Logger.Level = .info
    /// `URLSESSIOND_LOG_FORMAT`: `text` (swift-log's lines) or `json` (one object per line).
    public var logFormat: LogFormat = .text

    public enum LogFormat: String, Sendable { case text, json }
    /// `URLSESSIOND_PORT_FILE`: where to write the bound port once listening (for port 0).
    public var portFile: URL?
    public var http = ControlPlaneConfiguration()
    /// `URLSESSIOND_MAX_TRANSFERS`, `URLSESSIOND_EGRESS_ALLOW`, `URLSESSIOND_EXTRA_PROTOCOLS` (`ftp`, `ftps`,
    /// `file`, each only when the linked libcurl lists it).
    public var engine = EngineConfiguration()
    /// `URLSESSIOND_FILE_ROOT`: the directory `file:` URLs may read from; required when `file` is enabled.
    public var fileRoot: FileRoot?
    /// `URLSESSIOND_WEBHOOK_RETRY_SCHEDULE`, `URLSESSIOND_WEBHOOK_TIMEOUT`; egress and CAs follow `engine`.
    public var events = EventDeliveryConfiguration()
    /// `URLSESSIOND_FILE_TTL`: seconds a finished download or body is kept unless deleted.
    public var fileTimeToLive: Double = 24 * 3600
    /// `URLSESSIOND_EVENT_RETENTION`, `URLSESSIOND_TASK_RETENTION`, `URLSESSIOND_SESSION_RETENTION`:
    /// seconds delivered events, finished tasks and invalidated sessions are kept.
    public var retention = RetentionPolicy()
    /// `URLSESSIOND_HOUSEKEEPING_INTERVAL`: seconds between passes that remove expired files and rows
    /// past their retention.
    public var housekeepingInterval: Double = 60
    /// `URLSESSIOND_SHARED_CACHE_MEMORY`, `URLSESSIOND_SHARED_CACHE_DISK`: bytes of each tenant's shared
    /// `URLCache` (default `URLCache.shared`'s: 512,000 in memory, 10,000,000 on disk).
    public var sharedCacheMemoryCapacity = 512_000
    public var sharedCacheDiskCapacity = 10_000_000
    /// `URLSESSIOND_NETWORKS` / `--network`: the host's network paths (empty: the default route alone).
    public var networkPaths: [NetworkPath] = []
    /// `URLSESSIOND_PROXY`: the system proxy sessions use unless their `connectionProxyDictionary` (or
    /// their path's own proxy) says otherwise; `URLSESSIOND_NO_PROXY`: the hosts it does not apply to.
    public var systemProxy: String?
    public var systemNoProxy: String?
    /// `URLSESSIOND_QUOTA_*`: what each tenant may hold (0: no limit).
    public var quotas = QuotaLimits()

    public init() {}

    public var databasePath: String { dataDirectory.appendingPathComponent("urlsessiond.sqlite").path }
    public var blobDirectory: URL { dataDirectory.appendingPathComponent("blobs") }
    public var downloadsDirectory: URL { dataDirectory.appendingPathComponent("downloads") }
    public var cacheDirectory: URL { dataDirectory.appendingPathComponent("cache") }
    public var tokenFile: URL { dataDirectory.appendingPathComponent("token") }
    public var secretKeyFile: URL { dataDirectory.appendingPathComponent("secret.key") }
}

extension ServiceConfiguration {
    /// `nodeID`, or the host name and the first 8 hex digits of the SHA-256 of the data directory's path:
    /// the same after a restart on the same directory, different for nodes on one host with their own.
    public var resolvedNodeID: String {
        if let nodeID { return nodeID }
        let path = dataDirectory.standardizedFileURL.path
        let digest = SHA256.hash(data: Data(path.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
        return "\(ProcessInfo.processInfo.hostName)-\(digest)"
    }
}
