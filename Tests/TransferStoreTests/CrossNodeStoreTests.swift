import Crypto
import Foundation
import JSONCodec
import Logging
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// Two stores on one PostgreSQL database act as two nodes in this process, each following the other's
/// writes (`followOtherNodes`) over a real server's `LISTEN`/`NOTIFY`.
struct TwoNodes {
    let url: String
    let a: TransferStore
    let b: TransferStore
    /// B's feed of every session: the listener's `everySession` on each (re)connection.
    let resyncsOfB: AsyncStream<String>

    static func open() async throws -> TwoNodes {
        let url = try await PostgresServer.makeDatabase()
        let secrets = SecretBox(key: SymmetricKey(size: .bits256))
        let logger = Logger(label: "test")
        let a = try await TransferStore.open(postgresURL: url, secrets: secrets, logger: logger)
        let b = try await TransferStore.open(postgresURL: url, secrets: secrets, logger: logger)
        return TwoNodes(url: url, a: a, b: b, resyncsOfB: b.events.eventFeed.subscribe())
    }

    var databaseName: String { PostgresServer.databaseName(of: url) }

    /// Runs `body` while both nodes follow each other, once B's listener listens.
    func run(_ body: @Sendable @escaping (TwoNodes) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await a.followOtherNodes() }
            group.addTask { await b.followOtherNodes() }
            defer { group.cancelAll() }
            try await waitForResync()
            try await body(self)
        }
        try a.close()
        try b.close()
    }

    /// Waits (up to 10 s) for B's listener to announce a (re)connection.
    func waitForResync() async throws {
        try await withTimeout(seconds: 10) {
            for await element in resyncsOfB where element == EventFeed.everySession { return }
        }
    }

    static func request(_ json: String) throws -> ValidatedSessionRequest {
        try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
    }

    func session(on store: TransferStore) async throws -> SessionRecord {
        guard case .created(let record) = try await store.sessions.createSession(tenant: "t1", request: try Self.request("{}"), secret: nil)
        else { throw CancellationError() }
        return record
    }
}

/// Waits (up to 10 s) for the first element of `stream` equal to `element`.
func next(_ element: String, in stream: AsyncStream<String>) async throws {
    try await withTimeout(seconds: 10) {
        for await received in stream where received == element { return }
        throw CancellationError()
    }
}

@Suite("Nodes sharing one PostgreSQL database")
struct CrossNodeStoreTests {
    @Test(.timeLimit(.minutes(1)))
    func eventsAppendedOnOneNodeWakeTheOthersReaders() async throws {
        try await TwoNodes.open().run { nodes in
            let session = try await nodes.session(on: nodes.a)
            let readers = nodes.b.events.eventFeed.subscribe(session: session.id)
            try await nodes.a.events.appendEvent(sessionId: session.id, taskId: nil, type: .taskDidSendBodyData, dataJSON: "{}")
            try await next(session.id, in: readers)
        }
    }

    /// A commit of many completions on A wakes B's waiters on every one of them, through a few
    /// notifications carrying lists of ids rather than one notification per task.
    @Test(.timeLimit(.minutes(1)))
    func completionsCommittedTogetherOnOneNodeReachTheOtherEach() async throws {
        try await TwoNodes.open().run { nodes in
            let session = try await nodes.session(on: nodes.a)
            let created = try await nodes.a.tasks.createTasks(
                tenant: "t1", sessionId: session.id, requests: Array(repeating: try dataTaskRequest(), count: 400))
            let ids = try created.map { try $0.get().id }
            let woken = nodes.b.tasks.completionsElsewhere.subscribe()
            let (completed, failures) = try await nodes.a.tasks.recordEngineReports(
                progress: [:], responses: [:], completions: ids.map { TaskCompletion(id: $0, error: nil, fileExpiresAt: .distantFuture) })
            #expect(completed.count == 400 && failures.isEmpty)
            let missing = try await withTimeout(seconds: 10) {
                var missing = Set(ids)
                for await id in woken {
                    missing.remove(id)
                    if missing.isEmpty { break }
                }
                return missing
            }
            #expect(missing.isEmpty)
        }
    }

