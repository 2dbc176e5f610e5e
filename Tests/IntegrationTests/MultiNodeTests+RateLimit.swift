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

            let patched = try await BandwidthLimitTests.patch(first, id, #"{"rateLimit": {"receiveBytesPerSecond": 2000000}}"#)
            #expect(patched.status == 200, "\(patched.text)")
            #expect(try patched.json().limit == ["receiveBytesPerSecond": 2_000_000], "\(patched.text)")
            let changed = Date().timeIntervalSince1970
            try await BandwidthLimitTests.sleep(until: changed + 4.5)
            let fast = try await origin.rate(tag: "nodes", from: changed + 1.5, seconds: 3)
            BandwidthLimitTests.report("PATCH to 2 MB/s through node 1, 1.5-4.5 s after", fast)
            #expect(abs(fast - 2_000_000) <= 300_000, "2 MB/s ±15 % after the PATCH: \(Int(fast)) B/s")
            #expect(try await origin.measurements(tag: "nodes").count == 1, "the same transfer, not started again")
            #expect(try await second.task(id).limit == ["receiveBytesPerSecond": 2_000_000], "node 2 shows the limit in force")

            #expect(try await Self.tasksPerNode(database) == ["node-2": 1], "node 2 ran it throughout")
            _ = try await first.taskAction(id, "cancel")
        }
    }
}
