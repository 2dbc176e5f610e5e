import CoreMetrics
import Crypto
import Curl
import EventDelivery
import Foundation
import JSONCodec
import Logging
import ServiceLifecycle
import TestSupport
import Testing
import TransferModels
import TransferStore

/// A real store in a temporary directory, a real receiver on loopback, and dispatchers run the way the
/// service runs them (in a `ServiceGroup`, stopped by graceful shutdown).
final class DeliveryHarness: Sendable {
    static let secret = "whsec_" + Data((0..<32).map { UInt8(truncatingIfNeeded: $0 * 11 + 5) }).base64EncodedString()
    static let silent = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    let directory: TemporaryDirectory
    let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    let receiver: WebhookReceiver
    let store: LockedStore
    /// The PostgreSQL database under `make test-postgres`.
    let database = TestDatabase()

    init() async throws {
        directory = try TemporaryDirectory.make(prefix: "delivery-test")
        receiver = try WebhookReceiver.start()
        store = LockedStore(try await Self.openStore(directory: directory, database: database, key: key))
    }

    static func openStore(directory: TemporaryDirectory, database: TestDatabase, key: Data) async throws -> TransferStore {
        let secrets = SecretBox(key: SymmetricKey(data: key))
        if let url = try await database.postgresURL() {
            return try await TransferStore.open(postgresURL: url, secrets: secrets, logger: silent)
        }
        return try TransferStore(path: directory.appending("urlsessiond.sqlite").path, secrets: secrets, logger: silent)
    }

    /// Closes the store and opens the same database again, as a restart does.
    func reopenStore() async throws {
        try store.value.close()
        store.replace(try await Self.openStore(directory: directory, database: database, key: key))
    }

    func close() {
        receiver.stop()
        try? store.value.close()
        directory.remove()
    }

    /// A configuration for tests: short intervals, loopback allowed.
    static func configuration(schedule: [Double] = [0.2, 0.2, 0.5], jitter: Double = 0) -> EventDeliveryConfiguration {
        var configuration = EventDeliveryConfiguration()
        configuration.retryPolicy = RetryPolicy(schedule: schedule, jitter: jitter)
        configuration.timeout = 5
        configuration.rescanInterval = .milliseconds(200)
        configuration.egress = EgressPolicy(allowed: [IPAddressRange("127.0.0.0/8")!])
        return configuration
    }

    /// A session whose delegate posts to the receiver's `path`.
    func session(
        path: String = "/hooks", events: [String]? = nil, decisions: [String]? = nil, tenant: String = "t1"
    ) async throws -> SessionRecord {
        var delegate: [String: Any] = ["url": receiver.url(path), "secret": Self.secret]
        if let events { delegate["events"] = events }
        if let decisions { delegate["decisions"] = decisions }
        let json = try JSONSerialization.data(withJSONObject: ["delegate": delegate])
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json)).validated()
        guard
            case .created(let record) = try await store.value.sessions.createSession(tenant: tenant, request: request, secret: Self.secret)
        else { throw CancellationError() }
        return record
    }

    /// Appends `count` progress events to the session; returns them in order.
    @discardableResult
    func appendProgress(_ session: SessionRecord, count: Int, type: TaskEventType = .taskDidSendBodyData) async throws -> [EventRecord] {
        var events: [EventRecord] = []
        for index in 0..<count {
            events.append(
                try await store.value.events.appendEvent(
                    sessionId: session.id, taskId: nil, type: type,
                    dataJSON: #"{"bytesSent":\#(index),"totalBytesExpectedToSend":-1,"totalBytesSent":\#(index)}"#))
        }
        return events
    }

    /// Runs a dispatcher on the current store during `body`, then shuts it down gracefully.
    func withDispatcher<T: Sendable>(
        _ configuration: EventDeliveryConfiguration = DeliveryHarness.configuration(),
        decisions: DecisionWaiters = DecisionWaiters(),
        _ body: @Sendable (WebhookDispatcher) async throws -> T
    ) async throws -> T {
        let dispatcher = WebhookDispatcher(
            store: store.value, configuration: configuration, decisions: decisions,
            metricsFactory: NOOPMetricsHandler.instance, logger: Self.silent)
        let group = ServiceGroup(configuration: .init(services: [.init(service: dispatcher)], logger: Self.silent))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                let result = try await body(dispatcher)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// Waits until every queue's outcomes are written (a request the receiver has recorded may still be
    /// waiting for its answer, and a shutdown then leaves it undelivered: at least once).
    func waitUntilQueuesAreEmpty(timeout: Double = 10) async throws {
        try await eventually(timeout: timeout) { try await self.store.value.deliveries.deliveryQueueDepth() == 0 }
    }

    /// Every event of the session, as stored.
    func storedEvents(_ session: SessionRecord) async throws -> [EventRecord] {
        try await store.value.events.events(sessionId: session.id, after: 0, limit: 10_000)
    }
}

/// The store, replaceable for restart tests.
final class LockedStore: Sendable {
    private let box: LockedBox<TransferStore>
    init(_ store: TransferStore) { box = LockedBox(store) }
    var value: TransferStore { box.withLock { $0 } }
    func replace(_ store: TransferStore) { box.withLock { $0 = store } }
}

/// Checks a request's Standard Webhooks headers with an HMAC computed here, independently of `WebhookSigner`.
func expectSigned(
    _ request: WebhookReceiver.Request, secret: String = DeliveryHarness.secret,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let id = request.header("webhook-id"), let timestamp = request.header("webhook-timestamp"),
        let signature = request.header("webhook-signature")
    else {
        Issue.record("missing webhook headers: \(request.headers)", sourceLocation: sourceLocation)
        return
    }
    let key = Data(base64Encoded: String(secret.dropFirst("whsec_".count)))!
    let mac = HMAC<SHA256>.authenticationCode(for: Array("\(id).\(timestamp).".utf8) + request.body, using: SymmetricKey(data: key))
    #expect(signature == "v1," + Data(mac).base64EncodedString(), sourceLocation: sourceLocation)
    #expect(request.header("content-type") == "application/json", sourceLocation: sourceLocation)
    #expect(request.method == "POST", sourceLocation: sourceLocation)
}

extension WebhookReceiver.Request {
    var eventId: String? { header("webhook-id") }
    var sequence: Int? { (try? json())?["sequence"] as? Int }
    var sessionId: String? { (try? json())?["sessionId"] as? String }
}
