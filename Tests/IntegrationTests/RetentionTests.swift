import Foundation
import TestSupport
import Testing

/// Finished work goes after its retention (`URLSESSIOND_*_RETENTION`, seconds here), with its rows and
/// files; unfinished work stays; the database file gives the space back.
@Suite("Retention through the real binary")
struct RetentionTests {
    /// A service that looks every second, with `retention` (`URLSESSIOND_…_RETENTION` → seconds).
    static func environment(_ retention: [String: String]) -> [String: String] {
        TaskEnvironment.loopback.merging(retention.merging(["URLSESSIOND_HOUSEKEEPING_INTERVAL": "1"]) { $1 }) { $1 }
    }

    /// A retention that is not whole seconds in range stops the service at start, naming the setting;
    /// the flags are read too.
    @Test(.timeLimit(.minutes(1)))
    func badRetentionSettingsStopTheServiceAtStart() async throws {
        for (name, value) in [
            ("URLSESSIOND_TASK_RETENTION", "0"), ("URLSESSIOND_EVENT_RETENTION", "soon"), ("URLSESSIOND_SESSION_RETENTION", "-5"),
            ("URLSESSIOND_HOUSEKEEPING_INTERVAL", "86401"),
        ] {
            let log = try await expectStartupRefusal(environment: Tokens.environment.merging([name: value]) { $1 })
            #expect(log.contains(name), "\(name)=\(value): \(log)")
        }
        let log = try await expectStartupRefusal(environment: Tokens.environment, arguments: ["--task-retention", "0"])
        #expect(log.contains("URLSESSIOND_TASK_RETENTION"), "\(log)")
    }

