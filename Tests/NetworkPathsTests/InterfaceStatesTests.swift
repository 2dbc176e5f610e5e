import NetworkPaths
import Testing

@Suite("The kernel's interfaces")
struct InterfaceStatesTests {
    @Test(.timeLimit(.minutes(1)))
    func loopbackIsUpWithItsAddress() throws {
        let loopback = try #require(InterfaceStates.current()["lo"])
        #expect(loopback.isUp)
        #expect(loopback.addresses.contains("127.0.0.1"))
    }

    @Test(.timeLimit(.minutes(1)))
    func linkLocalIPv6AddressesAreLeftOut() {
        let linkLocalPrefixes = ["fe8", "fe9", "fea", "feb"]
        for (name, state) in InterfaceStates.current() {
            for address in state.addresses {
                #expect(!linkLocalPrefixes.contains { address.lowercased().hasPrefix($0) }, "\(name): \(address)")
            }
        }
    }
}
