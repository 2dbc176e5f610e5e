import EventDelivery
import Foundation
import TestSupport
import Testing
import TransferModels
import TransferStore

/// A queue's events leave as a chain (`WebhookChain`): the loop sends each as the one before is answered
/// 2xx. What a receiver sees must be what one POST at a time gave: order, one in flight, retries of the
/// same bytes, fresh signatures.
@Suite("Webhook dispatcher: chains of a queue's POSTs")
struct WebhookChainTests {
    /// A failure in the middle of a chain ends it: nothing after the failed event leaves before its retry
    /// succeeds, and the chain goes on from there.
    @Test(.timeLimit(.minutes(1)))
    func aFailureEndsTheChainAndItsRetryComesFirst() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.script([.status(204), .status(204), .status(204), .status(503)])
        let session = try await harness.session()
        let events = try await harness.appendProgress(session, count: 8)
        let requests = try await harness.withDispatcher { _ in
            let requests = try await harness.receiver.waitForRequests(count: 9, timeout: 10)
            try await harness.waitUntilQueuesAreEmpty()
            return requests
        }
        let ids = events.map(\.id)
        #expect(requests.map(\.eventId) == Array(ids[0...3]) + Array(ids[3...]))
        #expect(requests[4].receivedAt.timeIntervalSince(requests[3].receivedAt) >= 0.18, "the retry waited its schedule")
        #expect(requests[3].body == requests[4].body, "a retry sends the same bytes")
        for request in requests { expectSigned(request) }
        let stored = try await harness.storedEvents(session)
        #expect(stored.map(\.deliveryAttempts) == [1, 1, 1, 2, 1, 1, 1, 1])
        #expect(stored.allSatisfy { $0.deliveredAt != nil })
    }

    /// A chain is signed when it leaves the coordinator; past `chainLifetime` its rest is signed again, so
    /// a slow receiver never gets a timestamp older than that. With no lifetime at all every POST goes
    /// through the coordinator, one at a time, as before chains.
    @Test(.timeLimit(.minutes(1)))
    func aChainPastItsLifetimeIsSignedAgain() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.setDefaultReply(.status(200, delay: 0.6))
        let session = try await harness.session()
        let events = try await harness.appendProgress(session, count: 4)
        var configuration = DeliveryHarness.configuration()
        configuration.chainLifetime = .milliseconds(500)
        let requests = try await harness.withDispatcher(configuration) { _ in
            let requests = try await harness.receiver.waitForRequests(count: 4, timeout: 15)
            try await harness.waitUntilQueuesAreEmpty()
            return requests
        }
        #expect(requests.map(\.eventId) == events.map(\.id))
        for request in requests {
            expectSigned(request)
            let timestamp = try #require(request.header("webhook-timestamp").flatMap(Double.init))
            // Seconds, so up to 1 s of rounding: a chain signed once would reach 1.8 s behind by the fourth.
            #expect(request.receivedAt.timeIntervalSince1970 - timestamp < 1.5, "signed \(timestamp), received \(request.receivedAt)")
        }
        for (earlier, later) in zip(requests, requests.dropFirst()) {
            #expect(later.receivedAt.timeIntervalSince(earlier.receivedAt) >= 0.55, "one POST in flight at a time")
        }
    }

    /// A redeliver (the delegate "changed") while a long chain is under way ends the chain after the POST
    /// in flight; the queue then starts again from its stored cursor, and every event still arrives, in order
    /// after the restart point.
    @Test(.timeLimit(.minutes(1)))
    func aRedeliverEndsTheChainInFlight() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.setDefaultReply(.status(200, delay: 0.05))
        let session = try await harness.session()
        let events = try await harness.appendProgress(session, count: 40)
        let requests = try await harness.withDispatcher { _ in
            _ = try await harness.receiver.waitForRequests(count: 3, timeout: 10)
            _ = try await harness.store.value.deliveries.redeliverDelegateEvents(sessionId: session.id, tenant: "t1")
            try await harness.waitUntilQueuesAreEmpty(timeout: 20)
            return harness.receiver.requests
        }
        let ids = events.map(\.id)
        let received = requests.compactMap(\.eventId)
        #expect(Set(received) == Set(ids), "every event arrives")
        #expect(received.last == ids.last)
        // Each event's first arrival is in order; a redeliver may send some again, from the restart point.
        var firsts: [String] = []
        for id in received where !firsts.contains(id) { firsts.append(id) }
        #expect(firsts == ids)
    }
}
