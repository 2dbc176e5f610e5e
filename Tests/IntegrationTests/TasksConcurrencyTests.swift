import Foundation
import TestSupport
import Testing

/// Many tasks at once: every one completes with its own bytes.
@Suite("Tasks: concurrency")
struct TasksConcurrencyTests {
    /// Runs `work` for each index with at most `width` in flight; results in index order.
    static func forEach<T: Sendable>(
        _ indices: Range<Int>, width: Int, _ work: @escaping @Sendable (Int) async throws -> T
    ) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var results: [T?] = Array(repeating: nil, count: indices.count)
            var next = indices.lowerBound
            while next < indices.upperBound, next - indices.lowerBound < width {
                let index = next
                group.addTask { (index, try await work(index)) }
                next += 1
            }
            while let (index, result) = try await group.next() {
                results[index - indices.lowerBound] = result
                if next < indices.upperBound {
                    let index = next
                    group.addTask { (index, try await work(index)) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aThousandSmallTasksAllComplete() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let count = 1000
            let started = ContinuousClock.now

            let ids = try await Self.forEach(0..<count, width: 32) { index -> String in
                let response = try await api.postTask(
                    session: session,
                    [
                        "kind": index % 2 == 0 ? "data" : "download",
                        "request": ["url": origin.url("/bytes/1024?seed=\(index)")], "resume": true,
                        "taskDescription": "task \(index)",
                    ])
                guard response.status == 201, let id = try response.json()["id"] as? String else {
                    Issue.record("creating task \(index): \(response.status) \(response.text)")
                    return ""
                }
                return id
            }
            try #require(ids.count == count && !ids.contains(""))
            #expect(Set(ids).count == count)

            let failures = try await Self.forEach(0..<count, width: 32) { index -> String? in
                let task = try await api.completedTask(ids[index], within: 50)
                guard task.state == "completed", task.errorCode == nil, task.statusCode == 200,
                    task.count("countOfBytesReceived") == 1024, task["taskDescription"] as? String == "task \(index)"
                else { return "task \(index): \(task)" }
                let body = index % 2 == 0 ? try await api.taskData(ids[index]) : try await api.taskFile(ids[index])
                guard body.status == 200, body.body == FixtureOrigin.bytes(count: 1024, seed: UInt64(index)) else {
                    return "task \(index): body \(body.status), \(body.body.count) bytes"
                }
                return nil
            }
            let failed = failures.compactMap { $0 }
            #expect(failed.isEmpty, "\(failed.count) tasks failed, e.g. \(failed.prefix(3))")

            let seconds = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
            #expect(seconds < 60, "1,000 small tasks took \(seconds) s")
            #expect(origin.requests(path: "/bytes/1024").count == count)

            // The session lists them all, and identifiers are 1...1000 without gaps.
            var identifiers: [Int] = []
            var cursor: String?
            for _ in 0..<20 {
                let page = try await api.get(
                    "/v1/sessions/\(session)/tasks?limit=1000&state=completed" + (cursor.map { "&after=\($0)" } ?? ""))
                try #require(page.status == 200, "\(page.text)")
                let json = try page.json()
                identifiers += (json["items"] as? [[String: Any]] ?? []).compactMap { int($0["taskIdentifier"]) }
                cursor = json["nextCursor"] as? String
                if cursor == nil { break }
            }
            #expect(identifiers.sorted() == Array(1...count))
        }
    }
}
