import Foundation
import TestSupport
import Testing

extension MultiNodeTests {
    /// The transfer waits on the node that runs its task: an answer given on the other node is sent there
    /// and taken (204); one too large for the offer is 413 and changes nothing; a late one is 409 wherever
    /// it is given.
    @Test(.timeLimit(.minutes(2)))
    func anAnswerGivenOnAnotherNodeReachesTheWaitingTransfer() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await Self.withTwoNodes { apis, database in
            let (first, second) = (apis[0], apis[1])
            let redirect = ClientDelegateTests.redirect
            let session = try await ClientDelegateTests.session(first, decisions: [redirect], timeout: 30)
            // Created through node 2, so node 2 runs it and waits for the answer; answered through node 1.
            let task = try await second.createTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/1")], "resume": true])
            let event = try #require(try await ClientDelegateTests.firstEvent(first, session: session, type: redirect)["id"] as? String)

            let big = try jsonText([
                "disposition": "follow",
                "request": ["url": origin.url("/echo"), "allHTTPHeaderFields": ["X-Big": String(repeating: "b", count: 9000)]],
            ])
            expectProblem(
                try await ClientDelegateTests.answer(first, session: session, event: event, big), status: 413, slug: "payload-too-large")
            #expect(try await first.task(task.taskID).state == "running", "still waiting for its answer")

            let offered = try await ClientDelegateTests.answer(first, session: session, event: event, #"{"disposition": "reject"}"#)
            #expect(offered.status == 204, "node 2 took it: \(offered.status): \(offered.text)")
            let completed = try await first.completedTask(task.taskID, within: 20)
            #expect(completed.statusCode == 302, "node 2 took the answer: \(completed)")
            #expect(try await Self.tasksPerNode(database) == ["node-2": 1])
            for api in [first, second] {
                expectProblem(
                    try await ClientDelegateTests.answer(api, session: session, event: event, #"{"disposition": "follow"}"#), status: 409,
                    slug: "conflict")
            }
        }
    }

    /// The session's webhooks are sent by one node; its tasks run on both. The webhook's answer to a
    /// decision reaches the transfer waiting for it on the other node, at once (not at `decisionTimeout`,
    /// when the default handling would follow the redirect), and a body that is not a valid answer means
    /// the default handling there at once too.
    @Test(.timeLimit(.minutes(2)))
    func aWebhooksAnswerReachesTheTransferWaitingOnAnotherNode() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        try await Self.withTwoNodes { apis, database in
            // A 302 is rejected; a 307 gets a body that is not an answer (so it is followed).
            let session = try await TaskDecisionsTests.session(
                apis[0], receiver: receiver, decision: TaskDecisionsTests.redirect, timeout: 60
            ) {
                event in
                let response = (event["data"] as? [String: Any])?["response"] as? [String: Any]
                return int(response?["statusCode"]) == 307 ? .json("not json") : .json(#"{"disposition": "reject"}"#)
            }
            var ids: [(id: String, rejects: Bool)] = []
            for index in 0..<4 {
                let code = index < 2 ? 302 : 307
                let created = try await apis[index % 2].createTask(
                    session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/1?code=\(code)")], "resume": true])
                ids.append((created.taskID, index < 2))
            }
            let holder = try await Self.deliveryLeaseHolder(of: session, database: database)
            for (id, rejects) in ids {
                let completed = try await apis[0].completedTask(id, within: 30)
                #expect(completed.statusCode == (rejects ? 302 : 200), "\(id) (webhooks sent by \(holder)): \(completed)")
            }
            let perNode = try await Self.tasksPerNode(database)
            #expect(perNode == ["node-1": 2, "node-2": 2], "tasks ran on both nodes, so some away from the webhooks' node: \(perNode)")
        }
    }
}
