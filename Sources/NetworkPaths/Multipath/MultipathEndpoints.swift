import Logging
public import TransferModels

/// The service's network paths given to the kernel's Multipath TCP path manager as subflow endpoints,
/// while multipath is in use (docs/ARCHITECTURE.md, "Multipath TCP").
///
/// Nothing happens until a job of a multipath session takes a ``MultipathLease``. From then on the
/// endpoints follow the paths (``pathsChanged()``) and the types in use: the first lease, and any lease
/// that changes whether some interactive or aggregate transfer is in use, waits until the endpoints are
/// set, so its connection finds them (a connection made before gets its subflows when they are added,
/// plus one more on its own path). Only the endpoints the service added are changed or removed, and they
/// are removed when ``run()`` ends. Without `CAP_NET_ADMIN` nothing is changed: the log says so once, and
/// multipath sockets get subflows only from endpoints an operator configured.
public final class MultipathEndpoints: Sendable {
    private let states: @Sendable () -> [NetworkPathState]
    private let interfaces: @Sendable () -> [String: InterfaceState]
    private let tool: PathManagerTool
    private let logger: Logger
    private let state = LockedBox(State())
    private let wakeUps: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    private struct State {
        var leases: [MultipathServiceType: Int] = [:]
        var inUse = false
        var isRunning = false
        /// Reconciliations asked for and done; a lease waits until `done` reaches the number it asked for.
        var requested = 0
        var done = 0
        var waiters: [(generation: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The ids of the endpoints the service added.
        var ours: Set<Int> = []
        var warnedAboutPermission = false

        var wantsAllPaths: Bool { leases[.interactive, default: 0] + leases[.aggregate, default: 0] > 0 }

        /// Asks for a reconciliation and returns its number.
        mutating func request() -> Int {
            requested += 1
            return requested
        }
    }

    init(
        states: @escaping @Sendable () -> [NetworkPathState], interfaces: @escaping @Sendable () -> [String: InterfaceState],
        logger: Logger
    ) {
        self.states = states
        self.interfaces = interfaces
        self.tool = PathManagerTool()
        self.logger = logger
        (self.wakeUps, self.wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A lease for a job of a session with this type (nil for `none`): held while the job exists, it keeps
    /// the endpoints set for its type. Returns once they are set when this lease changes what they should be.
    public func lease(_ type: MultipathServiceType) async -> MultipathLease? {
        guard type != .none else { return nil }
        let generation = state.withLock { state -> Int? in
            let before = state.wantsAllPaths
            state.leases[type, default: 0] += 1
            let first = !state.inUse
            state.inUse = true
            guard first || before != state.wantsAllPaths else { return nil }
            return state.request()
        }
        if let generation {
            wakeUp.yield()
            await waitUntilDone(generation)
        }
        return MultipathLease(type: type, owner: self)
    }

    /// The paths changed: the endpoints follow, if multipath is in use.
    public func pathsChanged() {
        let asked = state.withLock { state in state.inUse ? state.request() : nil }
        if asked != nil { wakeUp.yield() }
    }

    fileprivate func release(_ type: MultipathServiceType) {
        let asked = state.withLock { state -> Int? in
            let before = state.wantsAllPaths
            state.leases[type, default: 0] -= 1
            return before != state.wantsAllPaths ? state.request() : nil
        }
        if asked != nil { wakeUp.yield() }
    }

    /// Sets the endpoints whenever asked, until cancelled; then removes the ones the service added.
    public func run() async {
        state.withLock { $0.isRunning = true }
        for await _ in wakeUps {
            let (generation, allPathsActive) = state.withLock { ($0.requested, $0.wantsAllPaths) }
            await reconcile(allPathsActive: allPathsActive)
            finish(upTo: generation)
        }
        let ours = state.withLock { state in
            state.isRunning = false
            return state.ours
        }
        finish(upTo: .max)
        for id in ours.sorted() { try? await tool.apply(.delete(id: id)) }
    }

    private func waitUntilDone(_ generation: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                guard state.isRunning, state.done < generation else { return true }
                state.waiters.append((generation, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func finish(upTo generation: Int) {
        let ready = state.withLock { state in
            state.done = max(state.done, min(generation, state.requested))
            let done = state.done
            let ready = state.waiters.filter { generation == .max || $0.generation <= done }
            state.waiters.removeAll { generation == .max || $0.generation <= done }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// One pass: the plan for the paths now, the steps from what the kernel holds, the subflow limit raised.
    private func reconcile(allPathsActive: Bool) async {
        guard PathManagerTool.hasNetworkAdministration() else {
            let warn = state.withLock { state in
                defer { state.warnedAboutPermission = true }
                return !state.warnedAboutPermission
            }
            if warn {
                logger.warning(
                    "Multipath TCP: no CAP_NET_ADMIN, so the network paths are not given to the kernel's path manager; multipath sockets get subflows only from endpoints an operator configured (ip mptcp endpoint)"
                )
            }
            return
        }
        let plan = MultipathEndpointPlan(states: states(), interfaces: interfaces(), allPathsActive: allPathsActive)
        do {
            let ours = state.withLock { $0.ours }
            for step in plan.steps(from: try await tool.endpoints(), ours: ours) {
                try await tool.apply(step)
                state.withLock { state in
                    switch step {
                    case .add(_, let id): state.ours.insert(id)
                    case .delete(let id): state.ours.remove(id)
                    case .setBackup: break
                    }
                }
            }
            let limits = try await tool.limits()
            if limits.subflows < plan.subflowLimit { try await tool.setSubflowLimit(plan.subflowLimit) }
            if limits.addressesAccepted > 0 {
                logger.warning(
                    "Multipath TCP: add_addr_accepted is above 0 in this network namespace, so peers may steer subflows to addresses they announce, which the egress policy never sees (ip mptcp limits set add_addr_accepted 0)"
                )
            }
            logger.info(
                "Multipath TCP endpoints set",
                metadata: [
                    "mptcp.endpoints": "\(plan.endpoints.map { "\($0.address)\($0.isBackup ? " backup" : "")" })",
                    "mptcp.allPathsActive": "\(allPathsActive)",
                ])
        } catch {
            logger.error("Multipath TCP endpoints could not be set", metadata: ["error": "\(error)"])
        }
    }
}

/// Held by a job of a multipath session while it exists (``MultipathEndpoints/lease(_:)``).
public final class MultipathLease: Sendable {
    public let type: MultipathServiceType
    private let owner: MultipathEndpoints

    fileprivate init(type: MultipathServiceType, owner: MultipathEndpoints) {
        (self.type, self.owner) = (type, owner)
    }

    deinit { owner.release(type) }
}
