import Foundation
import TestSupport
import Testing

/// Two nodes on one PostgreSQL database and one bucket, each with a data directory of its own: what one
/// node keeps (a blob, a data body) is used or served by the other through the object store alone.
@Suite("Nodes sharing an object store, not a directory")
struct MultiNodeObjectStoreTests {
    @Test(.timeLimit(.minutes(3)))
    func aBlobStoredOnOneNodeIsUploadedByTheOtherAndBodiesAreServedByBoth() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let s3 = try await S3Server.start()
        defer { s3.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes-s3")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        let key = Data((0..<32).map { UInt8($0 * 7 + 1) }).base64EncodedString()
        var nodes: [ServiceProcess] = []
        for index in 1...2 {
            let environment = TaskEnvironment.loopback.merging(s3.serviceEnvironment()) { $1 }.merging([
                "URLSESSIOND_DATABASE_URL": database, "URLSESSIOND_NODE_ID": "node-\(index)", "URLSESSIOND_LEASE_SECONDS": "5",
                "URLSESSIOND_SECRET_KEY": key, "URLSESSIOND_MAX_TRANSFERS": "1",
            ]) { $1 }
            nodes.append(try await ServiceProcess.start(dataDirectory: directory.appending("data-\(index)"), environment: environment))
        }
        let client = HTTPClient()
        let (first, second) = (API(nodes[0], client), API(nodes[1], client))
        let session = try await first.makeSession(["urlCache": NSNull()])
        // Two slow downloads fill node 1 (it holds twice its one slot): the upload created through it next
        // can only be run by node 2, which has none of node 1's files.
        var slow: [String] = []
        for seed in 0..<2 {
            let url = origin.url("/bytes/300000?seed=\(seed)&rate=100000")
            slow.append(try await first.createTask(session: session, ["kind": "download", "request": ["url": url], "resume": true]).taskID)
        }
        let bytes = FixtureOrigin.bytes(count: 400_000, seed: 21)
        let blob = try await first.makeBlob(bytes)
        let upload = try await first.createTask(
            session: session,
            [
                "kind": "upload", "request": ["url": origin.url("/upload"), "httpMethod": "PUT"], "uploadSource": ["blob": blob],
                "resume": true,
            ])
        let uploaded = try await first.completedTask(upload.taskID, within: 30)
        #expect(uploaded.errorCode == nil && uploaded.statusCode == 200, "\(uploaded)")
        #expect(try await first.echo(of: upload.taskID).bodySHA256 == sha256Hex(bytes), "the blob's bytes reached the origin")
        let uploadsPerNode = try await MultiNodeTests.tasksPerNode(database, where: "kind = 'upload'")
        #expect(uploadsPerNode == ["node-2": 1], "node 2 ran the upload: \(uploadsPerNode)")

        // A data body kept as a file by whichever node ran it is served byte-exact by both.
        let data = try await first.createTask(
            session: session, ["kind": "data", "request": ["url": origin.url("/bytes/250000?seed=4")], "resume": true])
        #expect(try await first.completedTask(data.taskID, within: 30).errorCode == nil)
        for api in [first, second] {
            let body = try await api.taskData(data.taskID)
            #expect(body.status == 200 && sha256Hex(body.body) == fixtureSHA256(count: 250_000, seed: 4), "\(body.status)")
        }
        for id in slow { #expect(try await first.completedTask(id, within: 30).errorCode == nil) }
        for node in nodes { #expect(try await node.terminate() == 0) }
    }
}
