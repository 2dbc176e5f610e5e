import Foundation

/// Which addresses outbound connections (tasks and webhooks) may reach.
///
/// Checked for every resolved address right before `connect` (`CURLOPT_OPENSOCKETFUNCTION`), so DNS
/// answers and redirects cannot smuggle a request into a private network. Everything that is not a
/// public unicast address is denied unless an operator allows its range (`URLSESSIOND_EGRESS_ALLOW`).
public struct EgressPolicy: Sendable {
    public enum Verdict: Sendable, Equatable {
        case allowed
        /// Denied, naming the range that matched (for logs and the task's error).
        case denied(reason: String)
    }

    /// Ranges added by the operator; they win over the deny list.
    public let allowed: [IPAddressRange]

    public init(allowed: [IPAddressRange] = []) { self.allowed = allowed }

    /// Parses a comma-separated CIDR list; nil with the offending entry when one is malformed.
    public static func parseAllowList(_ text: String) -> Result<[IPAddressRange], EgressConfigurationError> {
        var ranges: [IPAddressRange] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            guard let range = IPAddressRange(entry) else { return .failure(EgressConfigurationError(entry: entry)) }
            ranges.append(range)
        }
        return .success(ranges)
    }

    public func check(_ address: IPAddress) -> Verdict {
        // A cloud's metadata service hands out the host's credentials: an allow range that merely covers
        // it (10.0.0.0/8, 169.254.0.0/16) does not open it; only the address itself, listed, does.
        if let (range, name) = Self.metadata.first(where: { $0.0.contains(Self.embeddedIPv4(address) ?? address) }),
            !allowed.contains(range)
        {
            return .denied(reason: "\(address) is \(name) (URLSESSIOND_EGRESS_ALLOW opens it only by listing \(range) itself)")
        }
        if allowed.contains(where: { $0.contains(address) }) { return .allowed }
        // IPv4 written in IPv6 forms is judged as the IPv4 address it carries.
        if let embedded = Self.embeddedIPv4(address) {
            if allowed.contains(where: { $0.contains(embedded) }) { return .allowed }
            if case .denied(let reason) = check(embedded) { return .denied(reason: "\(reason) (inside \(address))") }
        }
        if let (range, name) = Self.denied.first(where: { $0.0.contains(address) }) {
            return .denied(reason: "\(address) is in \(range) (\(name); URLSESSIOND_EGRESS_ALLOW=\(range) allows it)")
        }
        return .allowed
    }

    /// The IPv4 address inside IPv4-compatible (`::a.b.c.d`) and IPv4-translated forms; mapped
    /// (`::ffff:a.b.c.d`) addresses are already stored as IPv4.
    static func embeddedIPv4(_ address: IPAddress) -> IPAddress? {
        let b = address.bytes
        let compatible = b[0..<12].allSatisfy { $0 == 0 } && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && b[15] <= 1)
        let translated = b[0..<8].allSatisfy { $0 == 0 } && b[8] == 0xFF && b[9] == 0xFF && b[10] == 0 && b[11] == 0
        guard compatible || translated else { return nil }
        return IPAddress(ipv4: b[12], b[13], b[14], b[15])
    }

    /// The metadata services of cloud providers, each denied unless allowed by its own address.
    static let metadata: [(IPAddressRange, String)] = [
        ("169.254.169.254", "the cloud metadata service (AWS, Google Cloud, Azure IMDS, DigitalOcean, OpenStack)"),
        ("169.254.170.2", "the AWS ECS task metadata service"), ("168.63.129.16", "Azure's WireServer"),
        ("100.100.100.200", "Alibaba Cloud's metadata service"), ("192.0.0.192", "Oracle Cloud's metadata service"),
        ("169.254.0.23", "Tencent Cloud's metadata service"), ("fd00:ec2::254", "the AWS metadata service (IPv6)"),
    ].map { (IPAddressRange($0.0)!, $0.1) }

    /// Special-purpose ranges (IANA registries, RFC 6890) that a fetcher must not reach by default.
    static let denied: [(IPAddressRange, String)] = [
        ("0.0.0.0/8", "this network"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "carrier-grade NAT"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local, cloud metadata"), ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignments"), ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay anycast"), ("192.168.0.0/16", "private"), ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"), ("203.0.113.0/24", "documentation"), ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"), ("255.255.255.255/32", "broadcast"),
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("::/96", "IPv4-compatible"),
        ("64:ff9b::/96", "NAT64"), ("64:ff9b:1::/48", "local NAT64"), ("100::/64", "discard"),
        ("2001::/32", "Teredo"), ("2001:db8::/32", "documentation"), ("2001:10::/28", "ORCHID"),
        ("2001:20::/28", "ORCHIDv2"), ("2002::/16", "6to4"), ("fc00::/7", "unique local"),
        ("fe80::/10", "link-local"), ("fec0::/10", "site-local"), ("ff00::/8", "multicast"),
    ].map { (IPAddressRange($0.0)!, $0.1) }
}

public struct EgressConfigurationError: Error, CustomStringConvertible {
    public var entry: String
    public var description: String { "URLSESSIOND_EGRESS_ALLOW: \"\(entry)\" is not an IP address or CIDR range" }
}
