import EventDelivery
import Foundation
import JSONCodec
import TestSupport
import Testing
import TransferModels
import TransferStore

@Suite("Webhook dispatcher: decisions and completion handlers")
struct WebhookDecisionAndCompletionTests {
    static let redirect = #"{"request":{"url":"https://b.example/"},"response":{"statusCode":302}}"#

    @Test(.timeLimit(.minutes(1)))
    func aDecisionGetsItsAnswerOnceAndIsNeverRetried() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let session = try await harness.session(decisions: ["task.willPerformHTTPRedirection"])
        harness.receiver.script([.json(#"{"disposition":"reject"}"#), .status(500)])
        let waiters = DecisionWaiters()
        try await harness.withDispatcher(decisions: waiters) { _ in
            let store = harness.store.value
            let asked = try await store.events.appendEvent(
                sessionId: session.id, taskId: nil, type: .taskWillPerformHTTPRedirection, dataJSON: Self.redirect)
            let answer = await waiters.answer(eventId: asked.id, within: .seconds(5))
            #expect(answer == .answered(Array(#"{"disposition":"reject"}"#.utf8)))

            let unanswered = try await store.events.appendEvent(
                sessionId: session.id, taskId: nil, type: .taskWillPerformHTTPRedirection, dataJSON: Self.redirect)
            #expect(await waiters.answer(eventId: unanswered.id, within: .seconds(5)) == .noAnswer)
            let after = try await harness.appendProgress(session, count: 1)
            let requests = try await harness.receiver.waitForRequests(count: 3, timeout: 10)
            #expect(requests.map(\.eventId) == [asked.id, unanswered.id, after[0].id], "a failed decision is not retried")
            try await Task.sleep(for: .milliseconds(400))
        }
        #expect(harness.receiver.requests.count == 3)
        let stored = try await harness.storedEvents(session)
        #expect(stored[1].deliveredAt == nil && stored[1].deliveryAttempts == 1, "given up, still readable")
    }

    @Test(.timeLimit(.minutes(1)))
    func aDecisionTypeTheDelegateDoesNotImplementIsAnOrdinaryNotification() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let store = harness.store.value
        let all = try await harness.session(path: "/all", decisions: ["dataTask.didReceiveResponse"])
        let filtered = try await harness.session(
            path: "/filtered", events: ["task.didSendBodyData"], decisions: ["dataTask.didReceiveResponse"])
        let failedOnce = LockedBox(false)
        harness.receiver.respond { request in  // the first POST to /all fails
            guard request.path == "/all" else { return nil }
            return failedOnce.withLock { failed in
                defer { failed = true }
                return failed ? nil : .status(503)
            }
        }
        let notified = try await store.events.appendEvent(
            sessionId: all.id, taskId: nil, type: .taskWillPerformHTTPRedirection, dataJSON: Self.redirect)
        let decided = try await store.events.appendEvent(
            sessionId: all.id, taskId: nil, type: .dataTaskDidReceiveResponse, dataJSON: #"{"response":null}"#)
        let skipped = try await store.events.appendEvent(
            sessionId: filtered.id, taskId: nil, type: .taskWillPerformHTTPRedirection, dataJSON: Self.redirect)
        let passed = try await store.events.appendEvent(
            sessionId: filtered.id, taskId: nil, type: .dataTaskDidReceiveResponse, dataJSON: #"{"response":null}"#)
        try await harness.withDispatcher { _ in
            let first = try await harness.receiver.waitForRequests(count: 3, path: "/all", timeout: 10)
            // Not implemented: retried like any notification. Implemented: sent once, answered.
            #expect(first.map(\.eventId) == [notified.id, notified.id, decided.id])
            let second = try await harness.receiver.waitForRequests(count: 1, path: "/filtered", timeout: 10)
            // The filter applies to notifications; an implemented decision passes it.
            #expect(second.map(\.eventId) == [passed.id])
            #expect(!second.contains { $0.eventId == skipped.id })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func completionEventsGoToTheirTaskSignedWithTheTaskSecret() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let store = harness.store.value
        let shared = try await store.sessions.sharedSession(tenant: "t1")  // no delegate, no secret of its own
        let taskSecret = "whsec_" + Data((0..<24).map { UInt8($0 &+ 100) }).base64EncodedString()
        var tasks: [TaskRecord] = []
        for index in 0..<3 {
            let json = """
                {"kind": "data", "request": {"url": "https://o.example/\(index)"},
                 "completion": {"url": "\(harness.receiver.url("/done/\(index)"))", "secret": "\(taskSecret)"}}
                """
            let request = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
                .validated(session: SessionConfiguration(kind: .default))
            tasks.append(try await store.tasks.createTask(tenant: "t1", sessionId: shared.id, request: request))
        }
        harness.receiver.script([.status(502)])
        var completions: [EventRecord] = []
        for task in tasks {
            completions.append(
                try await store.events.appendEvent(
                    sessionId: shared.id, taskId: task.id, type: .taskCompletion,
                    dataJSON: #"{"data":"aGk=","error":null,"response":{"statusCode":200}}"#))
        }
        let requests = try await harness.withDispatcher { _ in
            let requests = try await harness.receiver.waitForRequests(count: 4, timeout: 10)
            try await harness.waitUntilQueuesAreEmpty()
            return requests
        }
        #expect(requests.map(\.path) == ["/done/0", "/done/0", "/done/1", "/done/2"])
        #expect(requests.map(\.eventId) == [completions[0].id] + completions.map(\.id) as [String?])
        for request in requests { expectSigned(request, secret: taskSecret) }
        #expect(try await harness.storedEvents(shared).filter { $0.type == .taskCompletion }.allSatisfy { $0.deliveredAt != nil })
    }

    @Test(.timeLimit(.minutes(1)))
    func aCompletionWithoutItsOwnSecretIsSignedWithTheDelegates() async throws {
        let harness = try await DeliveryHarness()
        defer { harness.close() }
        let store = harness.store.value
        let session = try await harness.session(events: ["task.didCompleteWithError"])
        let json =
            #"{"kind": "data", "request": {"url": "https://o.example/"}, "completion": {"url": "\#(harness.receiver.url("/done"))"}}"#
        let request = try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: SessionConfiguration(kind: .default))
        let task = try await store.tasks.createTask(tenant: "t1", sessionId: session.id, request: request)
        let completion = try await store.events.appendEvent(
            sessionId: session.id, taskId: task.id, type: .taskCompletion, dataJSON: #"{"error":null}"#)
        let requests = try await harness.withDispatcher { _ in
            try await harness.receiver.waitForRequests(count: 1, timeout: 10)
        }
        #expect(requests.map(\.path) == ["/done"], "task.completion never goes to the delegate")
        #expect(requests.first?.eventId == completion.id)
        for request in requests { expectSigned(request) }
    }
}
