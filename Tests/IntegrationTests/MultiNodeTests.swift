import Foundation
import TestSupport
import Testing

/// Several nodes (the real binary, three processes) on one PostgreSQL database: work created on one runs
/// on all, and a node killed mid-download loses its tasks to another, which continues them by `Range`.
@Suite("Nodes sharing one PostgreSQL database")
struct MultiNodeTests {
    /// Three nodes on a fresh database; the same secret key (rows sealed by one are opened by another).
    static func startNodes(
        _ count: Int, database: String, maximumTransfers: Int, under directory: TemporaryDirectory
    ) async throws -> [ServiceProcess] {
        let key = Data((0..<32).map { UInt8($0 * 7 + 1) }).base64EncodedString()
        var nodes: [ServiceProcess] = []
        for index in 1...count {
            let environment = TaskEnvironment.loopback.merging([
                "URLSESSIOND_DATABASE_URL": database, "URLSESSIOND_NODE_ID": "node-\(index)", "URLSESSIOND_LEASE_SECONDS": "5",
                "URLSESSIOND_SECRET_KEY": key, "URLSESSIOND_MAX_TRANSFERS": "\(maximumTransfers)",
            ]) { $1 }
            nodes.append(try await ServiceProcess.start(dataDirectory: directory.appending("node-\(index)"), environment: environment))
        }
        return nodes
    }

    /// How many tasks each node ran, from the rows.
    static func tasksPerNode(_ database: String) async throws -> [String: Int] {
        let name = PostgresServer.databaseName(of: database)
        let text = try await PostgresServer.shared().psql("SELECT node, count(*) FROM task GROUP BY node ORDER BY node", database: name)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            counts[String(parts[0])] = Int(parts[1])
        }
        return counts
    }

    @Test(.timeLimit(.minutes(4)))
    func twoThousandTasksCreatedOnOneNodeRunOnAllThree() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        let nodes = try await Self.startNodes(3, database: database, maximumTransfers: 8, under: directory)
        let client = HTTPClient()
        let first = API(nodes[0], client)
        let session = try await first.makeSession(["urlCache": NSNull()])
        // 2,000 tasks of 2,000 bytes at 40,000 bytes/s (50 ms each): node 1's 8 slots cannot take them all.
        for batch in 0..<20 {
            let tasks: [[String: Any]] = (0..<100).map { index in
                ["kind": "data", "resume": true, "request": ["url": origin.url("/bytes/2000?seed=\(batch * 100 + index)&rate=40000")]]
            }
            let response = try await first.post("/v1/sessions/\(session)/tasks/batch", json: try jsonText(["tasks": tasks]))
            try #require(response.status == 201, "\(response.status): \(response.text)\n\(nodes[0].stderrText().suffix(1500))")
        }
        try await eventually(timeout: 150, interval: 0.5) { try await first.taskCount(session: session, state: "running") == 0 }
        let perNode = try await Self.tasksPerNode(database)
        #expect(perNode.values.reduce(0, +) == 2000, "\(perNode)")
        for index in 1...3 { #expect(perNode["node-\(index)", default: 0] > 0, "node-\(index) ran some: \(perNode)") }

        // Any node answers for the session: the events are gap-free and every task succeeded.
        let events = try await API(nodes[2], client).allEvents("/v1/sessions/\(session)/events")
        #expect(events.compactMap(\.sequence) == Array(1...events.count), "gap-free whichever node wrote")
        let completions = events.filter { $0.eventType == "task.didCompleteWithError" }
        #expect(completions.count == 2000)
        let failed = completions.filter { !($0.eventData?["error"] == nil || $0.eventData?["error"] is NSNull) }
        #expect(failed.isEmpty, "all succeeded: \(failed.count) failed, first \(String(describing: failed.first?.eventData))")
        let nodesList = try await first.as(Tokens.admin).get("/v1/admin/nodes")
        #expect(nodesList.status == 200 && nodesList.text.contains("\"node-3\""), "\(nodesList.text)")
        for node in nodes { #expect(try await node.terminate() == 0) }
    }

    @Test(.timeLimit(.minutes(3)))
    func aKilledNodesDownloadsFinishOnAnotherByRange() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        // Two transfers per node: six downloads, two on each.
        let nodes = try await Self.startNodes(3, database: database, maximumTransfers: 2, under: directory)
        let client = HTTPClient()
        let first = API(nodes[0], client)
        let session = try await first.makeSession(["kind": "background", "identifier": "nodes.test"])
        let size = 1_500_000
        var ids: [String] = []
        for seed in 0..<6 {
            let url = origin.url("/bytes/\(size)?seed=\(seed)&rate=300000")
            // Two created through each node: each runs its own two (a node holds up to twice its slots).
            let api = API(nodes[seed % 3], client)
            ids.append(try await api.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true]).taskID)
        }
        for id in ids { _ = try await first.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 200_000 }, within: 30) }
        try await Task.sleep(for: .milliseconds(400))  // past a checkpoint of the partial files
        let before = try await Self.tasksPerNode(database)
        #expect(before.keys.sorted() == ["node-1", "node-2", "node-3"], "each node runs two: \(before)")
        let name = PostgresServer.databaseName(of: database)
        let orphans = try await PostgresServer.shared().psql(
            "SELECT id FROM task WHERE node = 'node-2' AND state <> 'completed'", database: name
        )
        .split(separator: "\n").map(String.init)
        #expect(!orphans.isEmpty, "node-2 is mid-download when it is killed")
        let killedAt = Date()
        await nodes[1].kill9()

        for id in ids {
            let done = try await first.completedTask(id, within: 60)
            #expect(done.errorCode == nil, "\(done)")
            let seed = UInt64(ids.firstIndex(of: id)!)
            #expect(sha256Hex(try await first.taskFile(id).body) == fixtureSHA256(count: size, seed: seed))
        }
        for id in orphans {
            let node = try await PostgresServer.shared().psql("SELECT node FROM task WHERE id = '\(id)'", database: name)
            #expect(node.hasPrefix("node-1") || node.hasPrefix("node-3"), "\(id) finished on another node: \(node)")
        }
        // No two connections of one task overlapped: a download's second request (the `Range` that
        // continues it) came after node-2 was killed, and each took at most two requests.
        for seed in 0..<6 {
            let requests = origin.requests.filter { $0.query.hasPrefix("seed=\(seed)&") }.sorted { $0.receivedAt < $1.receivedAt }
            #expect((1...2).contains(requests.count), "seed \(seed): \(requests.count) requests")
            if requests.count == 2 {
                #expect(requests[1].receivedAt > killedAt, "seed \(seed) continued only after its node died")
                #expect(requests[1].header("Range") != nil, "seed \(seed) continued by Range")
            }
        }
        let events = try await first.allEvents("/v1/sessions/\(session)/events")
        #expect(events.compactMap(\.sequence) == Array(1...events.count), "gap-free across the takeover")
        for node in [nodes[0], nodes[2]] { #expect(try await node.terminate() == 0) }
    }
}
