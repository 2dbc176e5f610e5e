import Foundation
import TestSupport
import Testing

/// Task reads (`GET /v1/tasks/{id}`, the session's task list, a task's events page) are answered from
/// memory once read; every change of the task — its progress, completion, a control, its file deleted or
/// expired, its row pruned — shows in the very next read. Each test reads the task first, so the change
/// has a cached answer to make stale.
@Suite("Task reads from memory are never stale")
struct TaskReadsTests {
    /// A service that looks every second, with `settings` added.
    static func environment(_ settings: [String: String]) -> [String: String] {
        TaskEnvironment.loopback.merging(settings.merging(["URLSESSIOND_HOUSEKEEPING_INTERVAL": "1"]) { $1 }) { $1 }
    }

    /// The task, its session's list and its events page, read together.
    struct Reads {
        var task: [String: Any]
        var listed: [String: Any]?
        var eventTypes: [String]

        init(_ api: API, task id: String, session: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            task = try await api.task(id, sourceLocation: sourceLocation)
            let list = try await api.get("/v1/sessions/\(session)/tasks")
            try #require(list.status == 200, "\(list.status): \(list.text)", sourceLocation: sourceLocation)
            listed = (try list.json()["items"] as? [[String: Any]] ?? []).first { $0.taskID == id }
            let page = try await api.get("/v1/tasks/\(id)/events")
            try #require(page.status == 200, "\(page.status): \(page.text)", sourceLocation: sourceLocation)
            eventTypes = (try page.json()["items"] as? [[String: Any]] ?? []).compactMap(\.eventType)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func progressAndCompletionShowInTheNextRead() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/drip?bytes=8&interval=0.25")], "resume": true])
            let id = created.taskID
            var received: [Int] = []
            var last: Reads
            repeat {  // read over and over while the task runs: each read may come from memory
                last = try await Reads(api, task: id, session: session)
                received.append(last.task.count("countOfBytesReceived") ?? -1)
                #expect(last.listed != nil, "\(last.task)")  // read after the task: its state may have moved on
            } while last.task.state != "completed"
            #expect(Set(received).count > 2, "progress showed as it came: \(received)")
            #expect(last.task.count("countOfBytesReceived") == 8, "\(last.task)")
            #expect(last.listed?.state == "completed", "\(String(describing: last.listed))")
            #expect(last.eventTypes.last == "task.didCompleteWithError", "\(last.eventTypes)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func waitingReturnsTheCompletionAndSoDoReadsAfterIt() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/drip?bytes=4&interval=0.2")], "resume": true])
            let before = try await Reads(api, task: created.taskID, session: session)
            #expect(before.task.state == "running", "\(before.task)")
            let waited = try await api.task(created.taskID, wait: 20)
            #expect(waited.state == "completed", "\(waited)")
            let after = try await Reads(api, task: created.taskID, session: session)
            #expect(after.task.state == "completed" && after.listed?.state == "completed", "\(after.task)")
            #expect(after.eventTypes.contains("task.didCompleteWithError"), "\(after.eventTypes)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func suspendResumeAndCancelShowInTheNextRead() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/stall?bytes=1000&total=100000")], "resume": true])
            let id = created.taskID
            _ = try await api.task(id, until: { $0.count("countOfBytesReceived") == 1000 })
            // A cancel answers `canceling` (the transfer is still stopping): the completion follows.
            for (action, states) in [("suspend", ["suspended"]), ("resume", ["running"]), ("cancel", ["canceling", "completed"])] {
                _ = try await Reads(api, task: id, session: session)
                let answer = try await api.taskAction(id, action)
                #expect(answer.status == 200, "\(action): \(answer.status) \(answer.text)")
                let after = try await Reads(api, task: id, session: session)
                #expect(states.contains(after.task.state ?? "") && after.listed?.state != nil, "after \(action): \(after.task)")
            }
            #expect(try await api.completedTask(id).errorCode == -999)
            let cancelled = try await Reads(api, task: id, session: session)
            #expect(cancelled.task.errorCode == -999 && cancelled.listed?.state == "completed", "\(cancelled.task)")
            #expect(cancelled.eventTypes.last == "task.didCompleteWithError", "\(cancelled.eventTypes)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeletedFileLeavesTheNextRead() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/200000")]])
            let before = try await Reads(api, task: task.taskID, session: session)
            #expect(before.task["location"] as? String != nil, "\(before.task)")
            #expect(try await api.delete("/v1/tasks/\(task.taskID)/file").status == 204)
            let after = try await Reads(api, task: task.taskID, session: session)
            #expect(after.task["location"] as? String == nil && after.listed?["location"] as? String == nil, "\(after.task)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anExpiredFileLeavesTheReads() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.environment(["URLSESSIOND_FILE_TTL": "1"])) { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/200000")]])
            #expect(try await Reads(api, task: task.taskID, session: session).task["location"] as? String != nil)
            try await eventually(timeout: 20, interval: 0.05) {
                let reads = try await Reads(api, task: task.taskID, session: session)
                return reads.task["location"] as? String == nil && reads.listed?["location"] as? String == nil
            }
            #expect(try await api.taskFile(task.taskID).status == 404)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPrunedTaskIsNotServedFromMemory() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService(environment: Self.environment(["URLSESSIOND_TASK_RETENTION": "2"])) { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/100")]])
            #expect(try await Reads(api, task: task.taskID, session: session).listed != nil)
            try await eventually(timeout: 30, interval: 0.05) { try await api.getTask(task.taskID).status == 404 }
            #expect(try await api.get("/v1/tasks/\(task.taskID)/events").status == 404)
            let list = try await api.get("/v1/sessions/\(session)/tasks")
            #expect((try list.json()["items"] as? [[String: Any]])?.isEmpty == true, "\(list.text)")
        }
    }
}
