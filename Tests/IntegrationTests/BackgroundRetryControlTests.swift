import Foundation
import TestSupport
import Testing

/// A background task between two attempts (a network error is tried again later) is suspended and
/// resumed: the resume starts one attempt, and the retry that was pending must not start a second one
/// (the double start of issue 10: an upload reached the origin twice, a download's file had two writers).
@Suite("Background retries and task control")
struct BackgroundRetryControlTests {
    @Test(.timeLimit(.minutes(1)))
    func suspendAndResumeBetweenRetriesStartsOneAttempt() async throws {
        // Connections are refused: the task waits between retries (0.5 s, 1 s, 2 s, 4 s … ±20%). The port is
        // held, not freed (a freed port went to another test's origin, which answered the retry).
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let port = refusing.port
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "background", "identifier": "retry.control"])
            // Six seconds of body, so the resumed attempt still runs when the pending retry comes due.
            let path = "/drip?bytes=30&interval=0.2"
            let created = try await api.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "http://127.0.0.1:\(port)\(path)"], "resume": true,
                ])
            let id = created.taskID
            // Attempts fail at about 0, 0.5, 1.5 and 3.5 s (at the latest 4.2 s); the next is due at 6 s at
            // the earliest. Between the two, the origin comes up and the task is suspended and resumed.
            try await Task.sleep(for: .milliseconds(4_600))
            refusing.release()
            let origin = try FixtureOrigin.start(port: port)
            defer { origin.stop() }
            #expect(try await api.taskAction(id, "suspend").status == 200)
            #expect(try await api.taskAction(id, "resume").status == 200)

            let done = try await api.completedTask(id, within: 30)
            #expect(done.errorCode == nil, "\(done)")
            #expect(done.count("countOfBytesReceived") == 30)
            try await Task.sleep(for: .seconds(2))  // past any retry that was still pending
            #expect(origin.requests(path: "/drip").count == 1, "\(origin.requests.map(\.path))")
        }
    }
}
