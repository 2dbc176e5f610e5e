import NetworkPaths
import Testing

@Suite("NetworkPathMonitor's live state")
struct NetworkPathMonitorTests {
    let kernel = FakeKernel(["eth0": FakeKernel.up, "wwan0": FakeKernel.up])
    let logs = CapturedLogs()
    let notifications = TestBox<[[NetworkPathState]]>([])

    /// fibre on eth0 and lte on wwan0, with every notification recorded.
    func monitor(_ paths: [NetworkPath]? = nil) -> NetworkPathMonitor {
        let paths =
            paths ?? [
                .testPath("fibre", .interface("eth0"), type: .wiredEthernet, preference: 0),
                .testPath("lte", .interface("wwan0"), type: .cellular, preference: 1),
            ]
        let monitor = NetworkPathMonitor(paths: paths, interfaces: kernel.snapshot, logger: logs.logger)
        monitor.onChange { [notifications] states in notifications.mutate { $0.append(states) } }
        return monitor
    }

    @Test(.timeLimit(.minutes(1)))
    func theFirstReadingIsNeitherAChangeNorANotification() {
        kernel.set("wwan0", FakeKernel.down)
        let monitor = monitor()
        #expect(monitor.states().map(\.isAvailable) == [true, false])
        #expect(monitor.states().map(\.changes) == [0, 0])
        #expect(notifications.value.isEmpty)
        #expect(logs.infos.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func statesAreInPreferenceOrderThenConfigurationOrder() {
        let monitor = monitor([
            .testPath("c", .interface("eth0"), preference: 5),
            .testPath("a", .interface("eth0"), preference: 1),
            .testPath("d", .interface("eth0"), preference: 5),
            .testPath("b", .interface("eth0"), preference: 3),
        ])
        #expect(monitor.states().map(\.path.name) == ["a", "b", "c", "d"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aDownLinkIsUnavailable() throws {
        let monitor = monitor()
        kernel.set("eth0", FakeKernel.down)
        monitor.refresh()

        let fibre = try #require(monitor.state(named: "fibre"))
        #expect(!fibre.isAvailable && !fibre.isLinkUp)
        #expect(fibre.changes == 1)
        #expect(!monitor.isAvailable("fibre"))
        #expect(notifications.value.count == 1)
        #expect(notifications.value.last?.first == fibre)

        let log = try #require(logs.infos.last)
        #expect(log.metadata == ["path.name": "fibre", "path.available": "false", "path.cause": "link"])
    }

