import Foundation
import TestSupport
import Testing

/// Multipath TCP over real links: the service runs in a network namespace with two veth links to an
/// origin's namespace (`wire0`, the preferred `wired` path, and `cell0`, the `cellular` one), and the origin
/// listens on a Multipath TCP socket and logs what the kernel says of each connection (`MPTCP_INFO`: its
/// subflows, and the bytes each peer address carried). The service gives its paths to the kernel's path
/// manager as subflow endpoints (it is root in its namespace, so it holds CAP_NET_ADMIN there).
@Suite(
    "Multipath TCP over two links",
    .enabled(
        if: NetworkLab.multipathUnavailableReason() == nil,
        "needs network namespaces and Multipath TCP: \(NetworkLab.multipathUnavailableReason() ?? "")"))
struct MultipathTests {
    /// Runs `body` with a lab, its origin's URL (Multipath TCP unless `plainOrigin`) and a service inside
    /// the lab's service namespace. Once the service has stopped, the endpoints it added are gone.
    static func withLab(plainOrigin: Bool = false, _ body: (NetworkLab, String, API) async throws -> Void) async throws {
        let lab = try await NetworkLab.start()
        defer { lab.stop() }
        let origin = try await lab.startOrigin(multipath: !plainOrigin)
        try await withRunningService(environment: NetworkLinkTests.environment, networkNamespace: lab.serviceNamespace) { service, client in
            try await body(lab, origin, API(service, client))
        }
        #expect(try endpoints(lab).isEmpty, "removed at shutdown")
    }

    static let count = 3_000_000
    static let expectedDigest = sha256Hex((0..<count).map { UInt8($0 % 251) })

    /// The service namespace's MPTCP endpoints: address → is a backup.
    static func endpoints(_ lab: NetworkLab) throws -> [String: Bool] {
        let output = try lab.ip(["-n", lab.serviceNamespace, "-j", "mptcp", "endpoint", "show"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "\(output)")
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { entry in
                (entry["address"] as? String).map { ($0, entry["backup"] as? Bool ?? false) }
            })
    }

    static func isMultipath(_ api: API, _ task: [String: Any]) async throws -> Bool? {
        let metrics = try await api.taskMetrics(task.taskID)
        return (metrics["transactionMetrics"] as? [[String: Any]])?.last?["isMultipath"] as? Bool
    }

