import Curl
import EventDelivery
import Foundation
import TestSupport
import Testing
import TransferModels
import TransferStore

@Suite("Webhook dispatcher: failures, retries, 410, egress")
struct WebhookRetryTests {
    @Test(.timeLimit(.minutes(1)))
    func retriesOnTheScheduleThenDeliversInOrder() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.script([.status(503), .status(500)])
        let session = try await harness.session()
        let events = try await harness.appendProgress(session, count: 3)
        let requests = try await harness.withDispatcher { _ in
            let requests = try await harness.receiver.waitForRequests(count: 5, timeout: 10)
            try await harness.waitUntilQueuesAreEmpty()
            return requests
        }
        #expect(requests.map(\.eventId) == [events[0].id, events[0].id, events[0].id, events[1].id, events[2].id])
        #expect(requests[0].body == requests[2].body, "a retry sends the same bytes")
        for request in requests { expectSigned(request) }
        #expect(requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt) >= 0.18)
        #expect(requests[2].receivedAt.timeIntervalSince(requests[1].receivedAt) >= 0.18)
        let stored = try await harness.storedEvents(session)
        #expect(stored.map(\.deliveryAttempts) == [3, 1, 1])
        #expect(stored.allSatisfy { $0.deliveredAt != nil && $0.nextAttemptAt == nil })
    }

    @Test(.timeLimit(.minutes(1)))
    func retryAfterIsHonoured() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.script([.status(429, headers: [("Retry-After", "1")])])
        let session = try await harness.session()
        try await harness.appendProgress(session, count: 1)
        let requests = try await harness.withDispatcher(DeliveryHarness.configuration(schedule: [0.05])) { _ in
            try await harness.receiver.waitForRequests(count: 2, timeout: 10)
        }
        let gap = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
        #expect(gap >= 0.95 && gap < 3, "waited \(gap) s, not the 1 s asked")
        #expect(requests[0].eventId == requests[1].eventId)
    }

    /// `Retry-After: 0` and a date already past mean the schedule's next interval, never "at once".
    @Test(.timeLimit(.minutes(1)), arguments: ["0", "Sat, 05 Nov 1994 08:49:37 GMT"])
    func retryAfterZeroOrPastWaitsForTheSchedule(retryAfter: String) async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.script([.status(503, headers: [("Retry-After", retryAfter)])])
        let session = try await harness.session()
        try await harness.appendProgress(session, count: 1)
        let requests = try await harness.withDispatcher(DeliveryHarness.configuration(schedule: [1])) { _ in
            try await harness.receiver.waitForRequests(count: 2, timeout: 10)
        }
        let gap = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
        #expect(gap >= 0.75, "retried after \(gap) s, not the schedule's 1 s (± 20 %)")
    }

    @Test(.timeLimit(.minutes(1)))
    func goneDisablesTheDelegateAndKeepsTheEvents() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.script([.ok, .status(410)])
        let session = try await harness.session()
        try await harness.appendProgress(session, count: 4)
        try await harness.withDispatcher { _ in
            _ = try await harness.receiver.waitForRequests(count: 2, timeout: 10)
            try await eventually(timeout: 5) { try await harness.store.value.deliveries.delegateDisabledAt(sessionId: session.id) != nil }
            try await harness.appendProgress(session, count: 1)
            try await Task.sleep(for: .milliseconds(700))  // two scans and many ticks: nothing more is sent
        }
        #expect(harness.receiver.requests.count == 2)
        let stored = try await harness.storedEvents(session)
        #expect(stored.count == 5, "the events stay readable")
        #expect(stored.filter { $0.deliveredAt != nil }.count == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func theEgressPolicyRefusesLoopbackUnlessAllowed() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let session = try await harness.session()
        try await harness.appendProgress(session, count: 1)
        var configuration = DeliveryHarness.configuration(schedule: [0.1])
        configuration.egress = EgressPolicy()  // the default: loopback denied
        try await harness.withDispatcher(configuration) { _ in
            try await eventually(timeout: 5) { try await harness.storedEvents(session)[0].deliveryAttempts >= 2 }
        }
        #expect(harness.receiver.acceptedConnections == 0, "a refused address was connected to")
        let stored = try await harness.storedEvents(session)
        #expect(stored[0].deliveredAt == nil && stored[0].nextAttemptAt != nil)
    }
}
