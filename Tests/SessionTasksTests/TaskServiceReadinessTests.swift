import Crypto
import Foundation
import Logging
import ServiceLifecycle
import SessionTasks
import TestSupport
import Testing
import TransferEngine
import TransferModels
import TransferStore

/// The task service counts as ready (`/readyz`) only while it runs with its engine, and no longer once a
/// graceful shutdown has begun.
@Suite("TaskService readiness")
struct TaskServiceReadinessTests {
    struct NoDelegate: DelegateDecisions {
        func expectAnswer(toEvent eventId: String, session sessionId: String) -> ExpectedAnswer { ExpectedAnswer { _ in nil } }
        func take(_ answer: DelegateAnswer, toEvent eventId: String, session sessionId: String) -> Bool { false }
    }

    struct Paths: TaskBodyLocations {
        func fileLocation(ofTask id: String) -> String { "/file/\(id)" }
        func dataLocation(ofTask id: String) -> String { "/data/\(id)" }
    }

    @Test(.timeLimit(.minutes(1)))
    func readyFromRunUntilShutdownBegins() async throws {
        let directory = try TemporaryDirectory.make(prefix: "tasks-ready")
        let logger = Logger(label: "tasks-ready")
        let store = try TransferStore(
            path: directory.url.appendingPathComponent("urlsessiond.sqlite").path,
            secrets: SecretBox(key: SymmetricKey(size: .bits256)), logger: logger)
        var configuration = TaskService.Configuration()
        configuration.engine.downloadsDirectory = directory.url.appendingPathComponent("downloads")
        let tasks = try TaskService(
            store: store, configuration: configuration, decisions: NoDelegate(), locations: Paths(), logger: logger)
        #expect(!tasks.isReady, "not before run()")

        let group = ServiceGroup(services: [tasks], logger: logger)
        let running = Task { try await group.run() }
        try await eventually(timeout: 10, interval: 0.01) { tasks.isReady }
        await group.triggerGracefulShutdown()
        try await eventually(timeout: 10, interval: 0.01) { !tasks.isReady }
        try await running.value
        #expect(!tasks.isReady)
        try store.close()
    }
}
