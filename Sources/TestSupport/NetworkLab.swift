import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Two network namespaces joined by two links, so a test can prove by which link an origin saw a connection
/// arrive ("network paths": a transfer bound to `cell0` must reach the origin from ``cellularAddress``).
///
/// ```
///  service namespace (usvc-xxxxxx)                    origin namespace (uorg-xxxxxx)
///  lo up                                              lo up, + 10.77.9.9/32 (originAddress)
///  cell0 10.77.1.1/24  <──────── veth ────────>  cell0p 10.77.1.2/24
///  wire0 10.77.2.1/24  <──────── veth ────────>  wire0p 10.77.2.2/24
///  10.77.9.9/32 via 10.77.2.2 dev wire0 metric 10   (the default path)
///  10.77.9.9/32 via 10.77.1.2 dev cell0 metric 20   (what a socket bound to cell0 uses)
/// ```
///
/// Both veth pairs are created inside the namespaces (`ip -n SVC link add … netns ORG`), so the host's own
/// namespace never changes; deleting the namespaces deletes the links. Run the service inside the service
/// namespace with `withRunningService(…, networkNamespace: lab.serviceNamespace)`: the test reaches it
/// through a relay (`Tests/Fixtures/netns_relay.py`, a ``FixtureScript``). ``startOrigin()`` runs a
/// ``PathOrigin`` in the origin namespace; its request log (``originRequests()``) names the peer address of
/// every request.
///
/// Needs root, `ip` (iproute2) and a kernel with network namespaces and veth: ``unavailableReason()`` says
/// what is missing, for a test to report as a skip. `stop()` (or deinit) kills the origin and the relays,
/// then deletes both namespaces.
public final class NetworkLab: Sendable {
    /// The origin's address, on its loopback: reachable from the service namespace over either link.
    public static let originAddress = "10.77.9.9"
    /// The service's address on `cell0`.
    public static let cellularAddress = "10.77.1.1"
    /// The service's address on `wire0`.
    public static let wiredAddress = "10.77.2.1"

    /// The namespace the service runs in (`usvc-` and 6 random characters), holding `cell0` and `wire0`.
    public let serviceNamespace: String
    /// The namespace the origin runs in (`uorg-` and the same 6 characters).
    public let originNamespace: String

    private let state = Locked(State())

    private struct State {
        var origin: PathOrigin?
        var relays: [FixtureScript] = []
        var stopped = false
    }

    /// One veth pair: `name` in the service namespace, `peer` in the origin namespace, and the metric of the
    /// service namespace's route to the origin over it.
    private struct Link {
        var name: String
        var address: String
        var peer: String
        var peerAddress: String
        var metric: Int
    }

    private static let links = [
        Link(name: "cell0", address: cellularAddress, peer: "cell0p", peerAddress: "10.77.1.2", metric: 20),
        Link(name: "wire0", address: wiredAddress, peer: "wire0p", peerAddress: "10.77.2.2", metric: 10),
    ]

    private init(serviceNamespace: String, originNamespace: String) {
        self.serviceNamespace = serviceNamespace
        self.originNamespace = originNamespace
    }

    deinit { stop() }

    /// Why this machine cannot build a lab (not root, no `ip`, no Python, `ip netns add` or veth failing), or
    /// nil when it can. Probed once per test process by creating and deleting a namespace with a veth pair.
    public static func unavailableReason() -> String? { probedUnavailableReason }

    /// Creates the two namespaces, links and routes described in the type's documentation.
    /// - Throws: ``NetworkLabError`` with `ip`'s stderr when a step fails; what was made is removed first.
    public static func start() async throws -> NetworkLab {
        if let reason = unavailableReason() {
            throw NetworkLabError("network namespaces are unavailable: \(reason)")
        }
        let suffix = randomSuffix()
        let lab = NetworkLab(serviceNamespace: "usvc-\(suffix)", originNamespace: "uorg-\(suffix)")
        do {
            try lab.build()
        } catch {
            lab.stop()
            throw error
        }
        return lab
    }

    /// Starts a ``PathOrigin`` in the origin namespace on `0.0.0.0`, on a port the OS picks (read from its
    /// port file within 10 s). One origin per lab.
    /// - Returns: Its base URL, `http://10.77.9.9:PORT`, without a trailing slash.
    /// - Throws: ``NetworkLabError`` when the lab is stopped, already has an origin, or the script does not
    ///   come up (with its stderr).
    ///
    /// With `multipath` the origin listens on a Multipath TCP socket and logs what the kernel says of each
    /// response's connection (``originMultipathConnections()``).
    public func startOrigin(multipath: Bool = false) async throws -> String {
        try self.state.withLock { state in
            guard !state.stopped else { throw NetworkLabError("the lab is stopped") }
            guard state.origin == nil else { throw NetworkLabError("the lab already has an origin") }
        }
        let origin = try await PathOrigin.start(host: "0.0.0.0", namespace: self.originNamespace, multipath: multipath)
        try self.adopt(origin.stop) { state in
            guard state.origin == nil else { throw NetworkLabError("the lab already has an origin") }
            state.origin = origin
        }
        return "http://\(Self.originAddress):\(origin.port)"
    }

