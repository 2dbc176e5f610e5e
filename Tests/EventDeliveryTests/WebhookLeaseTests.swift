import CoreMetrics
import Crypto
import EventDelivery
import Foundation
import JSONCodec
import Logging
import ServiceLifecycle
import TestSupport
import Testing
import TransferModels
import TransferStore

/// Two nodes (two stores on one PostgreSQL database, each with its dispatcher) and one real receiver:
/// one node at a time delivers a session's webhooks, each event once and in order, and when the node
/// delivering stops or dies the other one continues from the session's cursor.
@Suite("Webhook delivery across nodes (PostgreSQL)")
struct WebhookLeaseTests {
    /// Renewed past half its time: long enough that a node starved of CPU for a few seconds (the suites
    /// run three tests at a time on 2 cores) keeps it, since a lapsed lease hands the session to the other
    /// node, which sends again what the first sent but had not yet recorded (at-least-once, as documented).
    static let lease = Duration.seconds(6)

    @Test(.timeLimit(.minutes(2)))
    func twoNodesDeliverEachEventInOrderOneAtATime() async throws {
        let nodes = try await LeaseNodes.open()
        defer { nodes.close() }
        let answerDelay = 0.05
        nodes.receiver.setDefaultReply(.status(200, delay: answerDelay))
        let session = try await nodes.session()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await nodes.a.followOtherNodes() }
            group.addTask { await nodes.b.followOtherNodes() }
            defer { group.cancelAll() }
            let dispatcherA = nodes.serviceGroup(store: nodes.a, node: "A")
            group.addTask { try await dispatcherA.run() }
            try await nodes.append(10, to: session, on: nodes.a)
            _ = try await nodes.receiver.waitForRequests(count: 1, path: "/hooks", timeout: 20)
            // B starts while A delivers; events come from both nodes.
            let dispatcherB = nodes.serviceGroup(store: nodes.b, node: "B")
            group.addTask { try await dispatcherB.run() }
            for _ in 0..<5 {
                try await nodes.append(2, to: session, on: nodes.b)
                try await nodes.append(2, to: session, on: nodes.a)
            }
            _ = try await nodes.receiver.waitForRequests(count: 25, path: "/hooks", timeout: 20)
            // A stops (gracefully: it releases its lease); B delivers what follows.
            await dispatcherA.triggerGracefulShutdown()
            try await nodes.append(10, to: session, on: nodes.b)
            try await eventually(timeout: 30) {
                Set(nodes.receiver.requests(path: "/hooks").compactMap(\.sequence)).count == 40
            }
            try await eventually(timeout: 10) { try await nodes.b.deliveries.deliveryQueueDepth() == 0 }
            await dispatcherB.triggerGracefulShutdown()
        }
        let received = nodes.receiver.requests(path: "/hooks")
        // In order; an event sent again only right after itself (a POST abandoned by A's shutdown).
        let sequences = received.compactMap(\.sequence)
        var collapsed: [Int] = []
        for sequence in sequences where collapsed.last != sequence { collapsed.append(sequence) }
        #expect(collapsed == Array(1...40))
        #expect(sequences.count - collapsed.count <= 1)
        // One node at a time: each POST of a session waits for the answer to the one before (answered
        // after `answerDelay`), so two nodes delivering at once would show closer arrivals.
        for (earlier, later) in zip(received, received.dropFirst()) where earlier.sequence != later.sequence {
            #expect(later.receivedAt.timeIntervalSince(earlier.receivedAt) >= answerDelay * 0.9)
        }
        #expect(try await nodes.b.cluster.leaseHolder(name: "delivery:\(session.id)") == nil)  // released at shutdown
    }

    @Test(.timeLimit(.minutes(2)))
    func aNodeThatDiesLosesTheSessionAfterTheLeaseTime() async throws {
        let nodes = try await LeaseNodes.open()
        defer { nodes.close() }
        let session = try await nodes.session()
        // Node A took the session's lease and died (kill -9): nobody renews or releases it.
        #expect(try await nodes.a.cluster.acquireLease(name: "delivery:\(session.id)", node: "A", duration: Self.lease))
        let expiresAt = try #require(try await nodes.a.cluster.leaseHolder(name: "delivery:\(session.id)")).expiresAt
        try await nodes.append(10, to: session, on: nodes.a)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await nodes.b.followOtherNodes() }
            defer { group.cancelAll() }
            let dispatcherB = nodes.serviceGroup(store: nodes.b, node: "B")
            group.addTask { try await dispatcherB.run() }
            _ = try await nodes.receiver.waitForRequests(count: 10, path: "/hooks", timeout: 30)
            try await eventually(timeout: 10) { try await nodes.b.deliveries.deliveryQueueDepth() == 0 }
            await dispatcherB.triggerGracefulShutdown()
        }
        let received = nodes.receiver.requests(path: "/hooks")
        #expect(received.compactMap(\.sequence) == Array(1...10))
        // Not before A's lease expired (its expiry is stored to the millisecond).
        let first = try #require(received.first)
        #expect(first.receivedAt >= expiresAt.addingTimeInterval(-0.002))
    }
}

/// Two stores on one fresh PostgreSQL database, and a receiver.
struct LeaseNodes {
    let a: TransferStore
    let b: TransferStore
    let receiver: WebhookReceiver
    static let secret = "whsec_" + Data((0..<32).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }).base64EncodedString()
    static let silent = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func open() async throws -> LeaseNodes {
        let url = try await PostgresServer.makeDatabase()
        let secrets = SecretBox(key: SymmetricKey(size: .bits256))
        let a = try await TransferStore.open(postgresURL: url, secrets: secrets, logger: silent)
        let b = try await TransferStore.open(postgresURL: url, secrets: secrets, logger: silent)
        return LeaseNodes(a: a, b: b, receiver: try WebhookReceiver.start())
    }

    func close() {
        receiver.stop()
        try? a.close()
        try? b.close()
    }

    /// A session made on A whose delegate posts every event to the receiver's `/hooks`.
    func session() async throws -> SessionRecord {
        let json = try JSONSerialization.data(withJSONObject: ["delegate": ["url": receiver.url("/hooks"), "secret": Self.secret]])
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json)).validated()
        guard case .created(let record) = try await a.sessions.createSession(tenant: "t1", request: request, secret: Self.secret)
        else { throw CancellationError() }
        return record
    }

    func append(_ count: Int, to session: SessionRecord, on store: TransferStore) async throws {
        for _ in 0..<count {
            try await store.events.appendEvent(sessionId: session.id, taskId: nil, type: .taskDidSendBodyData, dataJSON: "{}")
        }
    }

    /// A dispatcher of node `node` on `store`, in a service group of its own (stopped by its graceful
    /// shutdown, as the service stops it).
    func serviceGroup(store: TransferStore, node: String) -> ServiceGroup {
        var configuration = DeliveryHarness.configuration()
        configuration.nodeID = node
        configuration.leaseDuration = WebhookLeaseTests.lease
        let dispatcher = WebhookDispatcher(
            store: store, configuration: configuration, metricsFactory: NOOPMetricsHandler.instance, logger: Self.silent)
        return ServiceGroup(configuration: .init(services: [.init(service: dispatcher)], logger: Self.silent))
    }
}
