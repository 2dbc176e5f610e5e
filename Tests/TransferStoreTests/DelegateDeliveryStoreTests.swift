import Foundation
import JSONCodec
import TestSupport
import Testing
import TransferModels
import TransferStore

/// A delegate's delivery state: derived from its columns, written with the dispatcher's batches of
/// outcomes, read back from the row, and restarted by a redeliver.
@Suite("TransferStore: delegate delivery state")
struct DelegateDeliveryStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000.250)

    @Test(arguments: [
        (DelegateDeliveryRecord(), DelegateDelivery.State.idle, false),
        (DelegateDeliveryRecord(lastSequence: 4, cursor: 1), .delivering, false),
        (DelegateDeliveryRecord(lastSequence: 4, cursor: 1, retryAt: t0), .retrying, true),
        (DelegateDeliveryRecord(lastSequence: 4, cursor: 4, retryAt: t0), .idle, false),
        (DelegateDeliveryRecord(lastSequence: 4, cursor: 1, heldAt: t0), .held, false),
        (DelegateDeliveryRecord(lastSequence: 4, cursor: 1, heldAt: t0, disabledAt: t0), .disabled, false),
        (DelegateDeliveryRecord(lastSequence: 4, cursor: 4, disabledAt: t0), .disabled, false),
    ])
    func theStateFollowsTheColumns(record: DelegateDeliveryRecord, state: DelegateDelivery.State, waitsForRetry: Bool) {
        let wire = record.wire
        #expect(wire.state == state)
        #expect(wire.pendingEvents == record.lastSequence - record.cursor)
        #expect(wire.deliveredThrough == record.cursor)
        #expect(wire.nextAttemptAt == (waitsForRetry ? record.retryAt : nil), "a retry time shows only while retrying")
    }

    @Test func healthChangesMergeInTheOrderTheyHappened() {
        var older = DelegateHealthChange()
        older.failed(at: Self.t0, reason: "HTTP 500")
        older.failed(at: Self.t0 + 1, reason: "timed out")
        #expect(older.failures == 2 && older.deliveredAt == nil)

        var failing = DelegateHealthChange()
        failing.failed(at: Self.t0 + 2, reason: "HTTP 503")
        let failures = older.followed(by: failing)
        #expect(failures.failures == 3 && failures.lastFailure?.reason == "HTTP 503" && failures.deliveredAt == nil)

        var recovering = DelegateHealthChange()
        recovering.failed(at: Self.t0 + 3, reason: "HTTP 502")
        recovering.delivered(at: Self.t0 + 4)
        let recovered = older.followed(by: recovering)
        #expect(recovered.failures == 0 && recovered.deliveredAt == Self.t0 + 4, "a success ends the failures before it")
        #expect(recovered.lastFailure?.reason == "HTTP 502", "the last failure is still the last one")

        #expect(recovering.followed(by: DelegateHealthChange()) == recovering)
    }

    @Test func outcomesAreReadBackAndARedeliverRestartsTheQueue() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let withDelegate = try StrictJSONDecoder().decode(
            SessionCreateRequest.self, from: Array(#"{"delegate": {"url": "https://hooks.example/a"}}"#.utf8)
        ).validated()
        guard case .created(let session) = try await store.sessions.createSession(tenant: "t1", request: withDelegate, secret: nil),
            case .created(let bare) = try await store.sessions.createSession(tenant: "t1", request: try Self.empty(), secret: nil)
        else { throw CancellationError() }
        var events: [EventRecord] = []
        for _ in 0..<3 {
            events.append(
                try await store.events.appendEvent(
                    sessionId: session.id, taskId: nil, type: .taskDidSendBodyData, dataJSON: #"{"bytesSent":1}"#))
        }
        #expect(try await store.deliveries.delegateDelivery(sessionId: bare.id) == nil, "no delegate, no delivery state")
        #expect(try await store.deliveries.delegateDelivery(sessionId: session.id)?.wire.state == .delivering)

        // Two failed attempts of the head, in two batches.
        for attempt in 0..<2 {
            var outcomes = DeliveryOutcomes()
            outcomes.failures = [.init(eventId: events[0].id, nextAttemptAt: Self.t0 + 600)]
            outcomes.delegateRetry[session.id] = .at(Self.t0 + 600)
            outcomes.delegateHealth[session.id, default: DelegateHealthChange()].failed(
                at: Self.t0 + Double(attempt), reason: "HTTP 500")
            try await store.deliveries.recordDeliveries(outcomes)
        }
        let retrying = try #require(try await store.deliveries.delegateDelivery(sessionId: session.id)).wire
        #expect(retrying.state == .retrying && retrying.nextAttemptAt == Self.t0 + 600)
        #expect(retrying.consecutiveFailures == 2 && retrying.pendingEvents == 3 && retrying.lastDeliveredAt == nil)
        #expect(retrying.lastFailure == DelegateDelivery.Failure(at: Self.t0 + 1, reason: "HTTP 500"))

        // The head and the next one get through.
        var outcomes = DeliveryOutcomes()
        outcomes.delivered = [events[0].id: Self.t0 + 10, events[1].id: Self.t0 + 11]
        outcomes.cursors[session.id] = events[1].sequence
        outcomes.delegateRetry[session.id] = .now
        outcomes.delegateHealth[session.id, default: DelegateHealthChange()].delivered(at: Self.t0 + 11)
        try await store.deliveries.recordDeliveries(outcomes)
        let delivering = try #require(try await store.deliveries.delegateDelivery(sessionId: session.id)).wire
        #expect(delivering.state == .delivering && delivering.pendingEvents == 1 && delivering.deliveredThrough == events[1].sequence)
        #expect(delivering.consecutiveFailures == 0 && delivering.lastDeliveredAt == Self.t0 + 11 && delivering.nextAttemptAt == nil)
        #expect(delivering.lastFailure?.reason == "HTTP 500", "the last failure stays as history")

        // A 410 disables the URL; a redeliver forgets it, and the listing shows the same state.
        outcomes = DeliveryOutcomes()
        outcomes.disabled[session.id] = Self.t0 + 20
        outcomes.delegateHealth[session.id, default: DelegateHealthChange()].failed(at: Self.t0 + 20, reason: "HTTP 410")
        try await store.deliveries.recordDeliveries(outcomes)
        let disabled = try #require(try await store.deliveries.delegateDelivery(sessionId: session.id)).wire
        #expect(disabled.state == .disabled && disabled.disabledAt == Self.t0 + 20 && disabled.consecutiveFailures == 1)
        guard case .restarted = try await store.deliveries.redeliverDelegateEvents(sessionId: session.id, tenant: "t1") else {
            Issue.record("the redeliver did not restart the queue")
            return
        }
        let restarted = try #require(try await store.deliveries.delegateDelivery(sessionId: session.id)).wire
        #expect(restarted.state == .delivering && restarted.disabledAt == nil && restarted.consecutiveFailures == 1)
        let listed = try await store.deliveries.sessionsWithDelivery(tenant: "t1", after: nil, limit: 10)
        #expect(listed.map(\.record.id) == [session.id, bare.id])
        #expect(listed.first?.delivery?.wire == restarted && listed.last?.delivery == nil)

        guard case .noDelegate = try await store.deliveries.redeliverDelegateEvents(sessionId: bare.id, tenant: "t1"),
            case .notFound = try await store.deliveries.redeliverDelegateEvents(sessionId: session.id, tenant: "t2")
        else {
            Issue.record("a session without a delegate, or another tenant's, was restarted")
            return
        }
    }

    /// A delegate in the client (no url) is no webhook backlog however many events it has, and shows no
    /// delivery state; given a url by a patch, its events are a backlog again, from the first one.
    @Test func aDelegateWithoutURLIsNoBacklog() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        defer { try? store.close() }
        let inClient = try StrictJSONDecoder().decode(
            SessionCreateRequest.self, from: Array(#"{"delegate": {"decisions": ["dataTask.didReceiveResponse"]}}"#.utf8)
        ).validated()
        guard case .created(let session) = try await store.sessions.createSession(tenant: "t1", request: inClient, secret: nil) else {
            throw CancellationError()
        }
        _ = try await store.events.appendEvent(
            sessionId: session.id, taskId: nil, type: .taskDidSendBodyData, dataJSON: #"{"bytesSent":1}"#)
        let backlog = { try await store.deliveries.sessionsWithDelegateBacklog(dueBy: Date(), limit: 100).map(\.sessionId) }
        #expect(try await backlog().isEmpty)
        #expect(try await store.deliveries.deliveryQueueDepth() == 0)
        #expect(try await store.deliveries.delegateDelivery(sessionId: session.id) == nil)
        #expect(try await store.deliveries.delegateQueue(sessionId: session.id) == nil)

        var update = SessionUpdate()
        var webhook = try #require(session.delegate)
        webhook.url = "https://hooks.example/a"
        update.delegate = .replaced(webhook, secret: nil)
        let outcome = try #require(try await store.sessions.updateSession(id: session.id, tenant: "t1", update: update))
        #expect(outcome.generatedSecret?.hasPrefix("whsec_") == true, "a webhook gets a secret")
        #expect(try await backlog() == [session.id])
        #expect(try await store.deliveries.delegateQueue(sessionId: session.id)?.key != nil, "signed")

        webhook.url = nil
        update.delegate = .replaced(webhook, secret: nil)
        let back = try #require(try await store.sessions.updateSession(id: session.id, tenant: "t1", update: update))
        #expect(back.record.delegateSecret == nil && back.generatedSecret == nil, "the secret went with the url")
        #expect(try await backlog().isEmpty)
    }

    static func empty() throws -> ValidatedSessionRequest {
        try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array("{}".utf8)).validated()
    }
}
