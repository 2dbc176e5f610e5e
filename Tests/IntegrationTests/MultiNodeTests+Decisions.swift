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
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        let nodes = try await Self.startNodes(2, database: database, maximumTransfers: 4, under: directory)
        let client = HTTPClient()
        let (first, second) = (API(nodes[0], client), API(nodes[1], client))
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
        for node in nodes { #expect(try await node.terminate() == 0) }
    }
}
