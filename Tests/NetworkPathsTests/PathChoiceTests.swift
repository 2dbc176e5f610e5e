import NetworkPaths
import Testing

@Suite("Choosing a path for a session's flags")
struct PathChoiceTests {
    let kernel = FakeKernel(["eth0": FakeKernel.up, "eth1": FakeKernel.up, "wwan0": FakeKernel.up])

    static let fibre = NetworkPath.testPath("fibre", .interface("eth0"), type: .wiredEthernet, preference: 0)
    static let satellite = NetworkPath.testPath(
        "satellite", .interface("eth1"), type: .wiredEthernet, expensive: true, preference: 1)
    static let lte = NetworkPath.testPath("lte", .interface("wwan0"), type: .cellular, constrained: true, preference: 2)

    func monitor(_ paths: [NetworkPath]) -> NetworkPathMonitor {
        NetworkPathMonitor(paths: paths, interfaces: kernel.snapshot, logger: CapturedLogs().logger)
    }

    @Test(.timeLimit(.minutes(1)))
    func theMostPreferredAllowedPathWins() {
        let monitor = monitor([Self.lte, Self.satellite, Self.fibre])
        #expect(monitor.choose(allowing: .all) == .use(Self.fibre))

        kernel.set("eth0", FakeKernel.down)
        monitor.refresh()
        #expect(monitor.choose(allowing: .all) == .use(Self.satellite))

        monitor.setOverride("satellite", available: false)
        #expect(monitor.choose(allowing: .all) == .use(Self.lte))
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefusedCellularPathGivesWayToTheNext() {
        var lte = Self.lte
        lte.preference = 0
        var fibre = Self.fibre
        fibre.preference = 1
        let monitor = monitor([lte, fibre])
        #expect(monitor.choose(allowing: .all) == .use(lte))
        #expect(monitor.choose(allowing: .all.without(\.cellular)) == .use(fibre))
        #expect(monitor.choose(allowing: .all.without(\.expensive)) == .use(fibre))
        #expect(monitor.choose(allowing: .all.without(\.constrained)) == .use(fibre))
    }

    @Test(.timeLimit(.minutes(1)))
    func aCellularPathRefusedForCellularOrForExpense() {
        let monitor = monitor([Self.lte])
        #expect(monitor.choose(allowing: .all.without(\.cellular)) == .unavailable(reason: "cellular"))
        #expect(monitor.choose(allowing: .all.without(\.expensive)) == .unavailable(reason: "expensive"))
        #expect(monitor.choose(allowing: .all.without(\.constrained)) == .unavailable(reason: "constrained"))
        #expect(monitor.choose(allowing: .none) == .unavailable(reason: "cellular"))
    }

    @Test(.timeLimit(.minutes(1)))
    func anExpensiveWiredPathRefusedForExpense() {
        let monitor = monitor([Self.satellite])
        #expect(monitor.choose(allowing: .all.without(\.cellular)) == .use(Self.satellite))
        #expect(monitor.choose(allowing: .all.without(\.expensive)) == .unavailable(reason: "expensive"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aConstrainedPathRefusedForConstraint() {
        let backup = NetworkPath.testPath("backup", .interface("eth1"), constrained: true, preference: 0)
        let monitor = monitor([backup])
        #expect(monitor.choose(allowing: .all.without(\.constrained)) == .unavailable(reason: "constrained"))
    }

    @Test(.timeLimit(.minutes(1)))
    func theMostPreferredRefusedPathGivesTheReason() {
        #expect(monitor([Self.satellite, Self.lte]).choose(allowing: .none) == .unavailable(reason: "expensive"))

        var lte = Self.lte
        lte.preference = 0
        #expect(monitor([Self.satellite, lte]).choose(allowing: .none) == .unavailable(reason: "cellular"))
    }

    @Test(.timeLimit(.minutes(1)))
    func unavailablePathsGiveNoReason() {
        let monitor = monitor([Self.fibre, Self.lte])
        kernel.set("wwan0", FakeKernel.down)
        monitor.setOverride("fibre", available: false)
        monitor.refresh()
        #expect(monitor.choose(allowing: .all) == .unavailable(reason: nil))
        #expect(monitor.choose(allowing: .none) == .unavailable(reason: nil), "the down cellular path is not the reason")
    }

    @Test(.timeLimit(.minutes(1)))
    func theDefaultRouteSuitsEveryFlag() {
        let monitor = monitor([])
        #expect(monitor.choose(allowing: .none) == .use(.defaultRoute))
    }
}

/// The three session flags, so each test names only the one it turns off.
struct Flags {
    var cellular: Bool
    var expensive: Bool
    var constrained: Bool

    static let all = Flags(cellular: true, expensive: true, constrained: true)
    static let none = Flags(cellular: false, expensive: false, constrained: false)

    func without(_ flag: WritableKeyPath<Flags, Bool>) -> Flags {
        var flags = self
        flags[keyPath: flag] = false
        return flags
    }
}

extension NetworkPathMonitor {
    func choose(allowing flags: Flags) -> PathChoice {
        choose(
            allowsCellularAccess: flags.cellular, allowsExpensiveNetworkAccess: flags.expensive,
            allowsConstrainedNetworkAccess: flags.constrained)
    }
}
