import Foundation

/// An IPv4 or IPv6 network in CIDR form (`10.0.0.0/8`, `fc00::/7`), with the address as 16 bytes
/// (IPv4 as its IPv4-mapped IPv6 form, so both families compare the same way).
public struct IPAddressRange: Hashable, Sendable, CustomStringConvertible {
    public let network: [UInt8]
    /// Prefix length over the 128-bit form.
    public let prefixLength: Int
    public let isIPv4: Bool

    /// Parses `address/prefix` or a bare address (a single host).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let address = IPAddress(first) else { return nil }
        let maximum = address.isIPv4 ? 32 : 128
        var prefix = maximum
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...maximum).contains(value) else { return nil }
            prefix = value
        }
        isIPv4 = address.isIPv4
        prefixLength = address.isIPv4 ? prefix + 96 : prefix
        network = Self.masked(address.bytes, prefixLength)
    }

    public func contains(_ address: IPAddress) -> Bool {
        Self.masked(address.bytes, prefixLength) == network
    }

    public var description: String {
        let address = IPAddress(bytes: network)
        return "\(address)/\(isIPv4 ? prefixLength - 96 : prefixLength)"
    }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        var result = bytes
        for index in 0..<16 {
            let bitsInThisByte = max(0, min(8, prefix - index * 8))
            result[index] &= bitsInThisByte == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bitsInThisByte))
        }
        return result
    }
}

/// An IP address as 16 bytes; IPv4 in its IPv4-mapped form (`::ffff:a.b.c.d`).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        self.bytes = bytes
    }

    public init(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        self.bytes = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, a, b, c, d]
    }

    /// Dotted IPv4 or RFC 4291 IPv6 text (brackets allowed).
    public init?(_ text: String) {
        let trimmed = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        if let v4 = Self.parseIPv4(trimmed) {
            self.init(ipv4: v4[0], v4[1], v4[2], v4[3])
        } else if let v6 = Self.parseIPv6(trimmed) {
            self.init(bytes: v6)
        } else {
            return nil
        }
    }

    /// Whether this is an IPv4 address (stored IPv4-mapped).
    public var isIPv4: Bool { bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF }

    public var description: String {
        if isIPv4 { return bytes[12...].map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var result: [UInt8] = []
        for part in parts {
            // Decimal only, no leading zeros: "010" is octal to some resolvers and must not be guessed.
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                part == "0" || part.first != "0", let value = UInt8(part)
            else { return nil }
            result.append(value)
        }
        return result
    }

    static func parseIPv6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), text.utf8.count <= 45 else { return nil }
        var head: [UInt16] = []
        var tail: [UInt16] = []
        var sawGap = false
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowIPv4: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if allowIPv4, index == pieces.count - 1, piece.contains("."), let v4 = parseIPv4(String(piece)) {
                    result.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    result.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        if halves.count == 2 {
            sawGap = true
            guard let h = groups(halves[0], allowIPv4: false), let t = groups(halves[1], allowIPv4: true) else { return nil }
            head = h
            tail = t
        } else {
            guard let h = groups(halves[0], allowIPv4: true) else { return nil }
            head = h
        }
        let total = head.count + tail.count
        guard sawGap ? total <= 7 : total == 8 else { return nil }
        let words = head + Array(repeating: 0, count: 8 - total) + tail
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
