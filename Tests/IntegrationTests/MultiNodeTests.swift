import Foundation
import TestSupport
import Testing

/// Several nodes (the real binary, three processes) on one PostgreSQL database: work created on one runs
/// on all, and a node killed mid-download loses its tasks to another, which continues them by `Range`.
@Suite("Nodes sharing one PostgreSQL database")
struct MultiNodeTests {
    /// Nodes on a fresh database, as a cluster is deployed: one data directory they all mount (a file one
    /// writes, another serves or continues) and the same secret key (rows sealed by one are opened by
    /// another).
    static func startNodes(
        _ count: Int, database: String, maximumTransfers: Int, under directory: TemporaryDirectory,
        environment extra: [String: String] = [:]
    ) async throws -> [ServiceProcess] {
        var nodes: [ServiceProcess] = []
        for index in 1...count {
            nodes.append(
                try await startNode(index, database: database, maximumTransfers: maximumTransfers, under: directory, environment: extra))
        }
        return nodes
    }

    static func startNode(
        _ index: Int, database: String, maximumTransfers: Int, under directory: TemporaryDirectory,
        environment extra: [String: String] = [:]
    ) async throws -> ServiceProcess {
        let key = Data((0..<32).map { UInt8($0 * 7 + 1) }).base64EncodedString()
        let environment = TaskEnvironment.loopback.merging([
            "URLSESSIOND_DATABASE_URL": database, "URLSESSIOND_NODE_ID": "node-\(index)", "URLSESSIOND_LEASE_SECONDS": "5",
            "URLSESSIOND_SECRET_KEY": key, "URLSESSIOND_MAX_TRANSFERS": "\(maximumTransfers)",
        ]) { $1 }.merging(extra) { $1 }
        return try await ServiceProcess.start(dataDirectory: directory.appending("data"), environment: environment)
    }

    /// Two nodes of four transfer slots on a fresh database (a tenant takes at most half of a node's slots,
    /// `tenantTransferLimit`, so two of its tasks run on each at once): `body` gets their APIs and the
    /// database's URL; both nodes are stopped after it and must exit cleanly.
    static func withTwoNodes(environment: [String: String] = [:], _ body: ([API], String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        let nodes = try await startNodes(2, database: database, maximumTransfers: 4, under: directory, environment: environment)
        let client = HTTPClient()
        try await body(nodes.map { API($0, client) }, database)
        for node in nodes { #expect(try await node.terminate() == 0) }
    }

    /// How many tasks each node ran, from the rows (`filter`: an SQL condition on `task`).
    static func tasksPerNode(_ database: String, where filter: String = "true") async throws -> [String: Int] {
        let name = PostgresServer.databaseName(of: database)
        let text = try await PostgresServer.shared().psql(
            "SELECT node, count(*) FROM task WHERE \(filter) GROUP BY node ORDER BY node", database: name)
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

    @Test(.timeLimit(.minutes(3)))
    func filesLiveInTheDirectoryEveryNodeShares() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        var nodes = try await Self.startNodes(2, database: database, maximumTransfers: 1, under: directory)
        let client = HTTPClient()
        let first = API(nodes[0], client)
        let session = try await first.makeSession(["urlCache": NSNull()])
        // Two slow downloads fill node 1 (it holds twice its one slot); the uploads created through it next
        // can only be run by node 2, which reads their bodies from the blobs node 1 stored.
        let size = 300_000
        var downloads: [String] = []
        for seed in 0..<2 {
            let url = origin.url("/bytes/\(size)?seed=\(seed)&rate=100000")
            downloads.append(
                try await first.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true]).taskID)
        }
        var uploads: [(id: String, digest: String)] = []
        for seed in 10..<13 {
            let bytes = FixtureOrigin.bytes(count: 200_000, seed: UInt64(seed))
            let blob = try await first.makeBlob(bytes)
            let task: [String: Any] = [
                "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"], "uploadSource": ["blob": blob],
                "resume": true,
            ]
            uploads.append((try await first.createTask(session: session, task).taskID, sha256Hex(bytes)))
        }
        for upload in uploads {
            let task = try await first.completedTask(upload.id, within: 30)
            #expect(task.errorCode == nil && task.statusCode == 200, "\(task)")
            #expect(try await first.echo(of: upload.id).bodySHA256 == upload.digest, "the blob's bytes reached the origin")
        }
        let uploadsPerNode = try await Self.tasksPerNode(database, where: "kind = 'upload'")
        #expect(uploadsPerNode == ["node-2": 3], "node 2 ran the uploads: \(uploadsPerNode)")

