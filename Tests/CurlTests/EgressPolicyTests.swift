import Curl
import Testing

@Suite("Egress policy: only public unicast addresses unless allowed")
struct EgressPolicyTests {
    private let policy = EgressPolicy()

    @Test(arguments: [
        "127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "0.0.0.0", "224.0.0.1", "240.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.2.1",
        "::1", "::", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1", "::127.0.0.1",
        "64:ff9b::8.8.8.8", "2002:c0a8:0101::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "fc00::1", "fd12:3456::1",
        "fe80::1", "ff02::1", "2001:db8::1", "::ffff:0:7f00:1",
    ])
    func deniesSpecialPurposeAddresses(address: String) throws {
        let parsed = try #require(IPAddress(address))
        guard case .denied = policy.check(parsed) else {
            Issue.record("\(address) must be denied")
            return
        }
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8",
    ])
    func allowsPublicAddresses(address: String) throws {
        #expect(policy.check(try #require(IPAddress(address))) == .allowed)
    }

    /// Cloud metadata services: denied even inside an allowed range (Azure's WireServer is a public
    /// address), open only when the operator lists the address itself.
    @Test(arguments: ["168.63.129.16", "169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "fd00:ec2::254"])
    func metadataServicesNeedTheirOwnAllowEntry(address: String) throws {
        let parsed = try #require(IPAddress(address))
        guard case .denied(let reason) = policy.check(parsed) else {
            Issue.record("\(address) must be denied")
            return
        }
        #expect(reason.contains("metadata") || reason.contains("WireServer"), "\(reason)")
        let broad = EgressPolicy(allowed: try EgressPolicy.parseAllowList("0.0.0.0/0, ::/0").get())
        #expect(broad.check(parsed) != .allowed, "a range that covers it")
        let listed = EgressPolicy(allowed: try EgressPolicy.parseAllowList(address).get())
        #expect(listed.check(parsed) == .allowed, "the address itself")
        if parsed.isIPv4 { #expect(policy.check(try #require(IPAddress("::ffff:\(address)"))) != .allowed) }
    }

    @Test func operatorAllowListWinsForTheRangeOnly() throws {
        let allowList = try EgressPolicy.parseAllowList("127.0.0.0/8, ::1").get()
        let policy = EgressPolicy(allowed: allowList)
        #expect(policy.check(try #require(IPAddress("127.0.0.1"))) == .allowed)
        #expect(policy.check(try #require(IPAddress("::ffff:127.0.0.1"))) == .allowed)
        #expect(policy.check(try #require(IPAddress("::1"))) == .allowed)
        #expect(policy.check(try #require(IPAddress("10.0.0.1"))) != .allowed)
        #expect(policy.check(try #require(IPAddress("169.254.169.254"))) != .allowed)
    }

    @Test(arguments: ["10.0.0.0/33", "nope", "1.2.3", "::1/129", "01.2.3.4", "1.2.3.4/-1", "1:2:3:4:5:6:7:8:9"])
    func rejectsMalformedRanges(entry: String) {
        guard case .failure = EgressPolicy.parseAllowList(entry) else {
            Issue.record("\(entry) must be rejected")
            return
        }
    }

    @Test func rangesCompareBothFamiliesAndPrint() throws {
        let range = try #require(IPAddressRange("192.168.0.0/16"))
        #expect(range.description == "192.168.0.0/16")
        #expect(range.contains(try #require(IPAddress("192.168.255.1"))))
        #expect(!range.contains(try #require(IPAddress("192.169.0.1"))))
        let v6 = try #require(IPAddressRange("fc00::/7"))
        #expect(v6.contains(try #require(IPAddress("fdff::1"))))
        #expect(IPAddress("1:2:3:4:5:6:7:8")?.description == "1:2:3:4:5:6:7:8")
        #expect(IPAddress("::ffff:1.2.3.4")?.isIPv4 == true)
    }
}
