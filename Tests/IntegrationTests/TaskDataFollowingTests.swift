import Foundation
import TestSupport
import Testing
import TransferModels

/// `GET /v1/tasks/{id}/data` of a running data task against the real binary: the body streams while it
/// arrives (from the start or from `Range: bytes=N-`), several readers follow one task, a failure cuts
/// the stream and shows on the task. The origin's `/gate/{name}` sends part of the body and waits for the
/// test to open the gate, so "before the task completes" is a fact, not a race.
@Suite("Following a running task's /data")
struct TaskDataFollowingTests {
    /// Past the engine's 1 MiB in memory: the first half arrives in memory, is spilled to the body's file
    /// while readers follow it, and the rest is read from the file.
    static let total = 3 * 1024 * 1024
    static let half = total / 2

    @Test(.timeLimit(.minutes(1)))
    func readersGetTheBodyBeforeTheTaskCompletesFromTheStartOrFromARange() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let id = try await api.createTask(
                session: session,
                ["kind": "data", "request": ["url": origin.url("/gate/a?bytes=\(Self.half)&total=\(Self.total)&seed=7")], "resume": true]
            ).taskID
            let expected = FixtureOrigin.bytes(count: Self.total, seed: 7)
            let offset = 100_000
            let readers = [BodyRecorder(), BodyRecorder(), BodyRecorder()]
            async let whole = readers[0].run(api, id)
            async let again = readers[1].run(api, id)
            async let ranged = readers[2].run(api, id, headers: [("Range", "bytes=\(offset)-")])
            try await readers[0].waitForBytes(Self.half)
            try await readers[1].waitForBytes(Self.half)
            try await readers[2].waitForBytes(Self.half - offset)
            #expect(try await api.task(id).state == "running", "the origin holds the second half back")
            // A reader that comes late starts from the beginning all the same.
            let late = BodyRecorder()
            async let lateAnswer = late.run(api, id)
            try await late.waitForBytes(Self.half)

