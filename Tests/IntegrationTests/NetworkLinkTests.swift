import Foundation
import TestSupport
import Testing

/// Network paths over real links: the service runs in a network namespace with two veth links to an
/// origin's namespace — `wire0` (the `wired` path) and `cell0` (the `cellular` one) — and the origin says
/// which link each connection came by (its peer address). Links go down and up with `ip link`, as an
/// uplink would, so the automatic state is what moves the tasks.
@Suite(
    "Network paths over real links",
    .enabled(if: NetworkLab.unavailableReason() == nil, "needs network namespaces: \(NetworkLab.unavailableReason() ?? "")"))
struct NetworkLinkTests {
    static let environment = Tokens.environment.merging([
        "URLSESSIOND_EGRESS_ALLOW": "10.77.0.0/16",
        "URLSESSIOND_NETWORKS": "wired:interface=wire0,type=wiredEthernet;cell:interface=cell0,type=cellular",
    ]) { $1 }

    /// Runs `body` with a lab, its origin's URL and a service inside the lab's service namespace.
    static func withLab(_ body: (NetworkLab, String, API) async throws -> Void) async throws {
        let lab = try await NetworkLab.start()
        defer { lab.stop() }
        let origin = try await lab.startOrigin()
        try await withRunningService(environment: environment, networkNamespace: lab.serviceNamespace) { service, client in
            try await body(lab, origin, API(service, client))
        }
    }

    /// Waits until `/v1/networks` shows the path in that state (the monitor looks once a second).
    static func awaitPath(_ api: API, _ name: String, available: Bool) async throws {
        try await eventually(timeout: 10, interval: 0.1) {
            let items = try await api.get("/v1/networks").json()["items"] as? [[String: Any]]
            return items?.first { $0["name"] as? String == name }?["available"] as? Bool == available
        }
    }

    static func peer(_ api: API, session: String, _ url: String) async throws -> String {
        let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
        #expect(task.statusCode == 200, "\(task)")
        return try await api.taskData(task.taskID).text
    }

    @Test(.timeLimit(.minutes(2)))
    func theFlagsChooseTheLinkAndAWaitingTaskStartsWhenItsLinkComesUp() async throws {
        try await Self.withLab { lab, origin, api in
            let whoami = origin + "/whoami"
            let anyPath = try await api.makeSession()
            let noCellular = try await api.makeSession(["allowsCellularAccess": false])
            #expect(try await Self.peer(api, session: noCellular, whoami) == NetworkLab.wiredAddress)
            #expect(try await Self.peer(api, session: anyPath, whoami) == NetworkLab.wiredAddress, "wired is preferred")

            try lab.setLink("wire0", up: false)
            try await Self.awaitPath(api, "wired", available: false)
            #expect(try await Self.peer(api, session: anyPath, whoami) == NetworkLab.cellularAddress)
            let refused = try await api.runTask(session: noCellular, ["kind": "data", "request": ["url": whoami]])
            #expect(refused.errorCode == -1009, "\(refused)")
            #expect((refused.errorObject?["userInfo"] as? [String: Any])?["NSURLErrorNetworkUnavailableReasonKey"] as? String == "cellular")

            let waits = try await api.makeSession(["allowsCellularAccess": false, "waitsForConnectivity": true])
            let waiting = try await api.createTask(session: waits, ["kind": "data", "resume": true, "request": ["url": whoami]])
            try await Task.sleep(for: .seconds(1))
            #expect(try await api.task(waiting.taskID).state == "running")
            try lab.setLink("wire0", up: true)
            let done = try await api.completedTask(waiting.taskID, within: 20)
            #expect(try await api.taskData(done.taskID).text == NetworkLab.wiredAddress, "it went when the link came up")
            let events = try await api.allEvents("/v1/tasks/\(done.taskID)/events")
            #expect(events.filter { $0.eventType == "task.taskIsWaitingForConnectivity" }.count == 1)
            let metrics = try await api.taskMetrics(done.taskID)
            let transaction = (metrics["transactionMetrics"] as? [[String: Any]])?.last
            #expect(transaction?["networkPath"] as? String == "wired" && transaction?["networkInterface"] as? String == "wire0")
            #expect(transaction?["localAddress"] as? String == NetworkLab.wiredAddress)

            // The admin's override moves a waiting task the same way.
            let admin = api.as(Tokens.admin)
            #expect(try await admin.put("/v1/admin/networks/wired", json: #"{"available": false}"#).status == 200)
            let second = try await api.createTask(session: waits, ["kind": "data", "resume": true, "request": ["url": whoami]])
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await api.task(second.taskID).state == "running")
            #expect(try await admin.put("/v1/admin/networks/wired", json: #"{"available": true}"#).status == 200)
            #expect(try await api.completedTask(second.taskID, within: 20).statusCode == 200)
        }
    }

    /// The wired link goes away mid-download: the transfer ends (-1005) and the background task goes on
    /// by `Range` over the cellular link, to a file identical to the origin's bytes.
    @Test(.timeLimit(.minutes(2)))
    func aBackgroundDownloadContinuesByRangeOverTheOtherLink() async throws {
        try await Self.withLab { lab, origin, api in
            let count = 3_000_000
            let session = try await api.makeSession(["kind": "background", "identifier": "lab.continue"])
            let task = try await api.createTask(
                session: session, ["kind": "download", "resume": true, "request": ["url": origin + "/bytes/\(count)?rate=300000"]])
            _ = try await api.task(task.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 300_000 }, within: 30)
            try lab.setLink("wire0", up: false)
            let done = try await api.completedTask(task.taskID, within: 60)
            #expect(done.errorObject == nil && done.count("countOfBytesReceived") == count, "\(done)")
            let file = try await api.taskFile(done.taskID)
            #expect(file.body.count == count)
            #expect(sha256Hex(file.body) == sha256Hex((0..<count).map { UInt8($0 % 251) }), "the bytes are the origin's")

            let requests = try lab.originRequests().filter { $0.path.hasPrefix("/bytes/") }
            #expect(requests.first?.peer == NetworkLab.wiredAddress && requests.first?.range == nil, "\(requests)")
            let continued = try #require(requests.last, "\(requests)")
            #expect(continued.peer == NetworkLab.cellularAddress, "\(requests)")
            #expect(continued.range?.hasPrefix("bytes=") == true && continued.range != "bytes=0-", "\(requests)")
            let metrics = try await api.taskMetrics(done.taskID)
            #expect((metrics["transactionMetrics"] as? [[String: Any]])?.last?["networkPath"] as? String == "cell")
        }
    }
}