        // Node 1's downloads are read whole and by range through node 2.
        for (seed, id) in downloads.enumerated() {
            #expect(try await first.completedTask(id, within: 30).errorCode == nil)
            let second = API(nodes[1], client)
            #expect(sha256Hex(try await second.taskFile(id).body) == fixtureSHA256(count: size, seed: UInt64(seed)))
            let part = try await second.taskFile(id, headers: [("Range", "bytes=1000-1999")])
            #expect(part.status == 206)
            #expect(part.body == Array(FixtureOrigin.bytes(count: size, seed: UInt64(seed))[1000..<2000]))
        }
        #expect(try await Self.tasksPerNode(database, where: "kind = 'download'") == ["node-1": 2])

        // A node starting while another is alive leaves a fresh file no row names (the other may be writing
        // it) and removes one untouched for hours; alone, it removes both.
        let downloadsDirectory = directory.appending("data").appendingPathComponent("downloads")
        let (fresh, stale) = (
            downloadsDirectory.appendingPathComponent("tsk_0000000000000000000001"),
            downloadsDirectory.appendingPathComponent("tsk_0000000000000000000002")
        )
        for file in [fresh, stale] { try Data("orphan".utf8).write(to: file) }
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale.path)
        #expect(try await nodes[1].terminate() == 0)
        nodes[1] = try await Self.startNode(2, database: database, maximumTransfers: 1, under: directory)
        #expect(FileManager.default.fileExists(atPath: fresh.path), "another node is alive: a fresh file may be its")
        #expect(!FileManager.default.fileExists(atPath: stale.path), "a file untouched for hours is a leftover")
        #expect(try await nodes[0].terminate() == 0)
        #expect(try await nodes[1].terminate() == 0)
        nodes[1] = try await Self.startNode(2, database: database, maximumTransfers: 1, under: directory)
        #expect(!FileManager.default.fileExists(atPath: fresh.path), "alone, every file no row names goes")
        for id in downloads { #expect(try await API(nodes[1], client).taskFile(id).status == 200, "named files stay") }
        #expect(try await nodes[1].terminate() == 0)
    }

    /// A node cut off from the database (a partition: its connections stay open, nothing flows) stops its
    /// transfers before its lease runs out; only then does another node continue them, by `Range`. Back in
    /// touch, it runs again what is still its own (nothing: it was taken over).
    @Test(.timeLimit(.minutes(3)))
    func aNodeCutOffFromTheDatabaseStopsItsTransfersBeforeAnotherContinuesThem() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        let server = try await PostgresServer.shared()
        let relay = try await FixtureScript.start("pausable_relay.py", arguments: ["--target-port", "\(server.port)"])
        defer { relay.stop() }
        let cutOff = database.replacingOccurrences(of: ":\(server.port)/", with: ":\(relay.port)/")
        try #require(cutOff != database, "\(database)")
        let first = try await Self.startNode(1, database: database, maximumTransfers: 1, under: directory)
        let second = try await Self.startNode(2, database: cutOff, maximumTransfers: 1, under: directory)
        let client = HTTPClient()
        let api = API(first, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "fence.test"])
        let size = 1_500_000
        let url = origin.url("/bytes/\(size)?seed=7&rate=150000")
        let id = try await API(second, client).createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true])
            .taskID
        _ = try await api.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 150_000 }, within: 30)
        #expect(try await Self.tasksPerNode(database) == ["node-2": 1], "node 2 runs the download it was asked for")

        relay.send(signal: SIGUSR1)
        let cutAt = Date()
        let done = try await api.completedTask(id, within: 60)
        #expect(done.errorCode == nil, "\(done)")
        #expect(sha256Hex(try await api.taskFile(id).body) == fixtureSHA256(count: size, seed: 7))
        #expect(try await Self.tasksPerNode(database) == ["node-1": 1], "node 1 finished it")
        let requests = origin.requests.filter { $0.query.hasPrefix("seed=7&") }.sorted { $0.receivedAt < $1.receivedAt }
        try #require(requests.count == 2, "\(requests.count) requests")
        let firstEnded = try #require(origin.connectionEnded(requests[0].connectionID), "node 2's connection ended")
        #expect(firstEnded < requests[1].receivedAt, "node 2 stopped before node 1 continued: no overlap")
        #expect(firstEnded.timeIntervalSince(cutAt) < 5, "node 2 stopped within its lease (5 s)")
        #expect(requests[1].header("Range") != nil, "continued by Range")

        relay.send(signal: SIGUSR2)
        try await eventually(timeout: 30, interval: 0.5) { second.stderrText().contains("The lease is renewed again") }
        let nodes = try await api.as(Tokens.admin).get("/v1/admin/nodes")
        #expect(nodes.status == 200 && nodes.text.contains("\"node-2\""), "\(nodes.text)")
        let events = try await api.allEvents("/v1/sessions/\(session)/events")
        #expect(events.compactMap(\.sequence) == Array(1...events.count), "gap-free across the partition")
        // A renewal that waited out the partition did not lift the fence, to have it fall back at once.
        let fences = second.stderrText().components(separatedBy: "lease was not renewed in time").count - 1
        #expect(fences == 1, "fenced \(fences) times")
        #expect(try await second.terminate() == 0)
        #expect(try await first.terminate() == 0)
    }

    /// `suspend`, `resume` and `cancel` made on one node reach the node running the task; a `?wait=` on
    /// one node wakes when another completes the task.
    @Test(.timeLimit(.minutes(2)))
    func controlCallsReachTheNodeRunningTheTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await Self.withTwoNodes { apis, database in
            let (first, second) = (apis[0], apis[1])
            let session = try await first.makeSession(["urlCache": NSNull()])
            let size = 1_000_000
            // Created through node 2, so node 2 runs them; controlled through node 1.
            var ids: [String] = []
            for seed in 0..<2 {
                let url = origin.url("/bytes/\(size)?seed=\(seed)&rate=100000")
                ids.append(
                    try await second.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true]).taskID)
            }
            for id in ids { _ = try await first.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 100_000 }, within: 30) }

            let suspended = try await first.taskAction(ids[0], "suspend")
            #expect(suspended.status == 200, "\(suspended.text)")
            #expect(try suspended.json().state == "suspended")
            let before = try await first.task(ids[0]).count("countOfBytesReceived") ?? 0
            try await Task.sleep(for: .milliseconds(600))
            #expect(try await first.task(ids[0]).count("countOfBytesReceived") == before, "node 2 stopped the transfer")
            let resumed = try await first.taskAction(ids[0], "resume")
            #expect(resumed.status == 200, "\(resumed.text)")
            #expect(try resumed.json().state == "running")

            let cancelled = try await first.post("/v1/tasks/\(ids[1])/cancel", json: #"{"byProducingResumeData": true}"#)
            #expect(cancelled.status == 200, "\(cancelled.text)")
            let answer = try cancelled.json()
            #expect(((answer["task"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? Int == -999, "\(answer)")
            #expect(answer["resumeData"] is String, "the resume data node 2 produced: \(answer)")

            // The long-poll on node 1 answers as node 2 completes the task, not at its 30 s timeout.
            let polled = ContinuousClock.now
            let done = try await first.task(ids[0], wait: 30)
            #expect(done.state == "completed" && done.errorCode == nil, "\(done)")
            #expect(ContinuousClock.now - polled < .seconds(15), "woken by the completion")
            #expect(sha256Hex(try await first.taskFile(ids[0]).body) == fixtureSHA256(count: size, seed: 0))

            #expect(try await Self.tasksPerNode(database) == ["node-2": 2], "node 2 ran both throughout")
        }
    }
}
