import Foundation
import TestSupport
import Testing

/// `resume()`, `suspend()`, `cancel()` and the `?wait=` long-poll.
@Suite("Tasks: control")
struct TasksControlTests {
    @Test(.timeLimit(.minutes(2)))
    func suspendThenResumeOfARateLimitedDownloadEndsWithTheRightBytes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let count = 1_000_000
            let url = origin.url("/bytes/\(count)?seed=3&rate=400000")
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": url], "resume": true])
            let id = created.taskID
            #expect(created.state == "running", "\(created)")
            _ = try await api.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 0 })

            let suspended = try await api.taskAction(id, "suspend")
            #expect(suspended.status == 200, "\(suspended.text)")
            #expect(try suspended.json().state == "suspended")
            // Suspended means no traffic: the count stands still and no completion happens.
            let first = try await api.task(id)
            try await Task.sleep(for: .milliseconds(700))
            let later = try await api.task(id)
            #expect(later.state == "suspended")
            #expect(later.count("countOfBytesReceived") == first.count("countOfBytesReceived"))
            #expect(isNull(later["error"]))
            // Suspends nest as URLSession's do: suspended twice, it takes two resumes to run again.
            #expect(try await api.taskAction(id, "suspend").status == 200)
            let stillSuspended = try await api.taskAction(id, "resume")
            #expect(stillSuspended.status == 200, "\(stillSuspended.text)")
            #expect(try stillSuspended.json().state == "suspended")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await api.task(id).count("countOfBytesReceived") == first.count("countOfBytesReceived"))

            let resumed = try await api.taskAction(id, "resume")
            #expect(resumed.status == 200, "\(resumed.text)")
            #expect(try resumed.json().state == "running")
            let done = try await api.completedTask(id, within: 40)
            #expect(done.errorCode == nil, "\(done)")
            #expect(done.statusCode == 206, "the response is the rest's, as for resume data")
            #expect(done.count("countOfBytesReceived") == count)
            let file = try await api.taskFile(id)
            #expect(file.status == 200)
            #expect(file.body.count == count)
            #expect(sha256Hex(file.body) == fixtureSHA256(count: count, seed: 3))
            // It went on from where it stopped (Range, If-Range), as after a restart, not from byte 0.
            let requests = origin.requests(path: "/bytes/\(count)")
            #expect(requests.count == 2, "\(requests.map { $0.header("Range") })")
            let range = try #require(requests.last?.header("Range"), "the resumed request asks for the rest")
            let offset = try #require(Int(range.dropFirst("bytes=".count).dropLast()), "\(range)")
            #expect(offset > 0 && offset < count, "\(range)")
            #expect(requests.last?.header("If-Range") != nil)
            let events = try await api.allEvents("/v1/tasks/\(id)/events")
            let resumedAt = events.first { $0.eventType == "downloadTask.didResumeAtOffset" }?.eventData
            #expect(int(resumedAt?["fileOffset"]) == offset, "\(String(describing: resumedAt))")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func rapidSuspendResumeCyclesStillEndWithTheRightBytes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // Four seconds of sending at the origin's pace: the cycles below run in about one, however
            // slow a loaded machine makes each call, so every suspend finds the transfer still running.
            let count = 600_000
            let url = origin.url("/bytes/\(count)?seed=8&rate=150000")
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": url], "resume": true])
            let id = created.taskID
            for cycle in 0..<6 {
                let suspended = try await api.taskAction(id, "suspend")
                #expect(suspended.status == 200, "cycle \(cycle): \(suspended.text)")
                let resumed = try await api.taskAction(id, "resume")
                #expect(resumed.status == 200, "cycle \(cycle): \(resumed.text)")
                #expect(try resumed.json().state == "running", "cycle \(cycle)")
                try await Task.sleep(for: .milliseconds(50 * cycle))
            }
            // Resuming a running task is harmless.
            #expect(try await api.taskAction(id, "resume").status == 200)
            let done = try await api.completedTask(id, within: 40)
            #expect(done.errorCode == nil, "\(done)")
            #expect(done.count("countOfBytesReceived") == count)
            let file = try await api.taskFile(id)
            #expect(file.status == 200)
            #expect(sha256Hex(file.body) == fixtureSHA256(count: count, seed: 8))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aSuspendedTaskDoesNotTimeOut() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["timeoutIntervalForRequest": 1, "timeoutIntervalForResource": 2])
            let url = origin.url("/stall?bytes=10&total=100")
            let created = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": url], "resume": true])
            #expect(try await api.taskAction(created.taskID, "suspend").status == 200)
            try await Task.sleep(for: .milliseconds(3000))
            let task = try await api.task(created.taskID)
            #expect(task.state == "suspended", "\(task)")
            #expect(isNull(task["error"]), "suspend stops the timeouts: \(task)")

            // Resumed, the timeouts run again.
            #expect(try await api.taskAction(created.taskID, "resume").status == 200)
            let done = try await api.completedTask(created.taskID, within: 30)
            #expect(done.errorCode == -1001, "\(done)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func cancelCompletesARunningTaskWithCancelled() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = origin.url("/bytes/2000000?seed=1&rate=100000")
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": url], "resume": true])
            let id = created.taskID
            _ = try await api.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 0 })

            let cancel = try await api.post("/v1/tasks/\(id)/cancel", json: #"{"byProducingResumeData": true}"#)
            #expect(cancel.status == 200, "\(cancel.text)")
            let answer = try cancel.json()
            let task = try #require(answer["task"] as? [String: Any], "\(answer)")
            #expect(["canceling", "completed"].contains(task.state ?? ""), "\(task)")
            #expect(answer.keys.contains("resumeData"))

            let done = try await api.completedTask(id, within: 10)
            #expect(done.state == "completed")
            #expect(done.errorCode == -999, "\(done)")
            #expect(done.errorObject?["name"] as? String == "cancelled")
            #expect(isNull(done["location"]))
            #expect(try await api.taskFile(id).status == 404)

            // Completed: cancel, resume and suspend are conflicts, each naming the call and the state.
            for action in ["cancel", "resume", "suspend"] {
                let refused = try await api.taskAction(id, action)
                expectProblem(refused, status: 409, slug: "conflict")
                #expect(
                    (try? refused.json())?["detail"] as? String == "\(action) is not possible now: the task is completed", "\(refused.text)"
                )
            }
            #expect(try await api.task(id).errorCode == -999, "a refused action changed the task")
        }
    }

    /// The cancel stops the attempt before it writes `canceling`, so the stopped attempt's completion can
    /// be written first: that cancel still succeeded and answers the completed task (it once was a 409,
    /// a few in a thousand under load).
    @Test(.timeLimit(.minutes(2)))
    func cancelsThatRaceTheirStoppedAttemptsCompletionAllSucceed() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let statuses = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for seed in 0..<60 {
                    group.addTask {
                        let url = origin.url("/bytes/2000000?seed=\(seed)&rate=50000")
                        let id = try await api.createTask(
                            session: session, ["kind": "download", "request": ["url": url], "resume": true]
                        ).taskID
                        _ = try await api.task(id, until: { ($0.count("countOfBytesReceived") ?? 0) > 0 })
                        let cancel = try await api.post("/v1/tasks/\(id)/cancel", json: #"{"byProducingResumeData": true}"#)
                        return (cancel.status, cancel.text)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let refused = statuses.filter { $0.0 != 200 }
            #expect(refused.isEmpty, "\(refused)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func cancelOfASuspendedTaskCompletesItAtOnce() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            #expect(created.state == "suspended")
            let cancel = try await api.taskAction(created.taskID, "cancel")
            #expect(cancel.status == 200, "\(cancel.text)")
            let task = try await api.task(created.taskID)
            #expect(task.state == "completed")
            #expect(task.errorCode == -999, "\(task)")
            #expect(origin.acceptedConnections == 0, "a task that never resumed reached the origin")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func actionsOnACompletedTaskAreConflicts() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            #expect(task.state == "completed")
            #expect(task.errorCode == nil)
            expectProblem(try await api.taskAction(task.taskID, "cancel"), status: 409, slug: "conflict")
            expectProblem(try await api.taskAction(task.taskID, "resume"), status: 409, slug: "conflict")
            expectProblem(try await api.taskAction(task.taskID, "suspend"), status: 409, slug: "conflict")
            let after = try await api.task(task.taskID)
            #expect(after.errorCode == nil)
            #expect(after.statusCode == 200)
            #expect(origin.requests(path: "/bytes/10").count == 1, "a refused resume ran the task again")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func waitReturnsAtCompletionLongBeforeItsTimeIsUp() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // About 1.5 s of transfer.
            let url = origin.url("/bytes/300000?seed=2&rate=200000")
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": url], "resume": true])
            #expect(created.state == "running")
            let (task, seconds) = try await timed { try await api.task(created.taskID, wait: 20) }
            #expect(task.state == "completed", "\(task)")
            #expect(task.errorCode == nil)
            #expect(seconds < 10, "?wait=20 returned after \(seconds) s for a 1.5 s transfer")

            // On create: the task comes back completed.
            let (direct, createSeconds) = try await timed {
                try await api.createTask(
                    session: session, ["kind": "data", "request": ["url": url], "resume": true], wait: 20)
            }
            #expect(direct.state == "completed", "\(direct)")
            #expect(direct.count("countOfBytesReceived") == 300_000)
            #expect(createSeconds < 10)

            // A completed task answers at once.
            let (again, againSeconds) = try await timed { try await api.task(created.taskID, wait: 20) }
            #expect(again.state == "completed")
            #expect(againSeconds < 2)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func waitReturnsTheCurrentStateWhenTheTimeIsUp() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // 20 s of transfer: still running when the waits end.
            let url = origin.url("/bytes/2000000?seed=2&rate=100000")
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": url], "resume": true], wait: 1)
            #expect(created.state == "running", "\(created)")

            let (task, seconds) = try await timed { try await api.task(created.taskID, wait: 1.5) }
            #expect(task.state == "running", "\(task)")
            #expect(isNull(task["error"]))
            #expect(seconds >= 1.4 && seconds < 5, "?wait=1.5 returned after \(seconds) s")

            // A suspended task is answered as it is, within the wait.
            #expect(try await api.taskAction(created.taskID, "suspend").status == 200)
            let (suspended, suspendedSeconds) = try await timed { try await api.task(created.taskID, wait: 1) }
            #expect(suspended.state == "suspended")
            #expect(suspendedSeconds < 5)
            #expect(try await api.taskAction(created.taskID, "cancel").status == 200)

            // A task created suspended is answered at once; out-of-range waits are refused.
            let (unresumed, unresumedSeconds) = try await timed {
                try await api.postTask(session: session, ["kind": "data", "request": ["url": url]], wait: 1)
            }
            #expect(unresumed.status == 201, "\(unresumed.text)")
            #expect(try unresumed.json().state == "suspended")
            #expect(unresumedSeconds < 0.9, "a suspended task cannot complete: no wait (\(unresumedSeconds) s)")
            let tooLong = try await api.get("/v1/tasks/\(created.taskID)?wait=301")
            #expect([400, 422].contains(tooLong.status), "\(tooLong.status): \(tooLong.text)")
        }
    }
}
