import Foundation
import TestSupport
import Testing

/// Network paths on loopback: two paths that both reach 127.0.0.1 — `wired` bound to the `lo` device and
/// `cell`, a cellular path bound to the address 127.0.0.1 — whose state the admin overrides. What the
/// flags choose, -1009 and its reason, waiting for connectivity, a path lost mid-transfer, the metrics.
/// The same behaviours over real links (veth pairs in network namespaces) are in `NetworkLinkTests`.
@Suite("Network paths chosen by the flags")
struct NetworkPathSelectionTests {
    static let twoPaths = TaskEnvironment.loopback.merging([
        "URLSESSIOND_NETWORKS": "wired:interface=lo,type=wiredEthernet;cell:address=127.0.0.1,type=cellular"
    ]) { $1 }

    /// `PUT /v1/admin/networks/{name}` as the admin: true, false, or nil to hand the path back to its link.
    static func setPath(_ api: API, _ name: String, available: Bool?) async throws {
        let body = available.map { #"{"available": \#($0)}"# } ?? #"{"available": null}"#
        let answer = try await api.as(Tokens.admin).put("/v1/admin/networks/\(name)", json: body)
        try #require(answer.status == 200, "\(answer.status): \(answer.text)")
    }

    static func lastTransaction(_ api: API, _ task: [String: Any]) async throws -> [String: Any] {
        let metrics = try await api.taskMetrics(task.taskID)
        return try #require((metrics["transactionMetrics"] as? [[String: Any]])?.last, "\(metrics)")
    }

    static func reason(_ task: [String: Any]) -> String? {
        (task.errorObject?["userInfo"] as? [String: Any])?["NSURLErrorNetworkUnavailableReasonKey"] as? String
    }

    @Test(.timeLimit(.minutes(1)))
    func theMostPreferredPathTheFlagsAllowIsUsedAndNamedInTheMetrics() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.twoPaths) { api, service in
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/echo")]]
            let session = try await api.makeSession()
            let wired = try await Self.lastTransaction(api, try await api.runTask(session: session, request))
            #expect(wired["networkPath"] as? String == "wired" && wired["networkInterface"] as? String == "lo", "\(wired)")
            #expect(wired["isCellular"] as? Bool == false && wired["isExpensive"] as? Bool == false)

            try await Self.setPath(api, "wired", available: false)
            let cell = try await Self.lastTransaction(api, try await api.runTask(session: session, request))
            #expect(cell["networkPath"] as? String == "cell" && cell["networkInterface"] as? String == "127.0.0.1", "\(cell)")
            #expect(cell["isCellular"] as? Bool == true && cell["isExpensive"] as? Bool == true)

            // Refused by the flags (the session's, or the request's own), with why.
            let noCellular = try await api.makeSession(["allowsCellularAccess": false])
            let refused = try await api.runTask(session: noCellular, request)
            #expect(refused.errorCode == -1009 && Self.reason(refused) == "cellular", "\(refused)")
            var ownFlag = request
            ownFlag["request"] = ["url": origin.url("/echo"), "allowsCellularAccess": false]
            #expect(Self.reason(try await api.runTask(session: session, ownFlag)) == "cellular")
            let noExpensive = try await api.makeSession(["allowsExpensiveNetworkAccess": false])
            #expect(Self.reason(try await api.runTask(session: noExpensive, request)) == "expensive")
            try await Self.setPath(api, "cell", available: false)
            let nothing = try await api.runTask(session: session, request)
            #expect(nothing.errorCode == -1009 && Self.reason(nothing) == nil, "no path at all: \(nothing)")

            let listed = try await api.get("/v1/networks").json()
            let items = try #require(listed["items"] as? [[String: Any]])
            #expect(items.map { $0["name"] as? String } == ["wired", "cell"])
            #expect(items.first?["adminOverride"] as? Bool == false && items.first?["linkUp"] as? Bool == true)
            #expect(items.last?["type"] as? String == "cellular" && items.last?["expensive"] as? Bool == true)
            let metrics = try await api.get("/metrics").text
            #expect(metrics.contains(#"urlsessiond_network_path_available{path="wired"} 0"#), "\(metrics)")
            #expect(metrics.contains(#"urlsessiond_network_path_changes_total{path="wired"} 1"#))
            #expect(service.stderrText().contains("path.name=wired"), "the change is logged")
        }
    }

    /// `waitsForConnectivity`: the task stays running, is announced once however often the paths change
    /// while it waits, and starts when a path it may use comes back.
    @Test(.timeLimit(.minutes(1)))
    func aWaitingTaskIsAnnouncedOnceAndStartsWhenAUsablePathComesBack() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.twoPaths) { api, _ in
            try await Self.setPath(api, "wired", available: false)
            let session = try await api.makeSession(["allowsCellularAccess": false, "waitsForConnectivity": true])
            let task = try await api.createTask(
                session: session, ["kind": "data", "resume": true, "request": ["url": origin.url("/echo")]])
            let waiting = try await api.task(task.taskID) { _ in true }
            #expect(waiting.state == "running", "\(waiting)")
            try await Self.setPath(api, "cell", available: false)  // changes that give it nothing usable
            try await Self.setPath(api, "cell", available: nil)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.task(task.taskID).state == "running")
            #expect(origin.requests(path: "/echo").isEmpty, "no connection while waiting")

            try await Self.setPath(api, "wired", available: nil)
            let done = try await api.completedTask(task.taskID, within: 20)
            #expect(done.statusCode == 200, "\(done)")
            let events = try await api.allEvents("/v1/tasks/\(task.taskID)/events")
            #expect(events.filter { $0.eventType == "task.taskIsWaitingForConnectivity" }.count == 1, "\(events.map(\.eventType))")
            let metrics = try await Self.lastTransaction(api, done)
            #expect(metrics["networkPath"] as? String == "wired")
        }
    }

    /// While it waits, its `timeoutIntervalForResource` runs, and `cancel()` ends it at once.
    @Test(.timeLimit(.minutes(1)))
    func aWaitingTaskTimesOutOrIsCancelled() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            try await Self.setPath(api, "default", available: false)
            let failing = try await api.makeSession()
            #expect(try await api.runTask(session: failing, ["kind": "data", "request": ["url": origin.url("/echo")]]).errorCode == -1009)

            let session = try await api.makeSession(["waitsForConnectivity": true, "timeoutIntervalForResource": 2])
            let request: [String: Any] = ["kind": "data", "request": ["url": origin.url("/echo")]]
            let timedOut = try await api.runTask(session: session, request, within: 15)
            #expect(timedOut.errorCode == -1001, "\(timedOut)")
            let waits = try await api.makeSession(["waitsForConnectivity": true])
            var body = request
            body["resume"] = true
            let task = try await api.createTask(session: waits, body)
            #expect(try await api.taskAction(task.taskID, "cancel").status == 200)
            #expect(try await api.completedTask(task.taskID, within: 10).errorCode == -999)
            #expect(origin.requests(path: "/echo").isEmpty)
        }
    }

    /// A path that goes down ends its transfers with -1005; a waiting session's task that had no
    /// response yet waits and continues on a path its flags allow.
    @Test(.timeLimit(.minutes(1)))
    func aPathLostMidTransferFailsUnlessTheTaskWaitsForConnectivity() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.twoPaths) { api, _ in
            let slow: [String: Any] = ["kind": "data", "resume": true, "request": ["url": origin.url("/slow-headers?delay=2")]]
            let plain = try await api.makeSession(["allowsCellularAccess": false])
            let failing = try await api.createTask(session: plain, slow)
            let waits = try await api.makeSession(["allowsCellularAccess": false, "waitsForConnectivity": true])
            let riding = try await api.createTask(session: waits, slow)
            try await eventually(timeout: 10, interval: 0.05) { origin.requests(path: "/slow-headers").count == 2 }
            try await Self.setPath(api, "wired", available: false)
            let lost = try await api.completedTask(failing.taskID, within: 10)
            #expect(lost.errorCode == -1005, "\(lost)")
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await api.task(riding.taskID).state == "running", "it waits for a path")
            try await Self.setPath(api, "wired", available: nil)
            let done = try await api.completedTask(riding.taskID, within: 20)
            #expect(done.statusCode == 200, "\(done)")
            #expect(origin.requests(path: "/slow-headers").count == 3, "sent again once the path came back")
        }
    }

    /// `networkServiceType` marks the sockets: the origin reads the TOS byte its peer's packets carry.
    @Test(.timeLimit(.minutes(1)))
    func theNetworkServiceTypeSetsTheSocketsDSCP() async throws {
        let origin = try await PathOrigin.startOnLoopback()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            for (type, tos) in [("default", "0"), ("background", "32"), ("responsiveData", "72"), ("video", "136"), ("voice", "184")] {
                let session = try await api.makeSession(["networkServiceType": type])
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url + "/tos"]])
                #expect(try await api.taskData(task.taskID).text == tos, "\(type)")
            }
        }
    }

    /// A path's own proxy is the system proxy of the transfers that leave by it.
    @Test(.timeLimit(.minutes(1)))
    func aPathsOwnProxyCarriesItsTransfers() async throws {
        let (target, proxy) = (try FixtureOrigin.start(), try FixtureOrigin.start())
        defer {
            target.stop()
            proxy.stop()
        }
        let environment = TaskEnvironment.loopback.merging([
            "URLSESSIOND_NETWORKS": "office:interface=lo,proxy=http://127.0.0.1:\(proxy.port);direct:address=127.0.0.1"
        ]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            let request: [String: Any] = ["kind": "data", "request": ["url": target.url("/echo")]]
            let proxied = try await api.runTask(session: session, request)
            #expect(proxied.statusCode == 200 && proxy.requests(path: "/echo").count == 1 && target.requests(path: "/echo").isEmpty)
            try await Self.setPath(api, "office", available: false)
            #expect(try await api.runTask(session: session, request).statusCode == 200)
            #expect(target.requests(path: "/echo").count == 1, "the other path has no proxy")
            let items = try await api.get("/v1/networks").json()["items"] as? [[String: Any]]
            #expect(items?.first?["proxy"] as? String == "http://127.0.0.1:\(proxy.port)")
        }
    }

    /// The operator's proxy is URLSession's system proxy: used by default, `{}` goes direct, a session's
    /// own dictionary wins, and `URLSESSIOND_NO_PROXY` exempts hosts.
    @Test(.timeLimit(.minutes(1)))
    func theOperatorsProxyIsTheSystemProxy() async throws {
        let (target, systemProxy, sessionProxy) = (try FixtureOrigin.start(), try FixtureOrigin.start(), try FixtureOrigin.start())
        defer {
            for origin in [target, systemProxy, sessionProxy] { origin.stop() }
        }
        let environment = TaskEnvironment.loopback.merging([
            "URLSESSIOND_PROXY": "http://127.0.0.1:\(systemProxy.port)", "URLSESSIOND_NO_PROXY": "localhost",
        ]) { $1 }
        try await withTaskService(environment: environment) { api, _ in
            func run(_ configuration: [String: Any], _ url: String) async throws -> [String: Any] {
                let session = try await api.makeSession(configuration)
                return try await api.runTask(session: session, ["kind": "data", "request": ["url": url]])
            }
            let url = target.url("/echo")
            let proxied = try await run([:], url)
            #expect(proxied.statusCode == 200)
            #expect(systemProxy.requests(path: "/echo").count == 1 && target.requests(path: "/echo").isEmpty, "went by the proxy")
            #expect(try await Self.lastTransaction(api, proxied)["isProxyConnection"] as? Bool == true)

            let direct = try await run(["connectionProxyDictionary": [String: Any]()], url)
            #expect(target.requests(path: "/echo").count == 1, "{} is a direct connection")
            #expect(try await Self.lastTransaction(api, direct)["isProxyConnection"] as? Bool == false)

            let own: [String: Any] = ["HTTPEnable": true, "HTTPProxy": "127.0.0.1", "HTTPPort": sessionProxy.port]
            _ = try await run(["connectionProxyDictionary": own], url)
            #expect(sessionProxy.requests(path: "/echo").count == 1, "the session's dictionary wins")
            #expect(systemProxy.requests(path: "/echo").count == 1)

            let exempt = try await run([:], "http://localhost:\(target.port)/echo")
            #expect(exempt.statusCode == 200 && target.requests(path: "/echo").count == 2, "NO_PROXY: direct")
        }
    }
}
