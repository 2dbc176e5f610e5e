import Foundation
import TestSupport
import Testing

/// `progress.throughput` and `estimatedTimeRemaining`: a running transfer's pace, as its task object shows
/// it wherever the API answers one; 0 and null for a task that is not running.
@Suite("Tasks: progress rate")
struct TaskProgressRateTests {
    /// The pace the origin sends at, and what a reading of it must fall in (generous: a loaded machine
    /// delivers in bursts, and a window of reports is not the origin's schedule).
    static let pace = 400_000
    static let band = 150_000.0...1_000_000.0

    @Test(.timeLimit(.minutes(1)))
    func aRunningDownloadShowsItsPaceAndTheTimeLeftThenNoneOnceCompleted() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = origin.url("/bytes/2000000?seed=5&rate=\(Self.pace)")  // about five seconds
            let id = try await api.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true])
                .taskID
            _ = try await api.task(id, until: { $0.state != "running" || ($0.throughput ?? 0) > 0 }, within: 10)

            var timesLeft: [Double] = []
            for _ in 0..<4 {
                let task = try await api.task(id)
                guard task.state == "running" else { break }
                let throughput = try #require(task.throughput, "\(task)")
                #expect(Self.band.contains(throughput), "\(task)")
                timesLeft.append(try #require(task.estimatedTimeRemaining, "a known size has a time left: \(task)"))
                try await Task.sleep(for: .milliseconds(400))
            }
            try #require(timesLeft.count >= 2, "the download ended before it was watched: \(timesLeft)")
            #expect(timesLeft.last! < timesLeft.first!, "the time left shrinks: \(timesLeft)")

            // The list and a `?wait=` that times out show the same live rate.
            let listed = try await Self.listed(id, api: api, session: session)
            if listed.state == "running" {
                #expect(listed.throughput.map(Self.band.contains) == true, "\(listed)")
                #expect(listed.estimatedTimeRemaining != nil, "\(listed)")
            }
            let waited = try await api.task(id, wait: 0.2)
            if waited.state == "running" {
                #expect(waited.throughput.map(Self.band.contains) == true, "\(waited)")
            }

            let done = try await api.completedTask(id, within: 30)
            #expect(done.errorCode == nil, "\(done)")
            Self.expectNoRate(done)
            Self.expectNoRate(try await api.task(id))
            Self.expectNoRate(try await Self.listed(id, api: api, session: session))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSuspendedTaskShowsNoRate() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = origin.url("/bytes/2000000?seed=6&rate=\(Self.pace)")
            let id = try await api.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true])
                .taskID
            let running = try await api.task(id, until: { $0.state != "running" || ($0.throughput ?? 0) > 0 }, within: 10)
            try #require(running.state == "running", "\(running)")

            let suspended = try await api.taskAction(id, "suspend")
            #expect(suspended.status == 200, "\(suspended.text)")
            let answer = try suspended.json()
            #expect(answer.state == "suspended")
            Self.expectNoRate(answer)
            Self.expectNoRate(try await api.task(id))
            Self.expectNoRate(try await Self.listed(id, api: api, session: session))
            #expect(try await api.taskAction(id, "cancel").status == 200)
        }
    }

    /// The task as the session's list shows it.
    static func listed(_ id: String, api: API, session: String) async throws -> [String: Any] {
        let list = try await api.get("/v1/sessions/\(session)/tasks")
        try #require(list.status == 200, "\(list.text)")
        let items = try #require(try list.json()["items"] as? [[String: Any]], "\(list.text)")
        return try #require(items.first { $0.taskID == id }, "\(list.text)")
    }

    static func expectNoRate(_ task: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(task.throughput == 0, "\(task)", sourceLocation: sourceLocation)
        let progress = task["progress"] as? [String: Any]
        #expect(isNull(progress?["estimatedTimeRemaining"]), "\(task)", sourceLocation: sourceLocation)
    }
}

extension Dictionary where Key == String, Value == Any {
    var throughput: Double? { number((self["progress"] as? [String: Any])?["throughput"]) }
    var estimatedTimeRemaining: Double? { number((self["progress"] as? [String: Any])?["estimatedTimeRemaining"]) }
}
