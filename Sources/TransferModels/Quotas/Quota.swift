/// What a tenant's quota bounds. The raw values are the API's names (`quota` of a problem, `/v1/usage`).
public enum Quota: String, Sendable, Hashable, CaseIterable, Codable {
    /// Sessions that are not invalidated (the tenant's shared session is not counted: it always exists).
    case sessions
    /// Tasks not completed: suspended, running or canceling.
    case tasks
    /// Bytes of the tenant's blobs.
    case blobBytes
    /// The tenant's blobs.
    case blobCount
    /// Bytes the service keeps for the tenant: finished downloads' files, kept response bodies, and the
    /// URL caches' entries on disk.
    case storedBytes
    /// Server-sent event streams and long-polls (`?wait=`) open at the same time.
    case streams

    /// Counts answer 429 Too Many Requests when exceeded; bytes answer 507 Insufficient Storage.
    public var isByteCount: Bool { self == .blobBytes || self == .storedBytes }
}

/// The most each tenant may hold of each `Quota`; 0 means no limit.
public struct QuotaLimits: Sendable, Hashable {
    public var sessions: Int64 = 1_000
    public var tasks: Int64 = 10_000
    public var blobBytes: Int64 = 10 << 30
    public var blobCount: Int64 = 10_000
    public var storedBytes: Int64 = 100 << 30
    public var streams: Int64 = 100

    public init() {}

    /// No quota at all.
    public static let unlimited: QuotaLimits = {
        var limits = QuotaLimits()
        for quota in Quota.allCases { limits[quota] = 0 }
        return limits
    }()

    public subscript(quota: Quota) -> Int64 {
        get {
            switch quota {
            case .sessions: sessions
            case .tasks: tasks
            case .blobBytes: blobBytes
            case .blobCount: blobCount
            case .storedBytes: storedBytes
            case .streams: streams
            }
        }
        set {
            switch quota {
            case .sessions: sessions = newValue
            case .tasks: tasks = newValue
            case .blobBytes: blobBytes = newValue
            case .blobCount: blobCount = newValue
            case .storedBytes: storedBytes = newValue
            case .streams: streams = newValue
            }
        }
    }

    /// Throws when `usage` plus `adding` would pass the limit of `quota` (never with no limit).
    public func check(_ quota: Quota, usage: Int64, adding: Int64) throws(QuotaExceeded) {
        let limit = self[quota]
        guard limit > 0, usage + adding > limit else { return }
        throw QuotaExceeded(quota: quota, limit: limit, usage: usage)
    }
}

/// A request would take a tenant past one of its quotas; nothing was created.
public struct QuotaExceeded: Error, Sendable, Hashable {
    public var quota: Quota
    public var limit: Int64
    /// What the tenant holds now (without the refused request).
    public var usage: Int64

    public init(quota: Quota, limit: Int64, usage: Int64) {
        self.quota = quota
        self.limit = limit
        self.usage = usage
    }
}

/// What one tenant holds, by quota.
public struct TenantUsage: Sendable, Hashable {
    public var sessions: Int64 = 0
    public var tasks: Int64 = 0
    public var blobBytes: Int64 = 0
    public var blobCount: Int64 = 0
    public var storedBytes: Int64 = 0
    public var streams: Int64 = 0

    public init() {}

    public subscript(quota: Quota) -> Int64 {
        switch quota {
        case .sessions: sessions
        case .tasks: tasks
        case .blobBytes: blobBytes
        case .blobCount: blobCount
        case .storedBytes: storedBytes
        case .streams: streams
        }
    }
}
