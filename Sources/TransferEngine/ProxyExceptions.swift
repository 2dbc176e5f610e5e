import Foundation

/// libcurl's `CURLOPT_NOPROXY` rule, evaluated here too so a transaction's metrics can say whether its
/// request went through the proxy (`isProxyConnection`; `CURLINFO_USED_PROXY` needs libcurl 8.7).
///
/// The list is comma-separated: `*` exempts every host; a name exempts itself and its subdomains (a
/// leading dot is ignored); an address exempts itself; `a.b.c.d/n` exempts an IPv4 network.
enum ProxyExceptions {
    static func exempts(_ host: String, list: String?) -> Bool {
        guard let list else { return false }
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for raw in list.split(separator: ",") {
            var entry = raw.trimmingCharacters(in: .whitespaces).lowercased()
            if entry == "*" { return true }
            if entry.hasPrefix(".") { entry.removeFirst() }
            guard !entry.isEmpty else { continue }
            if entry.contains("/") {
                if inNetwork(host, entry) { return true }
            } else if host == entry || host.hasSuffix("." + entry) {
                return true
            }
        }
        return false
    }

    /// Whether the IPv4 `host` is inside `cidr` (`10.0.0.0/8`).
    private static func inNetwork(_ host: String, _ cidr: String) -> Bool {
        let parts = cidr.split(separator: "/")
        guard parts.count == 2, let bits = Int(parts[1]), (0...32).contains(bits), let network = ipv4(String(parts[0])),
            let address = ipv4(host)
        else { return false }
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
        return network & mask == address & mask
    }

    private static func ipv4(_ text: String) -> UInt32? {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt32($0) }
        guard octets.count == 4, octets.allSatisfy({ $0 < 256 }), text.split(separator: ".").count == 4 else { return nil }
        return octets.reduce(0) { $0 << 8 | $1 }
    }
}
