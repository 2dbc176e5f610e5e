import NetworkPaths
import Testing

@Suite("Parsing --network values")
struct NetworkPathParsingTests {
    @Test(.timeLimit(.minutes(1)))
    func everyKeyOfAnInterfacePath() throws {
        let path = try NetworkPath.parse(
            "lte:interface=wwan0,type=cellular,expensive,constrained,proxy=http://10.0.0.1:3128,preference=7", position: 3)
        #expect(path.name == "lte")
        #expect(path.binding == .interface("wwan0"))
        #expect(path.type == .cellular)
        #expect(path.isCellular)
        #expect(path.isExpensive)
        #expect(path.isConstrained)
        #expect(path.proxy == "http://10.0.0.1:3128")
        #expect(path.preference == 7)
    }

    @Test(.timeLimit(.minutes(1)))
    func everyKeyOfAnAddressPath() throws {
        let path = try NetworkPath.parse(
            " sat.1:address=2001:db8::2, type=wiredEthernet, expensive=true, constrained=false, preference=0 ", position: 5)
        #expect(path.name == "sat.1")
        #expect(path.binding == .sourceAddress("2001:db8::2"))
        #expect(path.type == .wiredEthernet)
        #expect(!path.isCellular)
        #expect(path.isExpensive)
        #expect(!path.isConstrained)
        #expect(path.proxy == nil)
        #expect(path.preference == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func defaultsAreOtherUnflaggedAndThePosition() throws {
        let path = try NetworkPath.parse("backup_line:interface=eth1", position: 4)
        #expect(path.type == .other)
        #expect(!path.isExpensive)
        #expect(!path.isConstrained)
        #expect(path.proxy == nil)
        #expect(path.preference == 4)
    }

    @Test(.timeLimit(.minutes(1)))
    func cellularIsAlwaysExpensive() throws {
        #expect(try NetworkPath.parse("lte:interface=wwan0,type=cellular", position: 0).isExpensive)
        #expect(try NetworkPath.parse("lte:interface=wwan0,type=cellular,expensive=true", position: 0).isExpensive)
        #expect(NetworkPath(name: "lte", binding: .interface("wwan0"), type: .cellular).isExpensive)
    }

    @Test(.timeLimit(.minutes(1)))
    func theDocumentedListParses() throws {
        let paths = try NetworkPath.parseList(
            "fibre:interface=eth0,type=wiredEthernet;lte:interface=wwan0,type=cellular,constrained,proxy=http://10.0.0.1:3128")
        #expect(paths.map(\.name) == ["fibre", "lte"])
        #expect(paths.map(\.preference) == [0, 1])
        #expect(paths[0].type == .wiredEthernet)
        #expect(!paths[0].isExpensive)
        #expect(paths[1].isExpensive && paths[1].isConstrained)
        #expect(paths[1].proxy == "http://10.0.0.1:3128")
    }

    @Test(.timeLimit(.minutes(1)))
    func emptyPartsOfAListAreIgnoredAndDoNotTakeAPosition() throws {
        let paths = try NetworkPath.parseList(";a:interface=eth0;; ;b:interface=eth1;")
        #expect(paths.map(\.name) == ["a", "b"])
        #expect(paths.map(\.preference) == [0, 1])
        #expect(try NetworkPath.parseList("").isEmpty)
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: ["http", "https", "socks4", "socks4a", "socks5", "socks5h"].map { "\($0)://proxy.internal:3128" } + [
            "HTTP://proxy.internal", "http://[fd00::1]:3128/", "socks5h://user:secret@proxy.internal:1080",
        ])
    func proxiesCurlCanUseAreAccepted(_ proxy: String) throws {
        #expect(try NetworkPath.parse("a:interface=eth0,proxy=\(proxy)", position: 0).proxy == proxy)
    }

    @Test(.timeLimit(.minutes(1)))
    func curlInterfaceAndInterfaceDescription() throws {
        let device = try NetworkPath.parse("a:interface=eth0", position: 0)
        #expect(device.curlInterface == "if!eth0")
        #expect(device.interfaceDescription == "eth0")

        let ipv4 = try NetworkPath.parse("b:address=10.0.0.2", position: 1)
        #expect(ipv4.curlInterface == "host!10.0.0.2")
        #expect(ipv4.interfaceDescription == "10.0.0.2")

        let ipv6 = try NetworkPath.parse("c:address=fd00::2", position: 2)
        #expect(ipv6.curlInterface == "host!fd00::2")
        #expect(ipv6.interfaceDescription == "fd00::2")

        #expect(NetworkPath.defaultRoute.curlInterface == nil)
        #expect(NetworkPath.defaultRoute.interfaceDescription == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func theDefaultRoute() {
        let path = NetworkPath.defaultRoute
        #expect(path.name == "default")
        #expect(path.binding == .defaultRoute)
        #expect(path.type == .other)
        #expect(!path.isExpensive && !path.isConstrained && !path.isCellular)
        #expect(path.proxy == nil)
        #expect(path.preference == 0)
    }
}