    @Test(.timeLimit(.minutes(2)))
    func finishedTasksGoWithTheirEventsAndFilesUnfinishedOnesStay() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.environment(["URLSESSIOND_TASK_RETENTION": "2"])) { api, service in
            let session = try await api.makeSession()
            let download = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/200000")]])
            let data = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1000")]])
            #expect(download.statusCode == 200 && data.statusCode == 200, "\(download) \(data)")
            #expect(service.files(in: "downloads").contains(download.taskID), "the finished download is a file")
            let suspended = try await api.createTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            let running = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/stall?bytes=100000&total=1000000")], "resume": true])
            _ = try await api.task(running.taskID, until: { $0.count("countOfBytesReceived") == 100_000 })

            try await eventually(timeout: 30, interval: 0.2) {
                let (first, second) = (try await api.getTask(download.taskID), try await api.getTask(data.taskID))
                return first.status == 404 && second.status == 404
            }
            #expect(try await api.get("/v1/tasks/\(download.taskID)/events").status == 404)
            #expect(try await api.taskFile(download.taskID).status == 404)
            #expect(!service.files(in: "downloads").contains(download.taskID), "its file went with it")
            let events = try await api.allEvents("/v1/sessions/\(session)/events")
            #expect(!events.contains { [download.taskID, data.taskID].contains($0.eventTaskID) }, "\(events)")

            #expect(try await api.task(suspended.taskID).state == "suspended")
            #expect(try await api.task(running.taskID).state == "running")
            #expect(
                service.files(in: "downloads").contains { $0.hasPrefix(running.taskID) && $0.hasSuffix(".part") }, "its partial file stays")
            #expect(events.contains { $0.eventTaskID == suspended.taskID }, "an unfinished task keeps its events")
            let cancelled = try await api.taskAction(running.taskID, "cancel")
            #expect(cancelled.status == 200, "\(cancelled.status): \(cancelled.text)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func deliveredEventsGoUndeliveredOnesStay() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        try await withTaskService(environment: Self.environment(["URLSESSIOND_EVENT_RETENTION": "2"])) { api, _ in
            let delegated = try await api.makeSessionWith(delegate: receiver.url("/hooks"))
            let polled = try await api.makeSession()
            let first = try await api.runTask(session: delegated, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            let second = try await api.runTask(session: polled, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            let sent = try await api.allEvents("/v1/sessions/\(delegated)/events")
            _ = try await receiver.waitForRequests(count: sent.count, path: "/hooks", timeout: 20)

            try await eventually(timeout: 30, interval: 0.2) {
                try await api.allEvents("/v1/sessions/\(delegated)/events").isEmpty
            }
            #expect(try await api.task(first.taskID).state == "completed", "the task itself stays")
            let kept = try await api.allEvents("/v1/sessions/\(polled)/events")
            #expect(kept.contains { $0.eventTaskID == second.taskID && $0.eventType == "task.didCompleteWithError" }, "\(kept)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func invalidatedSessionsGoValidOnesStay() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.environment(["URLSESSIOND_SESSION_RETENTION": "2"])) { api, _ in
            let ended = try await api.makeSession(["urlCache": ["memoryCapacity": 100_000, "diskCapacity": 1_000_000]])
            let live = try await api.makeSession()
            let task = try await api.runTask(session: ended, ["kind": "data", "request": ["url": origin.url("/bytes/100")]])
            let other = try await api.runTask(session: live, ["kind": "data", "request": ["url": origin.url("/bytes/100")]])
            #expect(try await api.post("/v1/sessions/\(ended)/finishTasksAndInvalidate").status == 200)

            try await eventually(timeout: 30, interval: 0.2) { try await api.get("/v1/sessions/\(ended)").status == 404 }
            #expect(try await api.getTask(task.taskID).status == 404)
            #expect(try await api.get("/v1/sessions/\(ended)/events").status == 404)
            #expect(try await api.get("/v1/sessions/\(live)").status == 200)
            #expect(try await api.task(other.taskID).state == "completed")
        }
    }

    /// Tasks with 40 KiB bodies kept in the store, created, finished and pruned over and over: the
    /// database (as SQLite counts it, WAL included) holds one round at most, and the file on disk shrinks
    /// back after each prune (incremental vacuum). On PostgreSQL the tables keep their files' size but the
    /// housekeeping's vacuum makes the pruned rows' space reusable: the next round fits in it.
    @Test(.timeLimit(.minutes(4)))
    func theDatabaseFileStaysBoundedOverCreateFinishPruneCycles() async throws {
        let python = venvProgram("python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "\(python.path): run `make test-deps`")
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        // Five seconds: a round's 100 tasks all finish before the first of them may go, even on a loaded
        // machine (at 1 s, housekeeping pruned the first of a slow round before its peak was measured).
        try await withTaskService(environment: Self.environment(["URLSESSIOND_TASK_RETENTION": "5"])) { api, service in
            let database = service.dataDirectory.appendingPathComponent("urlsessiond.sqlite").path
            func fileSize() -> Int { ((try? FileManager.default.attributesOfItem(atPath: database))?[.size] as? Int) ?? 0 }
            let session = try await api.makeSession(["urlCache": NSNull()])  // the bodies live in the task rows alone
            var peaks: [Int] = []
            var troughs: [Int] = []
            for round in 0..<4 {
                for index in 0..<100 {
                    let url = origin.url("/bytes/40000?seed=\(round * 1000 + index)")
                    _ = try await api.createTask(session: session, ["kind": "data", "resume": true, "request": ["url": url]])
                }
                try await eventually(timeout: 60, interval: 0.2) { try await api.taskCount(session: session, state: "running") == 0 }
                peaks.append(try await Self.databaseBytes(service, database, python: python))
                try await eventually(timeout: 60, interval: 0.2) { try await api.taskCount(session: session) == 0 }
                if ServiceProcess.testsPostgres {
                    // The pass that pruned the round's last task vacuumed before logging what it pruned: once
                    // no pass has logged for 3 s (passes run every second), that one has.
                    var passes = Self.prunePassesLogged(service)
                    for _ in 0..<10 {
                        try await Task.sleep(for: .seconds(3))
                        guard Self.prunePassesLogged(service) != passes else { break }
                        passes = Self.prunePassesLogged(service)
                    }
                    continue
                }
                try await eventually(timeout: 30, interval: 0.2) { fileSize() < 2_000_000 }
                troughs.append(try await Self.databaseBytes(service, database, python: python))
            }
            #expect(peaks.allSatisfy { $0 > 4_000_000 }, "each round held its 4 MB of bodies: \(peaks)")
            #expect(troughs.allSatisfy { $0 < 2_000_000 }, "and gave them back: \(troughs)")
            #expect(peaks.last! < peaks.first! * 3 / 2, "no growth from round to round: \(peaks)")
        }
    }

    /// The housekeeping passes that logged rows pruned.
    static func prunePassesLogged(_ service: ServiceProcess) -> Int {
        let log = (try? String(contentsOf: service.logFile, encoding: .utf8)) ?? ""
        return log.components(separatedBy: "Pruned rows past their retention").count - 1
    }

    /// The database's size: on PostgreSQL what its tables (with their TOAST and indexes) take on disk;
    /// on SQLite as SQLite sees it (pages × page size, what the WAL holds included), read by another process
    /// through the `sqlite3` module, read-only.
    static func databaseBytes(_ service: ServiceProcess, _ path: String, python: URL) async throws -> Int {
        if ServiceProcess.testsPostgres {
            let url = try String(contentsOf: service.dataDirectory.appendingPathComponent("test-database-url"), encoding: .utf8)
            let sql = "SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace"
            let text = try await PostgresServer.shared().psql(sql, database: PostgresServer.databaseName(of: url))
            return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "\(text)")
        }
        let script = """
            import sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            print(db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0])
            """
        let directory = try TemporaryDirectory.make(prefix: "retention-python")
        defer { directory.remove() }
        let result = try await runProcess(python, arguments: ["-c", script, path], workingDirectory: directory.url, timeout: 20)
        try #require(result.status == 0, "\(result.output)")
        return try #require(Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.output)")
    }
}

extension API {
    /// How many tasks the session lists (in `state`), up to 1,000.
    func taskCount(session: String, state: String? = nil) async throws -> Int {
        let response = try await get("/v1/sessions/\(session)/tasks?limit=1000" + (state.map { "&state=\($0)" } ?? ""))
        try #require(response.status == 200, "\(response.status): \(response.text)")
        return try #require(try response.json()["items"] as? [Any]).count
    }

    /// A session whose delegate is `url`; returns its id.
    func makeSessionWith(delegate url: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let session = try await createSession(json: try jsonText(["delegate": ["url": url]]), sourceLocation: sourceLocation)
        return try #require(session["id"] as? String, sourceLocation: sourceLocation)
    }
}