    /// The lists stay under PostgreSQL's payload limit (8,000 bytes), each id whole.
    @Test func completionListsAreCutUnderThePayloadLimit() {
        let ids = (0..<1_000).map { "tsk_\(String(repeating: "x", count: 18))\($0)" }
        let lists = PendingNotifications.lists(ids, prefix: "node-a")
        #expect(lists.count > 1)
        #expect(lists.allSatisfy { $0.utf8.count <= 7_000 && $0.hasPrefix("node-a ") })
        #expect(lists.flatMap { $0.split(separator: " ").dropFirst().map(String.init) } == ids)
        #expect(PendingNotifications.lists([], prefix: "node-a").isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSessionPatchedOnOneNodeIsReadFreshOnTheOther() async throws {
        try await TwoNodes.open().run { nodes in
            let session = try await nodes.session(on: nodes.a)
            #expect(try await nodes.b.sessions.session(id: session.id, tenant: "t1")?.sessionDescription == nil)
            #expect(nodes.b.sessions.cachedSession(id: session.id, tenant: "t1") != nil)

            var update = SessionUpdate()
            update.sessionDescription = .value("patched on A")
            _ = try await nodes.a.sessions.updateSession(id: session.id, tenant: "t1", update: update)
            try await eventually(timeout: 10) { nodes.b.sessions.cachedSession(id: session.id, tenant: "t1") == nil }
            #expect(try await nodes.b.sessions.session(id: session.id, tenant: "t1")?.sessionDescription == "patched on A")

            // A delegate set on A reaches B's dispatcher.
            let delegateChanges = nodes.b.deliveries.delegateChanges.subscribe()
            var delegate = SessionUpdate()
            delegate.delegate = .replaced(
                DelegateConfiguration(
                    url: "http://127.0.0.1:9/hooks", events: ["*"], decisions: [], decisionTimeout: 5, progressInterval: 0),
                secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=")
            _ = try await nodes.a.sessions.updateSession(id: session.id, tenant: "t1", update: delegate)
            try await next(session.id, in: delegateChanges)
            try await eventually(timeout: 10) {
                try await nodes.b.sessions.session(id: session.id, tenant: "t1")?.delegate?.url == "http://127.0.0.1:9/hooks"
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theListenerReconnectsAfterItsConnectionIsTerminated() async throws {
        try await TwoNodes.open().run { nodes in
            let session = try await nodes.session(on: nodes.a)
            let terminated = try await PostgresServer.shared().psql(
                """
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = '\(nodes.databaseName)' AND application_name = '\(PostgresNotificationListener.applicationName)'
                """)
            #expect(Int(terminated.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 2)
            // B listens again (and says so: what was sent meanwhile is lost) …
            try await nodes.waitForResync()
            // … and hears A's events again.
            let readers = nodes.b.events.eventFeed.subscribe(session: session.id)
            try await nodes.a.events.appendEvent(sessionId: session.id, taskId: nil, type: .taskDidSendBodyData, dataJSON: "{}")
            try await next(session.id, in: readers)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aLeaseIsOneNodesUntilReleasedOrExpired() async throws {
        try await TwoNodes.open().run { nodes in
            let (a, b) = (nodes.a, nodes.b)
            #expect(try await a.cluster.acquireLease(name: "delivery:x", node: "A", duration: .seconds(30)))
            #expect(try await !b.cluster.acquireLease(name: "delivery:x", node: "B", duration: .seconds(30)))
            #expect(try await a.cluster.acquireLease(name: "delivery:x", node: "A", duration: .seconds(30)))  // renewed
            #expect(try await b.cluster.leaseHolder(name: "delivery:x")?.node == "A")
            try await b.cluster.releaseLease(name: "delivery:x", node: "B")  // not B's: stays
            #expect(try await b.cluster.leaseHolder(name: "delivery:x")?.node == "A")
            try await a.cluster.releaseLease(name: "delivery:x", node: "A")
            #expect(try await b.cluster.acquireLease(name: "delivery:x", node: "B", duration: .milliseconds(300)))
            #expect(try await !a.cluster.acquireLease(name: "delivery:x", node: "A", duration: .seconds(30)))
            // B's lease lapses unrenewed (B died): A takes it.
            try await eventually(timeout: 10, interval: 0.05) {
                try await a.cluster.acquireLease(name: "delivery:x", node: "A", duration: .seconds(30))
            }
            #expect(try await a.cluster.acquireLeases(names: ["delivery:x", "delivery:y"], node: "A", duration: .seconds(5)).count == 2)
        }
    }
}
