import Foundation
import TestSupport
import Testing

extension MultiNodeTests {
    /// Which node holds the session's webhook delivery lease (`delivery:<session>`), from the rows.
    static func deliveryLeaseHolder(of session: String, database: String) async throws -> String {
        let name = PostgresServer.databaseName(of: database)
        return try await PostgresServer.shared().psql("SELECT node FROM lease WHERE name = 'delivery:\(session)'", database: name)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A redeliver received by the node that does not deliver the session is carried out by the one that
    /// does (it alone may send the session's webhooks, and its retry wait is ten minutes long).
    @Test(.timeLimit(.minutes(2)))
    func aRedeliverReachesTheNodeDeliveringTheSession() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let receiver = try WebhookReceiver.start()
        defer { receiver.stop() }
        receiver.setDefaultReply(.status(500))
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-nodes")
        defer { directory.remove() }
        let database = try await PostgresServer.makeDatabase()
        let nodes = try await Self.startNodes(
            2, database: database, maximumTransfers: 4, under: directory, environment: ["URLSESSIOND_WEBHOOK_RETRY_SCHEDULE": "600"])
        let client = HTTPClient()
        let apis = ["node-1": API(nodes[0], client), "node-2": API(nodes[1], client)]
        let first = try #require(apis["node-1"])
        let (session, events) = try await DelegateDeliveryTests.sessionWithEvents(
            first, origin: origin, delegateURL: receiver.url("/hooks"))
        _ = try await receiver.waitForRequests(count: 1, path: "/hooks", timeout: 20)
        try await eventually(timeout: 20, interval: 0.05) {
            (try await DelegateDeliveryTests.delivery(first, session)["state"] as? String) == "retrying"
        }

        let holder = try await Self.deliveryLeaseHolder(of: session, database: database)
        try #require(apis[holder] != nil, "the session's lease is held by a node while its retry waits: '\(holder)'")
        let other = try #require(apis.first { $0.key != holder }?.value, "lease held by \(holder)")
        receiver.setDefaultReply(.ok)
        _ = try await DelegateDeliveryTests.redeliver(other, session)
        try await DelegateDeliveryTests.expectDeliveredAndIdle(other, session, events: events, receiver: receiver, path: "/hooks")
        #expect(SessionUpdateTests.firstArrivals(receiver, path: "/hooks") == events, "every event, in sequence order")
        for node in nodes { #expect(try await node.terminate() == 0) }
    }
}
