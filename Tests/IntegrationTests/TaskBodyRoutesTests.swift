import Foundation
import TestSupport
import Testing

/// `GET /v1/tasks/{id}/data` and `GET|DELETE /v1/tasks/{id}/file` against the real binary: bodies that failed
/// or are gone, `nosniff`, RFC 9110 ranges, and files deleted while they are being read.
@Suite("Task body routes")
struct TaskBodyRoutesTests {
    /// Bytes of the downloads below: past the 64 KiB kept in the store, so each one is a file on disk.
    static let fileSize = 100_000

    // MARK: /data of failed and released bodies

    @Test(.timeLimit(.minutes(1)))
    func aFailedTaskHasNoDataButA404SayingSo() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            // Part of the body arrived before the origin hung up: the task failed with bytes received.
            let truncated = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/truncated?length=10000&send=4000")]])
            let code = try #require(truncated.errorCode, "\(truncated)")
            #expect((truncated.count("countOfBytesReceived") ?? 0) > 0, "\(truncated)")
            let answer = try await api.taskData(truncated.taskID)
            expectProblem(answer, status: 404, slug: "not-found")
            let detail = try answer.json()["detail"] as? String ?? ""
            #expect(detail.contains("failed with code \(code)"), "\(detail)")

            // An upload that failed before any response.
            let upload = try await api.runTask(
                session: session,
                [
                    "kind": "upload", "request": ["url": origin.url("/close")],
                    "uploadSource": ["data": ["text": "lost"]],
                ])
            let uploadCode = try #require(upload.errorCode, "\(upload)")
            let uploadAnswer = try await api.taskData(upload.taskID)
            expectProblem(uploadAnswer, status: 404, slug: "not-found")
            #expect((try uploadAnswer.json()["detail"] as? String ?? "").contains("failed with code \(uploadCode)"))
        }
    }

    /// A body released by `reset` (kept in the store or in a file) or removed behind the service's back
    /// answers 404 "expired"; a body that really was empty stays an empty 200, before and after.
    @Test(.timeLimit(.minutes(1)))
    func aReleasedBodyIs404AndAnEmptyOneStaysAnEmpty200() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            func run(_ path: String) async throws -> String {
                let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url(path)]])
                #expect(task.errorCode == nil, "\(task)")
                return task.taskID
            }
            let small = try await run("/bytes/1000?seed=3")
            let large = try await run("/bytes/\(Self.fileSize)?seed=4")
            let removed = try await run("/bytes/\(Self.fileSize)?seed=5")
            let noContent = try await run("/status/204")
            let zeroLength = try await run("/bytes/0")
            #expect(Self.same(try await api.taskData(small).body, FixtureOrigin.bytes(count: 1000, seed: 3)))
            #expect(Self.same(try await api.taskData(large).body, FixtureOrigin.bytes(count: Self.fileSize, seed: 4)))

            // The janitor's way: the file is gone, the row still names it.
            let downloads = service.dataDirectory.appendingPathComponent("downloads")
            let names = try FileManager.default.contentsOfDirectory(atPath: downloads.path).filter { $0.hasPrefix(removed) }
            try #require(names.count == 1, "\(names)")
            try FileManager.default.removeItem(at: downloads.appendingPathComponent(names[0]))
            try await Self.expectExpired(api.taskData(removed))

            for id in [noContent, zeroLength] {
                let empty = try await api.taskData(id)
                #expect(empty.status == 200, "\(empty.text)")
                #expect(empty.body.isEmpty)
                #expect(empty.header("X-Content-Type-Options") == "nosniff")
            }

            #expect(try await api.post("/v1/sessions/\(session)/reset").status == 204)
            try await Self.expectExpired(api.taskData(small))
            try await Self.expectExpired(api.taskData(large))
            for id in [noContent, zeroLength] {
                let empty = try await api.taskData(id)
                #expect(empty.status == 200, "an empty body is not an expired one: \(empty.text)")
                #expect(empty.body.isEmpty)
            }
        }
    }

    /// Whether a body is `expected`, as one Boolean: a failed `==` of two 100 kB arrays would print both.
    static func same(_ body: [UInt8], _ expected: some Collection<UInt8>) -> Bool {
        body.elementsEqual(expected)
    }

    static func expectExpired(_ answer: TestHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        expectProblem(answer, status: 404, slug: "not-found", sourceLocation: sourceLocation)
        let detail = try answer.json()["detail"] as? String ?? ""
        #expect(detail.contains("expired"), "\(detail)", sourceLocation: sourceLocation)
    }

    // MARK: nosniff

    @Test(.timeLimit(.minutes(1)))
    func bodiesAreServedWithNosniff() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let small = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/echo")]])
            let large = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/\(Self.fileSize)")]])
            for id in [small.taskID, large.taskID] {
                let answer = try await api.taskData(id)
                #expect(answer.status == 200)
                #expect(answer.header("X-Content-Type-Options") == "nosniff", "\(answer.headers)")
            }
            for count in [1000, Self.fileSize] {
                let download = try await api.runTask(
                    session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(count)")]])
                let whole = try await api.taskFile(download.taskID)
                #expect(whole.status == 200)
                #expect(whole.header("X-Content-Type-Options") == "nosniff", "\(whole.headers)")
                let part = try await api.taskFile(download.taskID, headers: [("Range", "bytes=0-9")])
                #expect(part.status == 206)
                #expect(part.header("X-Content-Type-Options") == "nosniff", "\(part.headers)")
            }
        }
    }

    // MARK: Range (RFC 9110 §14.2)

    /// What `/file` of `size` bytes answers to a Range field: nil for the whole file (200), a pair for
    /// 206 with those inclusive bounds, or `unsatisfiable` for 416.
    enum Expected: Equatable {
        case whole
        case range(Int, Int)
        case unsatisfiable
    }

    static let rangeCases: [(field: String, expected: Expected)] = [
        ("bytes=0-9", .range(0, 9)),
        ("Bytes=0-1", .range(0, 1)),
        ("BYTES=99990-", .range(99_990, 99_999)),
        ("bytes=-10", .range(99_990, 99_999)),
        ("bytes=99990-200000", .range(99_990, 99_999)),
        ("bytes=0-99999999999999999999999", .range(0, 99_999)),
        ("bytes=-99999999999999999999999", .range(0, 99_999)),
        ("bytes=5-5", .range(5, 5)),
        ("bytes=0-1,", .range(0, 1)),  // an empty list element is no range (RFC 9110 §5.6.1.2)
        ("items=0-1", .whole),
        ("bytes0-1", .whole),
        ("bytes=", .whole),
        ("bytes=-", .whole),
        ("bytes=abc", .whole),
        ("bytes=5-1", .whole),
        ("bytes=0-1-2", .whole),
        ("bytes=+1-2", .whole),
        ("bytes=0x10-", .whole),
        ("bytes=0-1,5-9", .whole),
        ("bytes=0-1, 200000-", .whole),
        ("bytes=200000-, 300000-", .whole),
        ("bytes=100000-", .unsatisfiable),
        ("bytes=100000-100005", .unsatisfiable),
        ("bytes=99999999999999999999999-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=-00", .unsatisfiable),
    ]

    @Test(.timeLimit(.minutes(1)))
    func rangesFollowRFC9110() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let size = Self.fileSize
            let bytes = FixtureOrigin.bytes(count: size, seed: 8)
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(size)?seed=8")]])
            try #require(task.errorCode == nil, "\(task)")
            for (field, expected) in Self.rangeCases {
                let answer = try await api.taskFile(task.taskID, headers: [("Range", field)])
                switch expected {
                case .whole:
                    #expect(answer.status == 200, "\(field): \(answer.status) \(answer.text.prefix(200))")
                    #expect(answer.header("Content-Range") == nil, "\(field)")
                    #expect(Self.same(answer.body, bytes), "\(field)")
                case .range(let first, let last):
                    #expect(answer.status == 206, "\(field): \(answer.status) \(answer.text.prefix(200))")
                    #expect(answer.header("Content-Range") == "bytes \(first)-\(last)/\(size)", "\(field)")
                    #expect(Self.same(answer.body, bytes[first...last]), "\(field)")
                case .unsatisfiable:
                    expectProblem(answer, status: 416, slug: "range-not-satisfiable", field: "Range")
                    #expect(answer.header("Content-Range") == "bytes */\(size)", "\(field)")
                }
            }
            // A small download kept in the store follows the same rules.
            let stored = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/10000?seed=9")]])
            let storedBytes = FixtureOrigin.bytes(count: 10_000, seed: 9)
            #expect(Self.same(try await api.taskFile(stored.taskID, headers: [("Range", "items=0-1")]).body, storedBytes))
            let storedPart = try await api.taskFile(stored.taskID, headers: [("Range", "Bytes=-2")])
            #expect(storedPart.status == 206)
            #expect(Self.same(storedPart.body, storedBytes[9998...]))
            #expect(try await api.taskFile(stored.taskID, headers: [("Range", "bytes=10000-")]).status == 416)
        }
    }

    /// Every syntactically valid range of an empty file is unsatisfiable; an invalid one is ignored.
    @Test(.timeLimit(.minutes(1)))
    func anyRangeOfAnEmptyFileIsUnsatisfiable() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/0")]])
            try #require(task.errorCode == nil, "\(task)")
            let whole = try await api.taskFile(task.taskID)
            #expect(whole.status == 200, "\(whole.text)")
            #expect(whole.body.isEmpty)
            for field in ["bytes=0-", "bytes=0-0", "bytes=-1", "bytes=-0"] {
                let answer = try await api.taskFile(task.taskID, headers: [("Range", field)])
                expectProblem(answer, status: 416, slug: "range-not-satisfiable", field: "Range")
                #expect(answer.header("Content-Range") == "bytes */0", "\(field)")
            }
            for field in ["items=0-", "bytes=x", "bytes=0-1,2-3"] {
                let answer = try await api.taskFile(task.taskID, headers: [("Range", field)])
                #expect(answer.status == 200, "\(field): \(answer.text)")
                #expect(answer.body.isEmpty)
            }
        }
    }

    // MARK: Files deleted while they are served

    @Test(.timeLimit(.minutes(1)))
    func aDeletedFileIsNotFound() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(Self.fileSize)")]])
            #expect(try await api.taskFile(task.taskID).status == 200)
            #expect(try await api.delete("/v1/tasks/\(task.taskID)/file").status == 204)
            for range in [[], [("Range", "bytes=0-9")]] {
                let answer = try await api.taskFile(task.taskID, headers: range)
                expectProblem(answer, status: 404, slug: "not-found")
                #expect((try answer.json()["detail"] as? String ?? "").contains("deleted or has expired"))
            }
        }
    }

    /// DELETEs race GETs of the same fresh file: every GET gets an HTTP answer (the whole file, its range,
    /// or 404), never a dropped connection.
    @Test(.timeLimit(.minutes(1)))
    func aFileDeletedWhileItIsReadIsServedOrNotFoundNeverDropped() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let session = try await api.makeSession()
            let bytes = FixtureOrigin.bytes(count: Self.fileSize, seed: 10)
            let url = origin.url("/bytes/\(Self.fileSize)?seed=10")
            var seen: [Int: Int] = [:]
            var failures: [String] = []
            for round in 0..<200 {
                let task = try await api.runTask(session: session, ["kind": "download", "request": ["url": url]])
                try #require(task.errorCode == nil, "\(task)")
                let id = task.taskID
                let outcomes = await withTaskGroup(of: String.self) { group in
                    for reader in 0..<4 {
                        group.addTask {
                            let range = reader % 2 == 0 ? [] : [("Range", "bytes=10-1009")]
                            do {
                                let answer = try await api.taskFile(id, headers: range)
                                switch answer.status {
                                case 200 where answer.body == bytes: return "200"
                                case 206 where answer.body == Array(bytes[10..<1010]): return "206"
                                case 404 where answer.header("Content-Type") == "application/problem+json": return "404"
                                default: return "bad \(answer.status) with \(answer.body.count) bytes"
                                }
                            } catch {
                                return "transport error \(error)"
                            }
                        }
                    }
                    group.addTask {
                        do {
                            let deleted = try await api.delete("/v1/tasks/\(id)/file")
                            return deleted.status == 204 ? "delete" : "delete answered \(deleted.status)"
                        } catch {
                            return "delete: transport error \(error)"
                        }
                    }
                    var all: [String] = []
                    for await outcome in group { all.append(outcome) }
                    return all
                }
                for outcome in outcomes {
                    if let status = Int(outcome) {
                        seen[status, default: 0] += 1
                    } else if outcome != "delete" {
                        failures.append("round \(round): \(outcome)")
                    }
                }
            }
            #expect(failures.isEmpty, "\(failures.count) failures, e.g. \(failures.prefix(5)); answers \(seen)")
            #expect(seen.values.reduce(0, +) == 800, "\(seen)")

            // Every descriptor an answer opened is closed again (MHD closes it with its response).
            let downloads = service.dataDirectory.appendingPathComponent("downloads").resolvingSymlinksInPath().path
            var open: [String] = []
            do {
                try await eventually(timeout: 10, interval: 0.1) {
                    open = try Self.openFiles(of: service.pid, under: downloads)
                    return open.isEmpty
                }
            } catch is TimeoutError {
                Issue.record("the service still holds \(open.count) files open, e.g. \(open.prefix(3))")
            }
        }
    }

    /// The files under `directory` that process `pid` holds open (Linux `/proc/<pid>/fd`).
    static func openFiles(of pid: Int32, under directory: String) throws -> [String] {
        let descriptors = "/proc/\(pid)/fd"
        let names = try FileManager.default.contentsOfDirectory(atPath: descriptors)
        try #require(!names.isEmpty, "\(descriptors) lists no descriptor")
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)") }
            .filter { $0.hasPrefix(directory + "/") }
    }
}
