public import Logging
import TransferModels

/// The live state of the host's network paths, and the choice among them for a session's flags.
///
/// Polls getifaddrs rather than listening on netlink: a second's lag is acceptable for choosing an uplink,
/// and a snapshot function is trivial to replace in tests.
public final class NetworkPathMonitor: Sendable {
    private let table: LockedBox<PathTable>
    private let handlers = LockedBox<[@Sendable ([NetworkPathState]) -> Void]>([])
    private let interfaces: @Sendable () -> [String: InterfaceState]
    private let logger: Logger
    /// The paths as the kernel's Multipath TCP endpoints, while multipath sessions use them.
    public let multipath: MultipathEndpoints

    /// `paths` empty means [NetworkPath.defaultRoute]. `interfaces` is the kernel snapshot function (tests pass their own closure returning fixed states).
    ///
    /// Reads the interfaces once, so `states()` is meaningful at once; that first reading is not a change.
    public init(
        paths: [NetworkPath],
        interfaces: @escaping @Sendable () -> [String: InterfaceState] = InterfaceStates.current,
        logger: Logger
    ) {
        self.interfaces = interfaces
        self.logger = logger
        let table = PathTable(paths: paths.isEmpty ? [.defaultRoute] : paths, interfaces: interfaces())
        self.table = LockedBox(table)
        let box = self.table
        let multipath = MultipathEndpoints(states: { box.withLock { $0.states } }, interfaces: interfaces, logger: logger)
        self.multipath = multipath
        self.handlers.withLock { $0.append { _ in multipath.pathsChanged() } }
        for state in table.states {
            logger.debug(
                "Network path configured",
                metadata: [
                    "path.name": "\(state.path.name)", "path.available": "\(state.isAvailable)",
                    "path.preference": "\(state.path.preference)",
                ])
        }
    }

    /// Every path's state, most preferred first.
    public func states() -> [NetworkPathState] {
        table.withLock { $0.states }
    }

    public func state(named name: String) -> NetworkPathState? {
        table.withLock { $0.state(named: name) }
    }

    /// Whether `name` is currently available (false for an unknown name).
    public func isAvailable(_ name: String) -> Bool {
        state(named: name)?.isAvailable ?? false
    }

    /// Sets (true/false) or clears (nil) the admin override; nil when no path has that name. Notifies on a change of availability.
    @discardableResult
    public func setOverride(_ name: String, available: Bool?) -> NetworkPathState? {
        let (result, states) = table.withLock { ($0.setOverride(name, available: available), $0.states) }
        guard let result else { return nil }
        publish(result.change.map { [$0] } ?? [], states: states)
        return result.state
    }

    /// Reads the interfaces once and updates every path; notifies when any path's availability changed. (Called by `run` every second; tests call it directly.)
    public func refresh() {
        let snapshot = interfaces()  // outside the lock: getifaddrs is a netlink round trip
        let (changes, states) = table.withLock { ($0.apply(snapshot), $0.states) }
        publish(changes, states: states)
    }

    /// Refreshes every `interval` (default 1 s) until the task is cancelled, and keeps the Multipath TCP
    /// endpoints (``multipath``) beside it.
    public func run(interval: Duration = .seconds(1)) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.multipath.run() }
            while !Task.isCancelled {
                refresh()
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
            }
        }
    }

    /// The most preferred available path these flags allow, or why none.
    public func choose(
        allowsCellularAccess: Bool,
        allowsExpensiveNetworkAccess: Bool,
        allowsConstrainedNetworkAccess: Bool
    ) -> PathChoice {
        PathChoice.choose(
            among: states(),
            allowsCellularAccess: allowsCellularAccess,
            allowsExpensiveNetworkAccess: allowsExpensiveNetworkAccess,
            allowsConstrainedNetworkAccess: allowsConstrainedNetworkAccess)
    }

    /// Registers a handler called (on the thread that made the change, outside the lock) with the new states after every change of any path's availability. Returns nothing; handlers live as long as the monitor.
    public func onChange(_ handler: @escaping @Sendable ([NetworkPathState]) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    /// Logs each change and calls the handlers once for the lot; runs outside the lock so handlers may call back in.
    /// Changes racing on two threads may notify in either order, but each call carries every path's state.
    private func publish(_ changes: [PathTable.Change], states: [NetworkPathState]) {
        guard !changes.isEmpty else { return }
        for change in changes {
            logger.info(
                "Network path availability changed",
                metadata: [
                    "path.name": "\(change.state.path.name)", "path.available": "\(change.state.isAvailable)",
                    "path.cause": "\(change.cause.rawValue)",
                ])
        }
        for handler in handlers.withLock({ $0 }) {
            handler(states)
        }
    }
}
