/// The capacities of a session's `URLCache`.
public struct URLCacheConfiguration: Codable, Sendable, Hashable {
    /// Bytes of responses kept in memory.
    public var memoryCapacity: Int
    /// Bytes of responses kept under `<data>/cache`; always 0 for ephemeral sessions.
    public var diskCapacity: Int

    public init(memoryCapacity: Int, diskCapacity: Int) {
        self.memoryCapacity = memoryCapacity
        self.diskCapacity = diskCapacity
    }

    /// `URLCache.shared`'s capacities on Apple platforms.
    public static let standard = URLCacheConfiguration(memoryCapacity: 512_000, diskCapacity: 10_000_000)
    /// What an ephemeral configuration gets: memory only.
    public static let memoryOnly = URLCacheConfiguration(memoryCapacity: 512_000, diskCapacity: 0)
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
    public var ExceptionsList: [String]?

    public init() {}
}
