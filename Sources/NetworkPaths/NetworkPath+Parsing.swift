extension NetworkPath {
    /// Parses one `--network` value, `NAME:key=value,key=value,...`; `position` is its index in the configuration (the default preference).
    ///
    /// Keys: `interface=IFNAME` or `address=IP` (exactly one), `type=wiredEthernet|wifi|cellular|other`,
    /// `expensive[=true|false]`, `constrained[=true|false]`, `proxy=URL`, `preference=0…1000`.
    public static func parse(_ text: String, position: Int) throws(NetworkPathError) -> NetworkPath {
        let value = text.trimmingWhitespace()
        guard let colon = value.firstIndex(of: ":") else {
            throw NetworkPathError(path: value, "expected NAME:key=value,... with interface=IFNAME or address=IP")
        }
        let name = String(value[..<colon])
        try validateName(name)

        var keys = PathKeys(path: name)
        for item in value[value.index(after: colon)...].split(separator: ",") {
            let item = item.trimmingWhitespace()
            guard !item.isEmpty else { continue }
            if let equals = item.firstIndex(of: "=") {
                try keys.set(String(item[..<equals]), String(item[item.index(after: equals)...]))
            } else {
                try keys.set(item, nil)
            }
        }
        return try keys.path(position: position)
    }

    /// Parses URLSESSIOND_NETWORKS: several values separated by `;` (empty parts ignored).
    ///
    /// Each value's position among the non-empty parts is its default preference, so the list's order is its priority.
    public static func parseList(_ text: String) throws(NetworkPathError) -> [NetworkPath] {
        var paths: [NetworkPath] = []
        for part in text.split(separator: ";") where !part.trimmingWhitespace().isEmpty {
            let path = try parse(String(part), position: paths.count)
            guard !paths.contains(where: { $0.name == path.name }) else {
                throw NetworkPathError(path: path.name, "configured twice (path names must be unique)")
            }
            paths.append(path)
        }
        return paths
    }

    /// Names appear in logs, metrics and the API, so they keep to a short, URL-safe alphabet.
    private static func validateName(_ name: String) throws(NetworkPathError) {
        let allowed = name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                true
            default: false
            }
        }
        guard allowed, (1...32).contains(name.utf8.count) else {
            throw NetworkPathError(path: name, "the name must be 1-32 characters of A-Z, a-z, 0-9, '_', '.' and '-'")
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (this module does without Foundation).
    func trimmingWhitespace() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
