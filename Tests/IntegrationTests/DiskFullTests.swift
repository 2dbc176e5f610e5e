import Foundation
import TestSupport
import Testing

/// A data directory on a small tmpfs, filled up: a download that cannot write fails with
/// `NSURLErrorCannotWriteToFile` (-3003), and the service goes on answering and recording.
@Suite("A full disk through the real binary")
struct DiskFullTests {
    /// Mounts an 8 MiB tmpfs for `body` to use as the data directory, and unmounts it afterwards (tests run
    /// as root). The service's log goes beside it, on a disk that is not full.
    static func withSmallFileSystem<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-full")
        defer { directory.remove() }
        let data = directory.appending("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let mount = try await runProcess(
            URL(fileURLWithPath: "/bin/mount"), arguments: ["-t", "tmpfs", "-o", "size=8m", "tmpfs", data.path],
            workingDirectory: directory.url, timeout: 20)
        try #require(mount.status == 0, "mounting a tmpfs needs root: \(mount.output)")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = ["-l", data.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        return try await body(data)
    }

    /// Fills the file system of `directory` with a file until at most `leaving` bytes are free.
    static func fill(_ directory: URL, leaving: Int) throws {
        var stats = statvfs()
        try #require(statvfs(directory.path, &stats) == 0)
        let free = Int(stats.f_bavail) * Int(stats.f_frsize)
        let filler = FileManager.default.createFile(
            atPath: directory.appendingPathComponent("filler").path, contents: Data(count: max(0, free - leaving)))
        try #require(filler, "could not write the filler")
    }

    @Test(.timeLimit(.minutes(2)))
    func aDownloadThatCannotWriteFailsWith3003AndTheServiceGoesOn() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await Self.withSmallFileSystem { data in
            let service = try await ServiceProcess.start(dataDirectory: data, environment: TaskEnvironment.loopback)
            let api = API(service, HTTPClient())
            let session = try await api.makeSession(["urlCache": NSNull()])
            try Self.fill(data, leaving: 1_000_000)

            let download = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/4000000")]])
            #expect(download.errorCode == -3003, "NSURLErrorCannotWriteToFile: \(download)")
            #expect(download.errorObject?["name"] as? String == "cannotWriteToFile", "\(download)")
            let left = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("downloads").path)
            #expect(left.isEmpty, "the partial file gave its space back: \(left)")

            #expect(try await api.get("/readyz").status == 200)
            #expect(try await api.get("/v1/sessions/\(session)").status == 200)
            let small = try await api.runTask(session: session, ["kind": "data", "request": ["url": origin.url("/bytes/1000")]])
            #expect(small.statusCode == 200 && small.errorObject == nil, "a task kept in the store still runs: \(small)")
            let events = try await api.allEvents("/v1/tasks/\(download.taskID)/events")
            #expect(events.last?.eventType == "task.didCompleteWithError", "its completion is recorded: \(events)")
            #expect(try await service.terminate() == 0)
        }
    }

    /// The disk fills up while a task runs (its body stays in memory): the store cannot record its end,
    /// the service goes on answering, and the completion is recorded once there is space again — not
    /// dropped, which would leave the task running in the store for good. (On PostgreSQL the store is not
    /// on that disk, and the completion is recorded as usual.)
    @Test(.timeLimit(.minutes(2)))
    func aCompletionTheStoreCannotRecordWaitsForSpace() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await Self.withSmallFileSystem { data in
            let service = try await ServiceProcess.start(dataDirectory: data, environment: TaskEnvironment.loopback)
            let api = API(service, HTTPClient())
            let session = try await api.makeSession(["urlCache": NSNull()])
            // 40,000 bytes at 8,000 a second: about 5 s, far longer than filling the disk takes.
            let task = try await api.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/bytes/40000?rate=8000")], "resume": true])
            try Self.fill(data, leaving: 0)
            try #require(try await api.task(task.taskID).state == "running", "the task is still running once the disk is full")
            if ServiceProcess.testsPostgres {
                // The rows are not on the full disk: the completion (the body in its row) is recorded at once.
                let completed = try await api.completedTask(task.taskID, within: 20)
                #expect(completed.statusCode == 200 && completed.errorObject == nil, "\(completed)")
                #expect(try await api.taskData(task.taskID).body.count == 40_000)
                #expect(try await service.terminate() == 0)
                return
            }

            try await eventually(timeout: 20, interval: 0.1) {
                (try? String(contentsOf: service.logFile, encoding: .utf8))?.contains("The disk is full") == true
            }
            #expect(try await api.get("/readyz").status == 200)
            #expect(try await api.get("/v1/sessions/\(session)").status == 200)
            let waiting = try await api.task(task.taskID)
            #expect(waiting.state == "running", "not recorded yet: \(waiting)")

            try FileManager.default.removeItem(at: data.appendingPathComponent("filler"))
            let completed = try await api.completedTask(task.taskID, within: 20)
            #expect(completed.statusCode == 200 && completed.errorObject == nil, "\(completed)")
            #expect(try await api.taskData(task.taskID).body.count == 40_000)
            #expect(try await service.terminate() == 0)
        }
    }
}