            origin.openGate("a")
            let answers = try await [whole, again, lateAnswer]
            for answer in answers {
                #expect(answer.status == 200)
                #expect(answer.header("Content-Type") == "application/x-gated")
                #expect(answer.header("X-Content-Type-Options") == "nosniff")
                #expect(answer.body.count == Self.total)
                #expect(answer.body.elementsEqual(expected), "the body as the origin sent it")
            }
            let range = try await ranged
            #expect(range.status == 206)
            #expect(range.header("Content-Range") == "bytes \(offset)-\(Self.total - 1)/\(Self.total)")
            #expect(range.body.elementsEqual(expected[offset...]))
            // The stream ended with the task: it is complete, and its kept body is the same.
            let completed = try await api.task(id)
            #expect(completed.state == "completed" && completed.errorObject == nil, "\(completed)")
            let kept = try await api.get("/v1/tasks/\(id)/data", headers: [("Range", "bytes=\(offset)-")])
            #expect(kept.status == 206)
            #expect(kept.header("Content-Range") == "bytes \(offset)-\(Self.total - 1)/\(Self.total)")
            #expect(kept.body.elementsEqual(expected[offset...]))
        }
    }

    /// A chunked origin gives no length: an open range answers 206 without `Content-Range` (it has no
    /// form for an end not known yet), a closed one `bytes first-last/*` and ends at `last`, before the task.
    /// A range past an announced length is 416.
    @Test(.timeLimit(.minutes(1)))
    func rangesOfABodyOfUnknownAndOfAnnouncedLength() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let chunked = try await api.createTask(
                session: session,
                ["kind": "data", "request": ["url": origin.url("/gate/b?bytes=50000&total=80000&chunked=1")], "resume": true]
            ).taskID
            let expected = FixtureOrigin.bytes(count: 80000)
            let closed = try await BodyRecorder().run(api, chunked, headers: [("Range", "bytes=1000-1999")])
            #expect(closed.status == 206)
            #expect(closed.header("Content-Range") == "bytes 1000-1999/*")
            #expect(closed.body.elementsEqual(expected[1000..<2000]))
            let open = BodyRecorder()
            async let openAnswer = open.run(api, chunked, headers: [("Range", "bytes=49000-")])
            try await open.waitForBytes(1000)
            #expect(try await api.task(chunked).state == "running")
            origin.openGate("b")
            let answer = try await openAnswer
            #expect(answer.status == 206)
            #expect(answer.header("Content-Range") == nil)
            #expect(answer.body.elementsEqual(expected[49000...]))

            let announced = try await api.createTask(
                session: session,
                ["kind": "data", "request": ["url": origin.url("/gate/c?bytes=1000&total=2000")], "resume": true]
            ).taskID
            let first = BodyRecorder()
            async let firstAnswer = first.run(api, announced)
            try await first.waitForBytes(1000)  // the response has begun: its length is known
            let past = try await api.get("/v1/tasks/\(announced)/data", headers: [("Range", "bytes=2000-")])
            expectProblem(past, status: 416, slug: "range-not-satisfiable")
            #expect(past.header("Content-Range") == "bytes */2000")
            #expect(past.headers(named: "Content-Type") == ["application/problem+json"], "one Content-Type: the problem's")
            origin.openGate("c")
            #expect(try await firstAnswer.body.count == 2000)
        }
    }

    /// The origin closes mid-body: every reader's stream is cut (an incomplete chunked body, an error to
    /// the client), and by then the task shows the error.
    @Test(.timeLimit(.minutes(1)))
    func aFailureCutsEveryReadersStreamAndShowsOnTheTask() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let id = try await api.createTask(
                session: session,
                ["kind": "data", "request": ["url": origin.url("/gate/d?bytes=200000&total=400000&fail=1")], "resume": true]
            ).taskID
            let readers = [BodyRecorder(), BodyRecorder()]
            async let one = readers[0].outcome(api, id)
            async let two = readers[1].outcome(api, id)
            for reader in readers { try await reader.waitForBytes(200_000) }
            origin.openGate("d")
            for result in await [one, two] {
                #expect(throws: HTTPClientError.self, "the body must not look complete") { try result.get() }
            }
            for reader in readers { #expect(reader.bytes.elementsEqual(FixtureOrigin.bytes(count: 200_000))) }
            let failed = try await api.task(id)
            #expect(failed.state == "completed", "\(failed)")
            #expect(failed.errorCode != nil, "\(failed)")
        }
    }

    /// A suspended task has no body to follow yet (409).
    @Test(.timeLimit(.minutes(1)))
    func aSuspendedTaskHasNoBodyYet() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.createTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/10")]])
            expectProblem(try await api.taskData(task.taskID), status: 409, slug: "conflict")
        }
    }
}

/// Reads one `/data` answer as it streams, keeping the bytes, so a test can wait for some while the
/// stream stays open.
final class BodyRecorder: Sendable {
    private let received = LockedBox([UInt8]())

    var bytes: [UInt8] { received.withLock { $0 } }

    /// `GET /v1/tasks/{id}/data` until the server ends the body. Throws when the body is cut.
    func run(_ api: API, _ taskID: String, headers: [(String, String)] = []) async throws -> TestHTTPResponse {
        var request = TestHTTPRequest.get(api.base + "/v1/tasks/\(taskID)/data", token: api.token, headers: headers)
        request.timeout = 50
        return try await api.client.stream(request) { [received] chunk in
            received.withLock { $0 += chunk }
            return true
        }
    }

    /// `run`, its error kept.
    func outcome(_ api: API, _ taskID: String) async -> Result<TestHTTPResponse, any Error> {
        do { return .success(try await run(api, taskID)) } catch { return .failure(error) }
    }

    /// Waits until `count` bytes arrived (at most `timeout` seconds).
    func waitForBytes(_ count: Int, timeout: Double = 20) async throws {
        try await eventually(timeout: timeout) { self.bytes.count >= count }
    }
}
