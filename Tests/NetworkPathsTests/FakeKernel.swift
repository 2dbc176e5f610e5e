import NetworkPaths

/// The interfaces a monitor under test sees: the test edits them, then calls `refresh()`.
struct FakeKernel: Sendable {
    let interfaces: TestBox<[String: InterfaceState]>

    init(_ interfaces: [String: InterfaceState] = [:]) {
        self.interfaces = TestBox(interfaces)
    }

    /// The closure a monitor takes in place of `InterfaceStates.current`.
    var snapshot: @Sendable () -> [String: InterfaceState] {
        { [interfaces] in interfaces.value }
    }

    func set(_ name: String, _ state: InterfaceState?) {
        interfaces.mutate { $0[name] = state }
    }

    static let up = InterfaceState(isUp: true, addresses: ["192.0.2.10"])
    static let down = InterfaceState(isUp: false, addresses: ["192.0.2.10"])
    static let unaddressed = InterfaceState(isUp: true, addresses: [])
}

extension NetworkPath {
    static func testPath(
        _ name: String, _ binding: Binding, type: InterfaceType = .other, expensive: Bool = false,
        constrained: Bool = false, preference: Int
    ) -> NetworkPath {
        NetworkPath(
            name: name, binding: binding, type: type, isExpensive: expensive, isConstrained: constrained,
            preference: preference)
    }
}