    /// Starts a relay from `127.0.0.1` in the test's namespace to `127.0.0.1:targetPort` in `namespace`
    /// (`netns_relay.py`), e.g. to reach the origin from the test process; ``stop()`` kills it.
    /// - Returns: The relay's port on `127.0.0.1`.
    public func startRelay(namespace: String, targetPort: Int) async throws -> Int {
        try self.state.withLock { state in
            guard !state.stopped else { throw NetworkLabError("the lab is stopped") }
        }
        let relay = try await FixtureScript.startRelay(namespace: namespace, targetPort: targetPort)
        try self.adopt(relay.stop) { state in state.relays.append(relay) }
        return relay.port
    }

    /// The origin's request log: one entry per request, in order (peer address, path with query, `Range`).
    /// - Throws: ``NetworkLabError`` when no origin was started or a line is not what `path_origin.py` writes.
    public func originRequests() throws -> [(peer: String, path: String, range: String?)] {
        guard let origin = self.state.withLock({ $0.origin }) else {
            throw NetworkLabError("no origin: call startOrigin() first")
        }
        return try origin.requests().map { entry in
            guard let peer = entry["peer"] as? String, let path = entry["path"] as? String else {
                throw NetworkLabError("unexpected origin log entry: \(entry)")
            }
            return (peer: peer, path: path, range: entry["range"] as? String)
        }
    }

    /// A Multipath TCP origin's log (``PathOrigin/multipathConnections()``).
    /// - Throws: ``NetworkLabError`` when no origin was started.
    public func originMultipathConnections() throws -> [[String: Any]] {
        guard let origin = self.state.withLock({ $0.origin }) else {
            throw NetworkLabError("no origin: call startOrigin() first")
        }
        return try origin.multipathConnections()
    }

    /// Why this machine cannot run Multipath TCP tests (no lab, or the kernel refuses `IPPROTO_MPTCP`
    /// sockets: no MPTCP, or `net.mptcp.enabled` 0), or nil when it can.
    public static func multipathUnavailableReason() -> String? {
        if let reason = unavailableReason() { return reason }
        #if os(Linux)
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 262)  // IPPROTO_MPTCP
            guard probe >= 0 else { return "the kernel refuses Multipath TCP sockets (errno \(errno))" }
            close(probe)
            return nil
        #else
            return "Multipath TCP tests are Linux-only"
        #endif
    }

    /// `ip -n SVC link set NAME up|down` for a link of the service namespace (`cell0` or `wire0`).
    ///
    /// The kernel drops a link's routes when it goes down, so bringing `cell0` or `wire0` up also puts its
    /// route to the origin back (`ip route replace`, same gateway and metric).
    public func setLink(_ name: String, up: Bool) throws {
        try self.ip(["-n", self.serviceNamespace, "link", "set", name, up ? "up" : "down"])
        if up, let link = Self.links.first(where: { $0.name == name }) {
            try self.ip(Self.originRoute(over: link, in: self.serviceNamespace, verb: "replace"))
        }
    }

    /// Runs `ip <arguments>` (e.g. `["-n", lab.serviceNamespace, "route"]`, or `["netns", "exec", NS, …]`)
    /// and returns its stdout. Blocks the calling thread for at most `timeout` seconds.
    /// - Throws: ``NetworkLabError`` with the exit status and stderr when it fails or times out.
    @discardableResult
    public func ip(_ arguments: [String], timeout: Double = 10) throws -> String {
        try Self.runIP(arguments, timeout: timeout)
    }

    /// Kills the origin and the relays, kills any process still inside either namespace (a service the test
    /// did not stop would keep its namespace alive), and deletes both namespaces, which deletes the veths.
    /// Later calls do nothing; deinit calls it too.
    public func stop() {
        let children: (origin: PathOrigin?, relays: [FixtureScript])? = self.state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            defer {
                state.origin = nil
                state.relays = []
            }
            return (state.origin, state.relays)
        }
        guard let children else { return }
        children.origin?.stop()
        for relay in children.relays { relay.stop() }
        for namespace in [self.serviceNamespace, self.originNamespace] {
            Self.killProcesses(in: namespace)
            _ = try? Self.runIP(["netns", "delete", namespace], timeout: 10)
        }
    }

    /// Registers a started child with `register`; a lab stopped meanwhile (or a refusal) stops the child with
    /// `stopChild`.
    private func adopt(_ stopChild: () -> Void, _ register: (inout State) throws -> Void) throws {
        do {
            try self.state.withLock { state in
                guard !state.stopped else { throw NetworkLabError("the lab was stopped while a child started") }
                try register(&state)
            }
        } catch {
            stopChild()
            throw error
        }
    }

    /// The `ip` commands of the topology, in order: links need their namespaces, routes need their links up.
    private func build() throws {
        let service = self.serviceNamespace
        let origin = self.originNamespace
        var commands: [[String]] = [
            ["netns", "add", service],
            ["netns", "add", origin],
            ["-n", service, "link", "set", "lo", "up"],
            ["-n", origin, "link", "set", "lo", "up"],
            ["-n", origin, "address", "add", "\(Self.originAddress)/32", "dev", "lo"],
        ]
        for link in Self.links {
            commands += [
                ["-n", service, "link", "add", link.name, "type", "veth", "peer", "name", link.peer, "netns", origin],
                ["-n", service, "address", "add", "\(link.address)/24", "dev", link.name],
                ["-n", origin, "address", "add", "\(link.peerAddress)/24", "dev", link.peer],
                ["-n", service, "link", "set", link.name, "up"],
                ["-n", origin, "link", "set", link.peer, "up"],
            ]
        }
        commands += Self.links.map { Self.originRoute(over: $0, in: service, verb: "add") }
        for command in commands { try self.ip(command) }
    }

    private static func originRoute(over link: Link, in namespace: String, verb: String) -> [String] {
        [
            "-n", namespace, "route", verb, "\(originAddress)/32", "via", link.peerAddress, "dev", link.name,
            "metric", "\(link.metric)",
        ]
    }

    /// SIGKILLs every process `ip netns pids` finds in `namespace`; they belong to this lab's test alone.
    private static func killProcesses(in namespace: String) {
        guard let output = try? runIP(["netns", "pids", namespace], timeout: 10) else { return }
        for pid in output.split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) where pid > 1 {
            _ = kill(pid, SIGKILL)
        }
    }

    private static func randomSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<6).map { _ in alphabet.randomElement()! })
    }

    private static let probedUnavailableReason: String? = probe()

    private static func probe() -> String? {
        #if os(Linux)
            guard geteuid() == 0 else { return "network namespaces need root (euid \(geteuid()))" }
            guard (try? ipTool()) != nil else { return "no `ip` (iproute2) in /usr/sbin, /usr/bin, /sbin or /bin" }
            guard (try? FixtureScript.python()) != nil else { return "no python3 for the fixture scripts" }
            let name = "usvc-probe-\(randomSuffix())"
            do {
                try runIP(["netns", "add", name], timeout: 10)
            } catch {
                return "`ip netns add` failed: \(error)"
            }
            defer { _ = try? runIP(["netns", "delete", name], timeout: 10) }
            do {
                try runIP(["-n", name, "link", "add", "probe0", "type", "veth", "peer", "name", "probe0p"], timeout: 10)
            } catch {
                return "no veth links: \(error)"
            }
            return nil
        #else
            return "network namespaces are Linux-only"
        #endif
    }
}

