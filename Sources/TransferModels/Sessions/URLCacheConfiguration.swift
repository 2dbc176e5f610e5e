/// A session's `URLCache`: the tenant's shared one (`URLCache.shared`, whose capacities are the
/// service's), or the session's own with its capacities (`URLCache(memoryCapacity:diskCapacity:)`).
/// On the wire `{"storage": "shared"}` or `{"storage": "private", "memoryCapacity": …, "diskCapacity": …}`.
public enum URLCacheConfiguration: Codable, Sendable, Hashable {
    case shared
    /// Bytes of responses kept in memory, and under `<data>/cache` (always 0 for ephemeral sessions).
    case `private`(memoryCapacity: Int, diskCapacity: Int)

    /// A private cache with `URLCache.shared`'s capacities on Apple platforms.
    public static let standard = URLCacheConfiguration.private(memoryCapacity: 512_000, diskCapacity: 10_000_000)
    /// What an ephemeral configuration gets: a private cache in memory only.
    public static let memoryOnly = URLCacheConfiguration.private(memoryCapacity: 512_000, diskCapacity: 0)

    private enum CodingKeys: String, CodingKey { case storage, memoryCapacity, diskCapacity }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let storage = try c.decodeIfPresent(StorageScope.self, forKey: .storage)
        let memory = try c.decodeIfPresent(Int.self, forKey: .memoryCapacity) ?? 512_000
        let disk = try c.decodeIfPresent(Int.self, forKey: .diskCapacity) ?? 0
        switch storage {
        case .shared: self = .shared
        case .private: self = .private(memoryCapacity: memory, diskCapacity: disk)
        // Configurations stored before caches had a storage: URLSession's defaults (the standard
        // capacities) meant the shared cache; any other capacities a cache of the session's own.
        case nil, .none?:
            self = (memory, disk) == (512_000, 10_000_000) ? .shared : .private(memoryCapacity: memory, diskCapacity: disk)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .shared:
            try c.encode(StorageScope.shared, forKey: .storage)
        case .private(let memory, let disk):
            try c.encode(StorageScope.private, forKey: .storage)
            try c.encode(memory, forKey: .memoryCapacity)
            try c.encode(disk, forKey: .diskCapacity)
        }
    }
}

/// `urlCache` as a client sends it: `storage` (default `private` when capacities are given), and the
/// capacities of a private cache.
public struct URLCacheInput: Decodable, Sendable {
    public var storage: StorageScope?
    public var memoryCapacity: Int?
    public var diskCapacity: Int?

    public init(storage: StorageScope? = nil, memoryCapacity: Int? = nil, diskCapacity: Int? = nil) {
        (self.storage, self.memoryCapacity, self.diskCapacity) = (storage, memoryCapacity, diskCapacity)
    }
}

/// `connectionProxyDictionary` with the `kCFNetworkProxies*` keys URLSession understands.
public struct ProxyDictionary: Codable, Sendable, Hashable {
    public var HTTPEnable: Bool?
    public var HTTPProxy: String?
    public var HTTPPort: Int?
    public var HTTPSEnable: Bool?
    public var HTTPSProxy: String?
    public var HTTPSPort: Int?
    public var SOCKSEnable: Bool?
    public var SOCKSProxy: String?
    public var SOCKSPort: Int?
    /// The SOCKS5 proxy's username/password login (RFC 1929), both or neither: sealed at rest
    /// (`RequestSecrets`), never in an answer (`withoutSOCKSLogin`) nor a log.
    public var SOCKSUser: String?
    public var SOCKSPassword: String?
    public var ExceptionsList: [String]?

    public init() {}

    /// The dictionary as the API shows it: the SOCKS login is write-only.
    public var withoutSOCKSLogin: ProxyDictionary {
        var copy = self
        (copy.SOCKSUser, copy.SOCKSPassword) = (nil, nil)
        return copy
    }
}
