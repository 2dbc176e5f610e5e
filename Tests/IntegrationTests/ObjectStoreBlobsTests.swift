import Foundation
import ObjectStorage
import TestSupport
import Testing

/// Blobs and data tasks' bodies kept as files in the object store (`URLSESSIOND_OBJECT_STORE_URL`), against
/// the real binary and moto's S3 server on loopback (`Tests/Fixtures/s3_server.py`).
@Suite("Blobs and bodies in the object store")
struct ObjectStoreBlobsTests {
    /// Past the 64 KiB the store keeps itself, so a data body is a file.
    static let size = 300_000

    /// A blob leaves the node's disk for the bucket; an upload from it fetches it back for its attempt and
    /// sends the exact bytes, the fetched copy gone once the task ends; deleting the blob deletes the object.
    @Test(.timeLimit(.minutes(3)))
    func aBlobInTheBucketIsUploadedFromAndDeletedWithIt() async throws {
        try await withObjectStoreService(prefix: "node-blobs") { api, service, world in
            let bytes = FixtureOrigin.bytes(count: 1_500_000, seed: 13)
            let blob = try await api.makeBlob(bytes)
            let key = "node-blobs/blobs/\(blob)"
            // The 201 comes once the object is named by the blob's row and the local file removed.
            #expect(try await world.bucket.head(key: key).size == UInt64(bytes.count))
            #expect(service.files(in: "blobs").isEmpty, "\(service.files(in: "blobs"))")

            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session,
                ["kind": "upload", "request": ["url": world.origin.url("/upload"), "httpMethod": "PUT"], "uploadSource": ["blob": blob]])
            #expect(task.errorCode == nil && task.statusCode == 200, "\(task)")
            #expect(task.count("countOfBytesSent") == bytes.count)
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.bodySize == bytes.count && echo.bodySHA256 == sha256Hex(bytes))
            try await eventually(timeout: 10, interval: 0.05) { service.files(in: "blobs").isEmpty }

            #expect(try await api.delete("/v1/blobs/\(blob)").status == 204)
            await expectGone(key, from: world.bucket)
            #expect(try await api.get("/v1/blobs/\(blob)").status == 404)
        }
    }

    /// An upload from a blob whose object was deleted behind the service's back fails as a missing file
    /// would, and leaves no fetched copy behind.
    @Test(.timeLimit(.minutes(3)))
    func aBlobWhoseObjectIsGoneFailsTheUpload() async throws {
        try await withObjectStoreService { api, service, world in
            let blob = try await api.makeBlob(FixtureOrigin.bytes(count: 10_000, seed: 3))
            try await world.bucket.delete(key: "blobs/\(blob)")
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session,
                ["kind": "upload", "request": ["url": world.origin.url("/upload"), "httpMethod": "PUT"], "uploadSource": ["blob": blob]])
            #expect(task.errorCode != nil, "\(task)")
            #expect(world.origin.requests(path: "/upload").isEmpty)
            #expect(service.files(in: "blobs").isEmpty, "\(service.files(in: "blobs"))")
        }
    }

    /// An object store that refuses the put (a wrong secret): the blob stays on the node's disk, logged
    /// without the secret, and an upload from it still sends its bytes.
    @Test(.timeLimit(.minutes(3)))
    func aRefusedPutKeepsTheBlobOnDisk() async throws {
        let wrongSecret = "wrong-\(UInt32.random(in: 0 ... .max))"
        try await withObjectStoreService(environment: ["AWS_SECRET_ACCESS_KEY": wrongSecret]) { api, service, world in
            let bytes = FixtureOrigin.bytes(count: 200_000, seed: 17)
            let blob = try await api.makeBlob(bytes)
            #expect(service.files(in: "blobs") == [blob])
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session,
                ["kind": "upload", "request": ["url": world.origin.url("/upload"), "httpMethod": "PUT"], "uploadSource": ["blob": blob]])
            #expect(task.errorCode == nil && task.statusCode == 200, "\(task)")
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.bodySize == bytes.count && echo.bodySHA256 == sha256Hex(bytes))
            let log = service.stderrText()
            #expect(log.contains("Putting a blob into the object store failed"), "\(log.suffix(2000))")
            #expect(!log.contains(wrongSecret) && !log.contains(world.s3.secretAccessKey))
            #expect(try await api.delete("/v1/blobs/\(blob)").status == 204)
            #expect(service.files(in: "blobs").isEmpty)
        }
    }

    /// A data task's body too large for the store is kept as a file, put into the bucket, and `/data`
    /// serves it from there, whole and by range, byte-exact; the node's disk no longer has it.
    @Test(.timeLimit(.minutes(3)))
    func aSpilledDataBodyIsServedFromTheBucket() async throws {
        try await withObjectStoreService { api, service, world in
            let expected = FixtureOrigin.bytes(count: Self.size, seed: 5)
            let session = try await api.makeSession()
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": world.origin.url("/bytes/\(Self.size)?seed=5")]])
            #expect(task.errorCode == nil && task.statusCode == 200, "\(task)")
            let id = task.taskID
            #expect(try await world.bucket.head(key: "bodies/\(id)").size == UInt64(Self.size))
            try await eventually(timeout: 10, interval: 0.05) { !service.files(in: "downloads").contains { $0.hasPrefix(id) } }

            let whole = try await api.taskData(id)
            #expect(whole.status == 200, "\(whole.status): \(whole.text)")
            #expect(whole.header("Content-Length") == "\(Self.size)")
            #expect(whole.header("Content-Type") == "application/octet-stream")
            #expect(sha256Hex(whole.body) == sha256Hex(expected))
            let middle = try await api.get("/v1/tasks/\(id)/data", headers: [("Range", "bytes=100-199")])
            #expect(middle.status == 206 && middle.body == Array(expected[100...199]), "\(middle.status)")
            #expect(middle.header("Content-Range") == "bytes 100-199/\(Self.size)")
        }
    }
}
