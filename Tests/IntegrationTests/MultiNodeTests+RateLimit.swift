import Foundation
import TestSupport
import Testing

extension MultiNodeTests {
    /// `PATCH /v1/tasks/{id}` received by a node that does not run the task: the node that does hands the
    /// new limit to its transfer, which takes it without starting again, as on one node.
    @Test(.timeLimit(.minutes(2)))
    func aLimitPatchedOnAnotherNodeReachesTheRunningTransfer() async throws {
        let origin = try await RateOrigin.start()
        defer { origin.stop() }
        try await Self.withTwoNodes { apis, database in
            let (first, second) = (apis[0], apis[1])
            let session = try await first.makeSession()
            // Created through node 2, so node 2 runs it; patched through node 1.
            let id = try await second.createTask(
                session: session,
                [
                    "kind": "download", "request": ["url": "\(origin.url)/bytes/60000000?tag=nodes"],
                    "rateLimit": ["receiveBytesPerSecond": 500_000], "resume": true,
                ]
            ).taskID
            let start = try await BandwidthLimitTests.begun(origin, tag: "nodes")
            try await BandwidthLimitTests.sleep(until: start + 4)
            let slow = try await origin.rate(tag: "nodes", from: start + 1.5, seconds: 2.5)
            BandwidthLimitTests.report("500 kB/s on node 2", slow)
            #expect(abs(slow - 500_000) <= 75_000, "500 kB/s ±15 % before the PATCH: \(Int(slow)) B/s")

            try await BandwidthLimitTests.patchReceiveLimit(of: id, through: first, to: 2_000_000, origin: origin, tag: "nodes")
            #expect(try await second.task(id).limit == ["receiveBytesPerSecond": 2_000_000], "node 2 shows the limit in force")

            #expect(try await Self.tasksPerNode(database) == ["node-2": 1], "node 2 ran it throughout")
            _ = try await first.taskAction(id, "cancel")
        }
    }
}
