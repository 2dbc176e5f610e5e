/// The keys of one `--network` value as they are read, checked one by one, then combined into a path.
struct PathKeys {
    let path: String
    private var seen: Set<String> = []
    private var interface: String?
    private var address: String?
    private var type: NetworkPath.InterfaceType?
    private var expensive: Bool?
    private var constrained: Bool?
    private var proxy: String?
    private var preference: Int?

    static let proxySchemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    init(path: String) { self.path = path }

    /// Records one key; `value` is nil for a bare key (`expensive`).
    mutating func set(_ key: String, _ value: String?) throws(NetworkPathError) {
        guard seen.insert(key).inserted else { throw NetworkPathError(path: path, key: key, "given twice") }
        switch key {
        case "interface": interface = try interfaceName(required(key, value))
        case "address": address = try ipAddress(required(key, value))
        case "type": type = try interfaceType(required(key, value))
        case "expensive": expensive = try flag(key, value)
        case "constrained": constrained = try flag(key, value)
        case "proxy": proxy = try proxyURL(required(key, value))
        case "preference": preference = try preferenceValue(required(key, value))
        default:
            throw NetworkPathError(
                path: path, key: key,
                "unknown key (expected interface, address, type, expensive, constrained, proxy or preference)")
        }
    }

    /// The path these keys describe, once the keys that depend on each other agree.
    func path(position: Int) throws(NetworkPathError) -> NetworkPath {
        let binding: NetworkPath.Binding
        switch (interface, address) {
        case (let device?, nil): binding = .interface(device)
        case (nil, let address?): binding = .sourceAddress(address)
        case (.some, .some):
            throw NetworkPathError(path: path, "interface= and address= are exclusive: give one of them")
        case (nil, nil):
            throw NetworkPathError(path: path, "interface=IFNAME or address=IP is required")
        }
        let type = self.type ?? .other
        if type == .cellular && expensive == false {
            throw NetworkPathError(
                path: path, key: "expensive", "a cellular path is always expensive: remove expensive=false or change type")
        }
        return NetworkPath(
            name: path, binding: binding, type: type, isExpensive: expensive ?? false,
            isConstrained: constrained ?? false, proxy: proxy, preference: preference ?? position)
    }

    private func required(_ key: String, _ value: String?) throws(NetworkPathError) -> String {
        guard let value, !value.isEmpty else { throw NetworkPathError(path: path, key: key, "needs a value (\(key)=...)") }
        return value
    }

    /// Linux's own rule for device names (`dev_valid_name`): SO_BINDTODEVICE refuses anything else.
    private func interfaceName(_ value: String) throws(NetworkPathError) -> String {
        let forbidden = value.contains { $0 == "/" || $0 == ":" || $0.isWhitespace }
        guard (1...15).contains(value.utf8.count), !forbidden, value != ".", value != ".." else {
            throw NetworkPathError(
                path: path, key: "interface", "\"\(value)\" is not a device name (1-15 bytes, no '/', ':' or whitespace)")
        }
        return value
    }

    private func ipAddress(_ value: String) throws(NetworkPathError) -> String {
        guard IPAddress.canonical(value) != nil else {
            throw NetworkPathError(path: path, key: "address", "\"\(value)\" is not an IPv4 or IPv6 address")
        }
        return value
    }

    private func interfaceType(_ value: String) throws(NetworkPathError) -> NetworkPath.InterfaceType {
        guard let type = NetworkPath.InterfaceType(rawValue: value) else {
            throw NetworkPathError(
                path: path, key: "type", "\"\(value)\" is not a type (expected wiredEthernet, wifi, cellular or other)")
        }
        return type
    }

    /// A bare flag means true, as `expensive` alone reads.
    private func flag(_ key: String, _ value: String?) throws(NetworkPathError) -> Bool {
        switch value {
        case nil, "true": return true
        case "false": return false
        case let value?: throw NetworkPathError(path: path, key: key, "\"\(value)\" is not true or false")
        }
    }

    private func preferenceValue(_ value: String) throws(NetworkPathError) -> Int {
        guard let number = Int(value), (0...1000).contains(number) else {
            throw NetworkPathError(path: path, key: "preference", "\"\(value)\" is not an integer from 0 to 1000")
        }
        return number
    }

    /// Only schemes curl can use as a proxy, and a host to reach: anything else would fail every transfer on the path.
    private func proxyURL(_ value: String) throws(NetworkPathError) -> String {
        guard let separator = value.firstRange(of: "://"),
            Self.proxySchemes.contains(value[..<separator.lowerBound].lowercased())
        else {
            throw NetworkPathError(
                path: path, key: "proxy",
                "\"\(value)\" must start with http://, https://, socks4://, socks4a://, socks5:// or socks5h://")
        }
        let authority = value[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority[...]
        let host =
            hostAndPort.hasPrefix("[")
            ? hostAndPort.dropFirst().prefix { $0 != "]" }
            : hostAndPort.prefix { $0 != ":" }
        guard !host.isEmpty else {
            throw NetworkPathError(path: path, key: "proxy", "\"\(value)\" has no host")
        }
        return value
    }
}
