#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// IP literals through the C library, so "valid" and "the same address" mean what the kernel means.
enum IPAddress {
    /// The literal as `inet_ntop` writes it ("2001:DB8:0::1" → "2001:db8::1"), or nil when `inet_pton` rejects it.
    ///
    /// Comparing canonical forms lets a configured address match the kernel's spelling of it.
    static func canonical(_ literal: String) -> String? {
        for family in [AF_INET, AF_INET6] {
            var storage = in6_addr()  // large enough for either family
            let parsed = withUnsafeMutableBytes(of: &storage) { inet_pton(family, literal, $0.baseAddress) }
            if parsed == 1 {
                return withUnsafeBytes(of: &storage) { text(family: family, bytes: $0.baseAddress!) }
            }
        }
        return nil
    }

    /// `inet_ntop` of the address at `bytes` (an `in_addr` or `in6_addr`).
    static func text(family: Int32, bytes: UnsafeRawPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
