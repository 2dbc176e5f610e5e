import Foundation
import ObjectStorage
import TestSupport
import Testing

/// Finished downloads in an S3-compatible object store (`URLSESSIOND_OBJECT_STORE_URL`), against the real
/// binary and a real S3 server on loopback (moto, checking every signature: `Tests/Fixtures/s3_server.py`).
@Suite("Files in the object store")
struct ObjectStoreFilesTests {
    /// Past the 64 KiB a small download keeps in the store, so each one is a file.
    static let size = 300_000

    @Test(.timeLimit(.minutes(3)))
    func aFinishedDownloadIsServedFromTheBucketWholeAndByRangeAndDeletedWithItsFile() async throws {
        let expected = FixtureOrigin.bytes(count: Self.size, seed: 7)
        try await withObjectStoreService(prefix: "node-files") { api, service, world in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": world.origin.url("/bytes/\(Self.size)?seed=7")]])
            #expect(task.errorCode == nil && task.statusCode == 200, "\(task)")
            let id = task.taskID
            let key = "node-files/downloads/\(id)"

            // In the bucket, and gone from the node's disk once the completion named the object.
            #expect(try await world.bucket.head(key: key).size == UInt64(Self.size))
            try await eventually(timeout: 10, interval: 0.05) { !service.files(in: "downloads").contains { $0.hasPrefix(id) } }

            let whole = try await api.taskFile(id)
            #expect(whole.status == 200, "\(whole.status): \(whole.text)")
            #expect(sha256Hex(whole.body) == sha256Hex(expected))
            #expect(whole.header("Content-Length") == "\(Self.size)")
            #expect(whole.header("ETag") == "\"\(id)-\(Self.size)\"")
            #expect(whole.header("Accept-Ranges") == "bytes")

            let middle = try await api.taskFile(id, headers: [("Range", "bytes=1000-200999")])
            #expect(middle.status == 206, "\(middle.status): \(middle.text)")
            #expect(middle.header("Content-Range") == "bytes 1000-200999/\(Self.size)")
            #expect(middle.body == Array(expected[1000...200_999]))
            let tail = try await api.taskFile(id, headers: [("Range", "bytes=-10")])
            #expect(tail.status == 206 && tail.body == Array(expected.suffix(10)), "\(tail.status)")
            let past = try await api.taskFile(id, headers: [("Range", "bytes=\(Self.size)-")])
            #expect(past.status == 416, "\(past.status): \(past.text)")
            #expect(past.header("Content-Range") == "bytes */\(Self.size)")
            let stale = try await api.taskFile(id, headers: [("Range", "bytes=0-9"), ("If-Range", "\"another\"")])
            #expect(stale.status == 200 && stale.body.count == Self.size, "If-Range that does not match: the whole file")

            #expect(try await api.delete("/v1/tasks/\(id)/file").status == 204)
            await expectGone(key, from: world.bucket)
            #expect(try await api.taskFile(id).status == 404)
        }
    }

    /// `reset` and retention pruning delete the objects of the files they release.
    @Test(.timeLimit(.minutes(3)))
    func resetAndRetentionDeleteTheObjects() async throws {
        let environment = ["URLSESSIOND_TASK_RETENTION": "3", "URLSESSIOND_HOUSEKEEPING_INTERVAL": "1"]
        try await withObjectStoreService(environment: environment) { api, _, world in
            let reset = try await api.makeSession()
            let kept = try await api.makeSession()
            let first = try await api.runTask(
                session: reset, ["kind": "download", "request": ["url": world.origin.url("/bytes/\(Self.size)")]])
            let second = try await api.runTask(
                session: kept, ["kind": "download", "request": ["url": world.origin.url("/bytes/\(Self.size)")]])
            for task in [first, second] {
                #expect(try await world.bucket.head(key: "downloads/\(task.taskID)").size == UInt64(Self.size), "\(task)")
            }
            #expect(try await api.post("/v1/sessions/\(reset)/reset").status == 204)
            await expectGone("downloads/\(first.taskID)", from: world.bucket)
            // The other one goes with its task, past its retention.
            await expectGone("downloads/\(second.taskID)", from: world.bucket, within: 30)
            #expect(try await api.getTask(second.taskID).status == 404)
        }
    }

    /// A file past its time-to-live goes from the bucket; the task stays, its `/file` a 404.
    @Test(.timeLimit(.minutes(3)))
    func anExpiredFileIsDeletedFromTheBucket() async throws {
        let environment = ["URLSESSIOND_FILE_TTL": "2", "URLSESSIOND_HOUSEKEEPING_INTERVAL": "1"]
        try await withObjectStoreService(environment: environment) { api, _, world in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": world.origin.url("/bytes/\(Self.size)")]])
            #expect(task.errorCode == nil, "\(task)")
            await expectGone("downloads/\(task.taskID)", from: world.bucket, within: 30)
            #expect(try await api.getTask(task.taskID).status == 200, "the task stays")
            #expect(try await api.taskFile(task.taskID).status == 404)
        }
    }

    /// An object store that refuses the put (a wrong secret): the download still completes, its file stays
    /// on the node's disk and is served from there, and the log says why without the secret.
    @Test(.timeLimit(.minutes(3)))
    func aRefusedPutKeepsTheFileOnDisk() async throws {
        let wrongSecret = "wrong-\(UInt32.random(in: 0 ... .max))"
        try await withObjectStoreService(environment: ["AWS_SECRET_ACCESS_KEY": wrongSecret]) { api, service, world in
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": world.origin.url("/bytes/\(Self.size)?seed=9")]])
            #expect(task.errorCode == nil && task.statusCode == 200, "\(task)")
            #expect(service.files(in: "downloads").contains { $0.hasPrefix(task.taskID) }, "the file stays on disk")
            let file = try await api.taskFile(task.taskID)
            #expect(file.status == 200 && sha256Hex(file.body) == fixtureSHA256(count: Self.size, seed: 9))
            let log = service.stderrText()
            #expect(log.contains("Putting a task's file into the object store failed"), "\(log.suffix(2000))")
            #expect(log.contains("SignatureDoesNotMatch"))
            #expect(!log.contains(wrongSecret) && !log.contains(world.s3.secretAccessKey))
        }
    }

    /// A configuration the service cannot use stops it at start, naming the setting.
    @Test(.timeLimit(.minutes(1)))
    func anUnusableObjectStoreURLStopsTheServiceAtStart() async throws {
        let log = try await expectStartupRefusal(
            environment: Tokens.environment.merging([
                "URLSESSIOND_OBJECT_STORE_URL": "s3://bucket?endpoint=http://127.0.0.1:9", "AWS_ACCESS_KEY_ID": "AKID",
            ]) { $1 })
        #expect(log.contains("URLSESSIOND_OBJECT_STORE_URL") && log.contains("AWS_SECRET_ACCESS_KEY"), "\(log)")
    }
}
