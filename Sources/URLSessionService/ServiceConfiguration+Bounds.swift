import ControlPlane
import TransferEngine
public import TransferModels

extension ServiceConfiguration.Overrides {
    /// The `--quota-*` flags given (nil: not given).
    public mutating func setQuotas(
        sessions: Int64?, tasks: Int64?, blobBytes: Int64?, blobCount: Int64?, storedBytes: Int64?, streams: Int64?
    ) {
        let given: [(Quota, Int64?)] = [
            (.sessions, sessions), (.tasks, tasks), (.blobBytes, blobBytes), (.blobCount, blobCount),
            (.storedBytes, storedBytes), (.streams, streams),
        ]
        for case (let quota, let value?) in given { quotas[quota] = value }
    }
}

extension ServiceConfiguration {
    /// The environment variable and flag of each quota (`URLSESSIOND_QUOTA_SESSIONS`, `--quota-sessions`, …).
    public static func quotaSetting(_ quota: Quota) -> (variable: String, flag: String) {
        switch quota {
        case .sessions: ("URLSESSIOND_QUOTA_SESSIONS", "--quota-sessions")
        case .tasks: ("URLSESSIOND_QUOTA_TASKS", "--quota-tasks")
        case .blobBytes: ("URLSESSIOND_QUOTA_BLOB_BYTES", "--quota-blob-bytes")
        case .blobCount: ("URLSESSIOND_QUOTA_BLOB_COUNT", "--quota-blob-count")
        case .storedBytes: ("URLSESSIOND_QUOTA_STORED_BYTES", "--quota-stored-bytes")
        case .streams: ("URLSESSIOND_QUOTA_STREAMS", "--quota-streams")
        }
    }

    /// Quotas, the largest download, the largest session configuration, connections per client address.
    mutating func configureBounds(_ overrides: Overrides, _ env: Environment) throws {
        for quota in Quota.allCases {
            let variable = Self.quotaSetting(quota).variable
            guard let value = try overrides.quotas[quota] ?? env.integer(variable).map(Int64.init) else { continue }
            guard value >= 0 else { throw ConfigurationError(setting: variable, detail: "must be >= 0 (0: no limit)") }
            quotas[quota] = value
        }
        if let value = try overrides.maxDownloadSize ?? env.integer("URLSESSIOND_MAX_DOWNLOAD_SIZE").map(Int64.init) {
            guard value >= 0 else {
                throw ConfigurationError(setting: "URLSESSIOND_MAX_DOWNLOAD_SIZE", detail: "must be bytes >= 0 (0: no limit)")
            }
            engine.maximumDownloadSize = value
        }
        if let value = try overrides.maxSessionConfiguration ?? env.integer("URLSESSIOND_MAX_SESSION_CONFIGURATION") {
            guard (1...(1 << 20)).contains(value) else {
                throw ConfigurationError(setting: "URLSESSIOND_MAX_SESSION_CONFIGURATION", detail: "must be bytes in 1...1048576")
            }
            http.maximumSessionConfigurationSize = value
        }
        if let value = try overrides.maxConnectionsPerIP ?? env.integer("URLSESSIOND_MAX_CONNECTIONS_PER_IP") {
            guard (0...1_000_000).contains(value) else {
                throw ConfigurationError(setting: "URLSESSIOND_MAX_CONNECTIONS_PER_IP", detail: "must be 0...1000000 (0: no limit)")
            }
            http.perIPConnectionLimit = value
        }
    }
}
