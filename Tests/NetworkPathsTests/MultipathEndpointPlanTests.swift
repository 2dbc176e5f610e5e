import NetworkPaths
import Testing

/// The Multipath TCP endpoints the service asks of the kernel for its paths, and the steps from what the
/// kernel holds (no kernel: the plan is a value).
@Suite("Multipath TCP endpoints for the paths")
struct MultipathEndpointPlanTests {
    let kernel = FakeKernel([
        "eth0": InterfaceState(isUp: true, addresses: ["192.0.2.10", "2001:db8::10"]),
        "wwan0": InterfaceState(isUp: true, addresses: ["198.51.100.7"]),
        "lo": InterfaceState(isUp: true, addresses: ["127.0.0.1", "::1"]),
    ])
    static let wired = NetworkPath.testPath("wired", .interface("eth0"), type: .wiredEthernet, preference: 0)
    static let cell = NetworkPath.testPath("cell", .sourceAddress("198.51.100.7"), type: .cellular, preference: 1)
    static let loopback = NetworkPath.testPath("loop", .interface("lo"), preference: 2)

    func plan(_ paths: [NetworkPath], allPathsActive: Bool, down: [String] = []) -> MultipathEndpointPlan {
        let monitor = NetworkPathMonitor(paths: paths, interfaces: kernel.snapshot, logger: CapturedLogs().logger)
        for name in down { monitor.setOverride(name, available: false) }
        return MultipathEndpointPlan(states: monitor.states(), interfaces: kernel.snapshot(), allPathsActive: allPathsActive)
    }

    typealias Endpoint = MultipathEndpointPlan.Endpoint

    @Test(.timeLimit(.minutes(1)))
    func theMostPreferredPathLeadsAndTheOthersAreBackupsUnlessAllPathsAreActive() {
        let handover = plan([Self.cell, Self.wired, Self.loopback], allPathsActive: false)
        #expect(
            handover.endpoints == [
                Endpoint(address: "192.0.2.10", device: "eth0", isBackup: false),
                Endpoint(address: "2001:db8::10", device: "eth0", isBackup: false),
                Endpoint(address: "198.51.100.7", device: "wwan0", isBackup: true),
            ], "loopback carries nothing between hosts")
        #expect(handover.subflowLimit == 3)
        let aggregate = plan([Self.wired, Self.cell], allPathsActive: true)
        #expect(aggregate.endpoints.allSatisfy { !$0.isBackup })
        let wiredDown = plan([Self.wired, Self.cell], allPathsActive: false, down: ["wired"])
        #expect(wiredDown.endpoints == [Endpoint(address: "198.51.100.7", device: "wwan0", isBackup: false)], "cell leads now")
        #expect(plan([.defaultRoute], allPathsActive: false).endpoints.isEmpty, "the default route names no address")
    }

    @Test(.timeLimit(.minutes(1)))
    func onlyTheServicesOwnEndpointsChange() {
        let plan = plan([Self.wired, Self.cell], allPathsActive: false)
        let installed = [
            MultipathEndpointPlan.Installed(id: 1, address: "192.0.2.10", device: nil, isSubflow: true, isBackup: true),  // an operator's
            MultipathEndpointPlan.Installed(id: 2, address: "198.51.100.7", device: "wwan0", isSubflow: true, isBackup: false),
            MultipathEndpointPlan.Installed(id: 3, address: "203.0.113.1", device: "eth9", isSubflow: true, isBackup: false),
        ]
        #expect(
            plan.steps(from: installed, ours: [2, 3]) == [
                .setBackup(id: 2, true),
                .delete(id: 3),
                .add(Endpoint(address: "2001:db8::10", device: "eth0", isBackup: false), id: 3),
            ])
        #expect(plan.steps(from: [], ours: []).count == 3)
    }
}