    /// `handover`: the connection starts on the wired path with a backup subflow on the cellular one; the
    /// wired link goes down mid-download and the same connection carries on over cellular — no -1005, no
    /// second request, the bytes right.
    @Test(.timeLimit(.minutes(2)))
    func handoverSurvivesTheFirstPathGoingDown() async throws {
        try await Self.withLab { lab, origin, api in
            let session = try await api.makeSession(["multipathServiceType": "handover"])
            let task = try await api.createTask(
                session: session, ["kind": "download", "resume": true, "request": ["url": origin + "/bytes/\(Self.count)?rate=400000"]])
            _ = try await api.task(task.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 400_000 }, within: 30)
            #expect(try Self.endpoints(lab) == [NetworkLab.wiredAddress: false, NetworkLab.cellularAddress: true])
            try lab.setLink("wire0", up: false)
            let done = try await api.completedTask(task.taskID, within: 60)
            #expect(done.errorObject == nil && done.count("countOfBytesReceived") == Self.count, "\(done)")
            let file = try await api.taskFile(done.taskID)
            #expect(sha256Hex(file.body) == Self.expectedDigest, "the bytes are the origin's")

            let requests = try lab.originRequests().filter { $0.path.hasPrefix("/bytes/") }
            #expect(requests.count == 1 && requests.first?.peer == NetworkLab.wiredAddress, "one request, never continued: \(requests)")
            let connection = try #require(try lab.originMultipathConnections().last)
            #expect(connection["mptcp"] as? Bool == true && connection["complete"] as? Bool == true, "\(connection)")
            let bytes = try #require(connection["bytesByPeer"] as? [String: Int], "\(connection)")
            #expect(
                (bytes[NetworkLab.wiredAddress] ?? 0) > 0 && (bytes[NetworkLab.cellularAddress] ?? 0) > 0, "both paths carried it: \(bytes)"
            )
            #expect(try await Self.isMultipath(api, done) == true)
        }
    }

    /// `aggregate`: subflows on both paths, neither a backup; the origin sees two subflows on one connection.
    @Test(.timeLimit(.minutes(2)))
    func aggregateOpensASubflowOnEveryPath() async throws {
        try await Self.withLab { lab, origin, api in
            let session = try await api.makeSession(["multipathServiceType": "aggregate"])
            let running = try await api.createTask(
                session: session, ["kind": "data", "resume": true, "request": ["url": origin + "/bytes/500000?rate=250000"]])
            _ = try await api.task(running.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 0 }, within: 30)
            #expect(try Self.endpoints(lab) == [NetworkLab.wiredAddress: false, NetworkLab.cellularAddress: false], "no backup")
            let task = try await api.completedTask(running.taskID, within: 30)
            #expect(task.statusCode == 200 && task.count("countOfBytesReceived") == 500_000, "\(task)")
            let connection = try #require(try lab.originMultipathConnections().last)
            #expect(connection["mptcp"] as? Bool == true && connection["subflows"] as? Int == 1, "two subflows in all: \(connection)")
            let peers = Set((connection["bytesByPeer"] as? [String: Int])?.keys.map { $0 } ?? [])
            #expect(peers == [NetworkLab.wiredAddress, NetworkLab.cellularAddress], "\(connection)")
            #expect(try await Self.isMultipath(api, task) == true)
            // The endpoints belong to the namespace: with no interactive or aggregate transfer left, the
            // other paths are backups again (as handover wants them).
            try await eventually(timeout: 10, interval: 0.1) {
                try Self.endpoints(lab) == [NetworkLab.wiredAddress: false, NetworkLab.cellularAddress: true]
            }
        }
    }

    /// Without CAP_NET_ADMIN the service leaves the path manager alone and says so; its sockets are still
    /// Multipath TCP, with subflows from the endpoints an operator configured.
    @Test(.timeLimit(.minutes(2)))
    func withoutNetworkAdministrationSubflowsComeFromTheOperatorsEndpoints() async throws {
        let lab = try await NetworkLab.start()
        defer { lab.stop() }
        let origin = try await lab.startOrigin(multipath: true)
        try lab.ip([
            "-n", lab.serviceNamespace, "mptcp", "endpoint", "add", NetworkLab.cellularAddress, "dev", "cell0", "id", "42", "subflow",
        ])
        try await withRunningService(
            environment: NetworkLinkTests.environment, networkNamespace: lab.serviceNamespace, droppingCapabilities: ["net_admin"]
        ) { service, client in
            let api = API(service, client)
            let session = try await api.makeSession(["multipathServiceType": "handover"])
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin + "/bytes/300000?rate=600000"]])
            #expect(task.statusCode == 200 && task.count("countOfBytesReceived") == 300_000, "\(task)")
            let connection = try #require(try lab.originMultipathConnections().last)
            #expect(connection["mptcp"] as? Bool == true && connection["subflows"] as? Int == 1, "\(connection)")
            #expect(try await Self.isMultipath(api, task) == true)
            #expect(service.stderrText().contains("no CAP_NET_ADMIN"))
        }
        #expect(try Self.endpoints(lab) == [NetworkLab.cellularAddress: false], "the operator's endpoint, untouched")
    }

    /// `none` opens plain TCP, even to a Multipath TCP origin.
    @Test(.timeLimit(.minutes(2)))
    func noneOpensPlainTCP() async throws {
        try await Self.withLab { lab, origin, api in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin + "/bytes/1000"]])
            #expect(task.statusCode == 200, "\(task)")
            let connection = try #require(try lab.originMultipathConnections().last)
            #expect(connection["mptcp"] as? Bool == false, "\(connection)")
            #expect(try await Self.isMultipath(api, task) == false)
        }
    }

    /// An origin that does not speak Multipath TCP gets plain TCP (the kernel falls back on the same
    /// socket): the task completes and its metrics say it was not multipath.
    @Test(.timeLimit(.minutes(2)))
    func aPlainTCPOriginStillWorksWithMultipathOn() async throws {
        try await Self.withLab(plainOrigin: true) { lab, origin, api in
            let session = try await api.makeSession(["multipathServiceType": "interactive"])
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin + "/bytes/100000"]])
            #expect(task.statusCode == 200 && task.count("countOfBytesReceived") == 100_000, "\(task)")
            #expect(try await Self.isMultipath(api, task) == false)
            #expect(try lab.originRequests().count == 1)
        }
    }
}