// MARK: - Tools

extension NetworkLab {
    /// iproute2's `ip`: the first of `/usr/sbin/ip`, `/usr/bin/ip`, `/sbin/ip`, `/bin/ip` that is executable.
    static func ipTool() throws -> URL {
        let candidates = ["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip", "/bin/ip"]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw NetworkLabError("no `ip` (iproute2) at \(candidates)")
        }
        return URL(fileURLWithPath: found)
    }

    @discardableResult
    static func runIP(_ arguments: [String], timeout: Double) throws -> String {
        try run(try ipTool(), arguments, timeout: timeout)
    }

    /// Runs `tool` to its end and returns its stdout; stdout and stderr go to files, so a chatty tool can
    /// never block on a full pipe. Polls every 2 ms; after `timeout` seconds the tool is killed.
    /// - Throws: ``NetworkLabError`` with the exit status and stderr when it fails or times out.
    static func run(_ tool: URL, _ arguments: [String], timeout: Double) throws -> String {
        let scratch = try TemporaryDirectory.make(prefix: "network-lab-run")
        defer { scratch.remove() }
        let outputURL = scratch.appending("stdout")
        let errorURL = scratch.appending("stderr")
        for url in [outputURL, errorURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw NetworkLabError("could not create \(url.path)")
        }
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.environment = ServiceProcess.childEnvironment(adding: [:])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let command = ([tool.lastPathComponent] + arguments).joined(separator: " ")
        do {
            defer {
                try? output.close()  // the child holds its own duplicates
                try? errors.close()
            }
            try process.run()
        } catch {
            throw NetworkLabError("could not run \(command): \(error)")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, timeout) * 1000))
        while process.isRunning {  // bounded by the deadline; each turn sleeps 2 ms
            guard ContinuousClock.now < deadline else {
                _ = kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw NetworkLabError("\(command) did not finish within \(timeout) s; killed it")
            }
            usleep(2_000)
        }
        let standardError = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw NetworkLabError(
                "\(command) failed with status \(process.terminationStatus): "
                    + standardError.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }
}

/// Building or using a ``NetworkLab``, or starting a ``FixtureScript`` (such as a ``PathOrigin``), failed; the
/// message says why, with `ip`'s or a script's stderr.
public struct NetworkLabError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { "NetworkLabError: \(message)" }

    init(_ message: String) {
        self.message = message
    }
}
