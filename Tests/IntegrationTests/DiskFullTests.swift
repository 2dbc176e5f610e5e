import Foundation
import TestSupport
import Testing

/// A data directory on a small tmpfs, filled up: a download that cannot write fails with
/// `NSURLErrorCannotWriteToFile` (-3003), and the service goes on answering and recording.
@Suite("A full disk through the real binary")
struct DiskFullTests {
    /// Mounts an 8 MiB tmpfs on a fresh directory for `body`, and unmounts it afterwards (tests run as root).
    static func withSmallFileSystem<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (URL) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-full")
        defer { directory.remove() }
        let mount = try await runProcess(
            URL(fileURLWithPath: "/bin/mount"), arguments: ["-t", "tmpfs", "-o", "size=8m", "tmpfs", directory.url.path],
            workingDirectory: directory.url, timeout: 20)
        try #require(mount.status == 0, "mounting a tmpfs needs root: \(mount.output)")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = ["-l", directory.url.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        return try await body(directory.url)
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
        try await Self.withSmallFileSystem { mount in
            let data = mount.appendingPathComponent("data")
            let service = try await ServiceProcess.start(dataDirectory: data, environment: TaskEnvironment.loopback)
            let api = API(service, HTTPClient())
            let session = try await api.makeSession(["urlCache": NSNull()])
            try Self.fill(mount, leaving: 1_000_000)

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
}
