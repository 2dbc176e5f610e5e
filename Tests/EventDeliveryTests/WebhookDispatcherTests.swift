import EventDelivery
import Foundation
import TestSupport
import Testing
import TransferModels
import TransferStore

@Suite("Webhook dispatcher: order, parallelism, filters, restarts")
struct WebhookDispatcherTests {
    @Test(.timeLimit(.minutes(1)))
    func deliversEverySessionInOrderSigned() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        var sessions: [SessionRecord] = []
        for index in 0..<4 { sessions.append(try await harness.session(path: "/s\(index)")) }
        for session in sessions { try await harness.appendProgress(session, count: 40) }
        let requests = try await harness.withDispatcher { _ in
            let requests = try await harness.receiver.waitForRequests(count: 160, timeout: 20)
            try await harness.waitUntilQueuesAreEmpty()
            return requests
        }
        #expect(requests.count == 160, "no duplicates without failures")
        for (index, session) in sessions.enumerated() {
            let received = requests.filter { $0.path == "/s\(index)" }
            #expect(received.compactMap(\.sequence) == Array(1...40))
            #expect(received.allSatisfy { $0.sessionId == session.id })
            for request in received { expectSigned(request) }
        }
        // The body is the event as API.md shows it, data embedded as JSON.
        let first = try requests[0].json()
        #expect(Set(first.keys) == ["id", "type", "sequence", "timestamp", "sessionId", "taskId", "data"])
        #expect(first["type"] as? String == "task.didSendBodyData")
        #expect((first["data"] as? [String: Any])?["totalBytesExpectedToSend"] as? Int == -1)
        #expect(first["taskId"] is NSNull)
        #expect(first["id"] as? String == requests[0].eventId)
        // Acknowledged in the store.
        for session in sessions {
            let stored = try await harness.storedEvents(session)
            #expect(stored.allSatisfy { $0.deliveredAt != nil && $0.deliveryAttempts == 1 })
        }
        #expect(try await harness.store.value.deliveries.deliveryQueueDepth() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func sessionsRunInParallelButEachOneAtATime() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        harness.receiver.setDefaultReply(.status(200, delay: 0.3))
        var sessions: [SessionRecord] = []
        for index in 0..<8 { sessions.append(try await harness.session(path: "/p\(index)")) }
        for session in sessions { try await harness.appendProgress(session, count: 2) }
        let started = ContinuousClock.now
        let requests = try await harness.withDispatcher { _ in
            try await harness.receiver.waitForRequests(count: 16, timeout: 20)
        }
        // One at a time for all 16 would take 4.8 s; eight sessions side by side, about 0.6 s.
        #expect(ContinuousClock.now - started < .seconds(3))
        for index in 0..<8 {
            let received = requests.filter { $0.path == "/p\(index)" }
            try #require(received.count == 2)
            #expect(received[1].receivedAt.timeIntervalSince(received[0].receivedAt) >= 0.28, "two in flight at once")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theEventsFilterSkipsWithoutBlocking() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let session = try await harness.session(events: ["task.didCompleteWithError"])
        try await harness.appendProgress(session, count: 300)  // more than one read batch, none delivered
        let wanted = try await harness.store.value.events.appendEvent(
            sessionId: session.id, taskId: nil, type: .taskDidCompleteWithError, dataJSON: #"{"error":null}"#)
        try await harness.appendProgress(session, count: 3)
        try await harness.withDispatcher { _ in
            let requests = try await harness.receiver.waitForRequests(count: 1, timeout: 10)
            #expect(requests.map(\.eventId) == [wanted.id])
            try await eventually(timeout: 5) { try await harness.store.value.deliveries.deliveryQueueDepth() == 0 }
        }
        #expect(harness.receiver.requests.count == 1)
        let stored = try await harness.storedEvents(session)
        #expect(stored.filter { $0.deliveredAt != nil }.map(\.id) == [wanted.id])
    }

    @Test(.timeLimit(.minutes(1)))
    func aRestartDeliversWhatWasLeft() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let session = try await harness.session()
        let events = try await harness.appendProgress(session, count: 5)
        harness.receiver.setDefaultReply(.status(503))
        try await harness.withDispatcher(DeliveryHarness.configuration(schedule: [0.1])) { _ in
            try await eventually(timeout: 10) { try await harness.storedEvents(session)[0].deliveryAttempts >= 3 }
        }
        #expect(Set(harness.receiver.requests.map(\.eventId)) == [events[0].id], "the head blocks its queue")

        try await harness.reopenStore()
        harness.receiver.setDefaultReply(.ok)
        let before = harness.receiver.requests.count
        try await harness.withDispatcher { _ in
            _ = try await harness.receiver.waitForRequests(count: before + 5, timeout: 10)
            try await harness.waitUntilQueuesAreEmpty()
        }
        let after = harness.receiver.requests.dropFirst(before)
        #expect(after.map(\.eventId) == events.map(\.id) as [String?])
        #expect(try await harness.storedEvents(session).allSatisfy { $0.deliveredAt != nil })
    }
}