    @Test(.timeLimit(.minutes(1)))
    func anUnaddressedOrMissingInterfaceIsUnavailable() {
        let monitor = monitor()
        kernel.set("eth0", FakeKernel.unaddressed)
        kernel.set("wwan0", nil)
        monitor.refresh()
        #expect(monitor.states().map(\.isAvailable) == [false, false])
        #expect(monitor.states().map(\.isLinkUp) == [false, false])
        #expect(notifications.value.count == 1, "one refresh, one notification")
        #expect(logs.infos.count == 2, "one log line per path")

        kernel.set("eth0", FakeKernel.up)
        monitor.refresh()
        #expect(monitor.isAvailable("fibre"))
        #expect(monitor.state(named: "fibre")?.changes == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefreshThatChangesNothingNotifiesNothing() {
        let monitor = monitor()
        monitor.refresh()
        kernel.set("eth0", InterfaceState(isUp: true, addresses: ["192.0.2.99"]))
        monitor.refresh()
        #expect(monitor.states().map(\.changes) == [0, 0])
        #expect(notifications.value.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func anOverrideToUnavailableWinsOverAnUpLink() throws {
        let monitor = monitor()
        let overridden = try #require(monitor.setOverride("fibre", available: false))
        #expect(!overridden.isAvailable && overridden.isLinkUp)
        #expect(overridden.adminOverride == false)
        #expect(try #require(logs.infos.last).metadata["path.cause"] == "admin")

        monitor.refresh()
        #expect(!monitor.isAvailable("fibre"), "a refresh keeps the override")

        let cleared = try #require(monitor.setOverride("fibre", available: nil))
        #expect(cleared.isAvailable && cleared.adminOverride == nil)
        #expect(cleared.changes == 2)
        #expect(notifications.value.count == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func anOverrideToAvailableWinsOverADownLink() throws {
        kernel.set("eth0", FakeKernel.down)
        let monitor = monitor()
        #expect(!monitor.isAvailable("fibre"))

        #expect(monitor.setOverride("fibre", available: true)?.isAvailable == true)
        kernel.set("eth0", nil)
        monitor.refresh()
        #expect(monitor.isAvailable("fibre"))
        #expect(monitor.state(named: "fibre")?.isLinkUp == false)

        #expect(monitor.setOverride("fibre", available: nil)?.isAvailable == false)
        #expect(monitor.state(named: "fibre")?.changes == 2)
        #expect(notifications.value.count == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func anOverrideThatAgreesWithTheLinkIsNoChange() throws {
        let monitor = monitor()
        let state = try #require(monitor.setOverride("fibre", available: true))
        #expect(state.adminOverride == true && state.changes == 0)
        #expect(monitor.setOverride("fibre", available: nil)?.changes == 0)
        #expect(notifications.value.isEmpty)
        #expect(logs.infos.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func unknownNames() {
        let monitor = monitor()
        #expect(monitor.setOverride("wifi", available: false) == nil)
        #expect(monitor.state(named: "wifi") == nil)
        #expect(!monitor.isAvailable("wifi"))
        #expect(notifications.value.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func anAddressPathFollowsWhicheverInterfaceHoldsTheAddress() throws {
        kernel.set("tun0", InterfaceState(isUp: true, addresses: ["10.8.0.2", "2001:db8::5"]))
        let monitor = monitor([
            .testPath("vpn", .sourceAddress("10.8.0.2"), preference: 0),
            .testPath("vpn6", .sourceAddress("2001:DB8:0::5"), preference: 1),
        ])
        #expect(monitor.states().map(\.isAvailable) == [true, true], "the kernel's spelling matches the configuration's")

        kernel.set("tun0", nil)
        kernel.set("tun1", InterfaceState(isUp: true, addresses: ["10.8.0.2"]))
        monitor.refresh()
        #expect(monitor.isAvailable("vpn"), "moved to tun1")
        #expect(monitor.state(named: "vpn")?.changes == 0)
        #expect(!monitor.isAvailable("vpn6"))

        kernel.set("tun1", InterfaceState(isUp: false, addresses: ["10.8.0.2"]))
        monitor.refresh()
        #expect(!monitor.isAvailable("vpn"), "held only by a down interface")

        kernel.set("tun1", InterfaceState(isUp: true, addresses: ["10.8.0.3"]))
        monitor.refresh()
        #expect(!monitor.isAvailable("vpn"), "no interface holds it")

        kernel.set("eth0", InterfaceState(isUp: true, addresses: ["192.0.2.10", "10.8.0.2"]))
        monitor.refresh()
        #expect(monitor.isAvailable("vpn"))
        #expect(monitor.state(named: "vpn")?.changes == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func withoutPathsTheDefaultRouteIsAlwaysAvailable() {
        let kernel = FakeKernel()
        let monitor = NetworkPathMonitor(paths: [], interfaces: kernel.snapshot, logger: logs.logger)
        monitor.refresh()
        #expect(monitor.states().map(\.path) == [.defaultRoute])
        #expect(monitor.isAvailable("default"))
        #expect(monitor.state(named: "default")?.isLinkUp == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func handlersMayCallBackIntoTheMonitor() {
        let monitor = monitor()
        let seen = TestBox<[Bool]>([])
        monitor.onChange { [weak monitor] _ in
            seen.mutate { $0.append(monitor?.isAvailable("fibre") ?? true) }
        }
        monitor.setOverride("fibre", available: false)
        #expect(seen.value == [false])
    }

    @Test(.timeLimit(.minutes(1)))
    func runRefreshesUntilCancelled() async throws {
        let monitor = monitor()
        let running = Task { await monitor.run(interval: .milliseconds(10)) }
        kernel.set("eth0", FakeKernel.down)
        while monitor.isAvailable("fibre") {
            try await Task.sleep(for: .milliseconds(5))
        }
        running.cancel()
        await running.value
        #expect(notifications.value.count == 1)
    }
}
