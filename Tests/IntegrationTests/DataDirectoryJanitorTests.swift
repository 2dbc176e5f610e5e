import Foundation
import TestSupport
import Testing

/// After a kill -9, start-up removes the files no row names — in `downloads/`, `blobs/`, `cache/` and
/// `trust/` — and keeps every file a row names.
@Suite("The start-up janitor through the real binary")
struct DataDirectoryJanitorTests {
    static func names(_ directory: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    @Test(.timeLimit(.minutes(2)))
    func orphansGoAfterAKillReferencedFilesStay() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-janitor")
        defer { directory.remove() }
        let (downloads, blobs, cache, trust) = (
            directory.appending("downloads"), directory.appending("blobs"), directory.appending("cache"), directory.appending("trust")
        )
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession()
        let finished = try await api.runTask(session: session, ["kind": "download", "request": ["url": origin.url("/bytes/200000")]])
        #expect(finished.statusCode == 200, "\(finished)")
        let blob = try await api.makeBlob(Array(repeating: 7, count: 5000))
        // A download that is running when the service dies: its partial file (past the first 64 KiB, which
        // stay in memory) is named in its row.
        let running = try await api.createTask(
            session: session, ["kind": "download", "request": ["url": origin.url("/bytes/5000000?rate=100000")], "resume": true])
        _ = try await api.task(running.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 100_000 })
        let partial = try #require(Self.names(downloads).first { $0.hasPrefix(running.taskID) && $0.hasSuffix(".part") })
        await first.kill9()

        let orphans = [
            downloads.appendingPathComponent("tsk_0000000000000000000000"),
            downloads.appendingPathComponent("tsk_0000000000000000000000.abc.part"),
            downloads.appendingPathComponent("\(running.taskID).zzz.part"), downloads.appendingPathComponent("\(finished.taskID).body"),
            blobs.appendingPathComponent("blb_0000000000000000000000"),
            cache.appendingPathComponent("session-ses_0000000000000000000000/entry"),
            trust.appendingPathComponent("session-ses_0000000000000000000000.pem"),
        ]
        for orphan in orphans {
            try FileManager.default.createDirectory(at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("orphan".utf8).write(to: orphan)
        }
        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        for orphan in orphans {
            #expect(!FileManager.default.fileExists(atPath: orphan.path), "\(orphan.lastPathComponent) is removed")
        }
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("session-ses_0000000000000000000000").path))
        #expect(Self.names(downloads).contains(finished.taskID), "the finished download stays")
        #expect(Self.names(blobs).contains(blob), "the blob stays")
        #expect(try await again.taskFile(finished.taskID).body.count == 200_000)
        // The running download completes as URLSession reports a lost connection, with resume data: its
        // partial file survived the janitor.
        let recovered = try await again.completedTask(running.taskID)
        #expect(recovered.errorCode == -1005, "\(recovered)")
        let userInfo = recovered.errorObject?["userInfo"] as? [String: Any]
        #expect(userInfo?["NSURLSessionDownloadTaskResumeData"] is String, "\(recovered)")
        #expect(Self.names(downloads).contains(partial), "\(Self.names(downloads))")
        #expect(try await second.terminate() == 0)
    }
}
