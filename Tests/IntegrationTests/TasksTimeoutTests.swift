import Foundation
import TestSupport
import Testing

/// `timeoutIntervalForRequest` (idle: reset by every byte), `timeoutIntervalForResource` (the whole task),
/// and `request.timeoutInterval` winning over the session's value.
@Suite("Tasks: timeouts")
struct TasksTimeoutTests {
    @Test(.timeLimit(.minutes(2)))
    func aSlowDripUnderTheIdleTimeoutCompletes() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["timeoutIntervalForRequest": 1])
            // One byte every 0.5 s for 5 s: never idle for a whole second.
            let (task, seconds) = try await timed {
                try await api.runTask(
                    session: session, ["kind": "data", "request": ["url": origin.url("/drip?bytes=10&interval=0.5")]],
                    within: 30)
            }
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.statusCode == 200)
            #expect(task.count("countOfBytesReceived") == 10)
            #expect(seconds >= 4.5, "the drip lasts 5 s, the task took \(seconds) s")
            let body = try await api.taskData(task.taskID)
            #expect(body.body == Array(repeating: UInt8(ascii: "*"), count: 10))
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aStallTimesOut() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["timeoutIntervalForRequest": 1])
            let url = origin.url("/stall?bytes=100&total=1000")
            for kind in ["data", "download"] {
                let (task, seconds) = try await timed {
                    try await api.runTask(session: session, ["kind": kind, "request": ["url": url]], within: 30)
                }
                #expect(task.state == "completed")
                #expect(task.errorCode == -1001, "\(kind): \(task)")
                #expect(task.errorObject?["name"] as? String == "timedOut")
                #expect(
                    (task.errorObject?["userInfo"] as? [String: Any])?["NSErrorFailingURLStringKey"] as? String == url)
                #expect(seconds < 20, "\(kind): a 1 s idle timeout took \(seconds) s")
                #expect(isNull(task["location"]), "a failed download has no file")
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theResourceTimeoutEndsALongDownload() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["timeoutIntervalForResource": 2])
            // 1 MB at 100 kB/s: 10 s, never idle, so only the resource timeout can end it.
            let url = origin.url("/bytes/1000000?seed=4&rate=100000")
            let (task, seconds) = try await timed {
                try await api.runTask(session: session, ["kind": "download", "request": ["url": url]], within: 30)
            }
            #expect(task.errorCode == -1001, "\(task)")
            #expect(seconds >= 1.5 && seconds < 8, "a 2 s resource timeout took \(seconds) s")
            #expect((task.count("countOfBytesReceived") ?? 0) < 1_000_000)
            #expect(isNull(task["location"]))
            expectProblem(try await api.taskFile(task.taskID), status: 404, slug: "not-found")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theRequestTimeoutIntervalOverridesTheSessions() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            // Shorter than the session's: a stall ends after the request's 1 s, not the session's 60 s.
            let patient = try await api.makeSession(["timeoutIntervalForRequest": 60])
            let (stalled, stallSeconds) = try await timed {
                try await api.runTask(
                    session: patient,
                    [
                        "kind": "data",
                        "request": ["url": origin.url("/stall?bytes=10&total=100"), "timeoutInterval": 1],
                    ], within: 30)
            }
            #expect(stalled.errorCode == -1001, "\(stalled)")
            #expect(
                stallSeconds < 20, "the request's 1 s timeout took \(stallSeconds) s, as if the session's 60 s applied")
            #expect(number((stalled["currentRequest"] as? [String: Any])?["timeoutInterval"]) == 1)

            // Longer than the session's: headers 3 s late are fine with the request's 6 s.
            let hasty = try await api.makeSession(["timeoutIntervalForRequest": 1])
            let late = origin.url("/slow-headers?delay=3")
            let waited = try await api.runTask(
                session: hasty, ["kind": "data", "request": ["url": late, "timeoutInterval": 6]], within: 30)
            #expect(waited.errorCode == nil, "\(waited)")
            #expect(waited.statusCode == 200)
            #expect(number((waited["originalRequest"] as? [String: Any])?["timeoutInterval"]) == 6)

            // Without the override the session's 1 s applies to the same request.
            let (hurried, seconds) = try await timed {
                try await api.runTask(session: hasty, ["kind": "data", "request": ["url": late]], within: 30)
            }
            #expect(hurried.errorCode == -1001, "\(hurried)")
            #expect(seconds < 3, "the session's 1 s timeout took \(seconds) s")
            #expect(number((hurried["originalRequest"] as? [String: Any])?["timeoutInterval"]) == 1)
        }
    }

    /// The idle timer starts at the last byte: 100 bytes at once, then silence, times out about 1 s later
    /// (not once an average rate over several seconds has dropped).
    @Test(.timeLimit(.minutes(2)))
    func theIdleTimeoutCountsFromTheLastByte() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["timeoutIntervalForRequest": 1])
            let (task, seconds) = try await timed {
                try await api.runTask(
                    session: session, ["kind": "data", "request": ["url": origin.url("/stall?bytes=100&total=1000")]],
                    within: 30)
            }
            #expect(task.errorCode == -1001, "\(task)")
            #expect(task.count("countOfBytesReceived") == 100)
            #expect(seconds < 4, "a 1 s idle timeout after the last byte took \(seconds) s")
        }
    }

    /// The idle timer restarts at every byte: gaps of 2 s never reach a 3 s timeout, however long the body takes.
    @Test(.timeLimit(.minutes(2)))
    func theIdleTimeoutIsResetByEveryByte() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["timeoutIntervalForRequest": 3])
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/drip?bytes=4&interval=2")]],
                within: 30)
            #expect(task.errorCode == nil, "a byte every 2 s timed out under a 3 s idle timeout: \(task)")
            #expect(task.count("countOfBytesReceived") == 4)
        }
    }
}
