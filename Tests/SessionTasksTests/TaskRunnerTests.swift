import Curl
import Foundation
import NetworkPaths
import TestSupport
import Testing
import TransferModels
import TransferStore

@testable import SessionTasks
@testable import TransferEngine

/// The task runner alone, with its real engine against the fixture origin: control calls go through each
/// task's lifecycle, the engine's reports become the task's state and events, and an attempt's end its
/// completion. No binary, no HTTP API, no dispatcher.
@Suite("TaskRunner", .timeLimit(.minutes(1)))
struct TaskRunnerTests {
    struct NoDelegate: DelegateDecisions {
        func expectAnswer(toEvent eventId: String, session sessionId: String) -> ExpectedAnswer { ExpectedAnswer { _ in nil } }
        func take(_ answer: DelegateAnswer, toEvent eventId: String, session sessionId: String) -> Bool { false }
    }

    struct Paths: TaskBodyLocations {
        func fileLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/file" }
        func dataLocation(ofTask id: String) -> String { "/v1/tasks/\(id)/data" }
    }

    /// The fixture origin is on loopback, which the egress policy denies unless allowed.
    static func loopbackFixture() throws -> ApplicationLayerFixture {
        let allowed = try EgressPolicy.parseAllowList("127.0.0.0/8").get()
        return try ApplicationLayerFixture { $0.engine.egress = EgressPolicy(allowed: allowed) }
    }

    /// A runner over the fixture's store, running until `body` returns.
    private func withRunner(
        _ fixture: ApplicationLayerFixture, _ body: (TaskRunner, TaskControls) async throws -> Void
    ) async throws {
        let runner = try TaskRunner(
            store: fixture.store, configuration: fixture.configuration, decisions: NoDelegate(), locations: Paths(),
            files: fixture.files, storages: fixture.storages,
            networks: NetworkPathMonitor(paths: [], interfaces: { [:] }, logger: fixture.logger),
            trustBundles: TrustBundles(directory: fixture.configuration.trustDirectory, authorities: nil), slotsFreed: nil,
            logger: fixture.logger)
        let running = Task { await runner.run() }
        var failure: (any Error)?
        do { try await body(runner, TaskControls(runner: runner, node: nil)) } catch { failure = error }
        await runner.stop()
        running.cancel()
        await running.value
        if let failure { throw failure }
    }

    /// A data task of the fixture origin's `path`, created resumed and started on a running runner; `body`
    /// runs while the runner does, `afterStop` once it has stopped.
    private func withStartedDataTask(
        _ path: String, _ body: (TaskRecord, TaskRunner, TaskControls) async throws -> Void,
        afterStop: (ApplicationLayerFixture, TaskRecord) async throws -> Void = { _, _ in }
    ) async throws {
        let fixture = try Self.loopbackFixture()
        defer { fixture.close() }
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let session = try await fixture.session()
        let task = try await fixture.task(#"{"kind": "data", "request": {"url": "\#(origin.url(path))"}, "resume": true}"#, in: session)
        try await withRunner(fixture) { runner, controls in
            _ = try await runner.control(task, .start(beginsLater: false, continuing: false), isCurrent: true, session: session)
            try await body(task, runner, controls)
        }
        try await afterStop(fixture, task)
    }

    @Test func aDataTaskRunsToItsCompletionWithItsResponseAndEventsInOrder() async throws {
        try await withStartedDataTask("/bytes/10") { task, runner, _ in
            let done = try await runner.waitForCompletion(of: task.id, tenant: task.tenant, timeout: .seconds(20))
            #expect(done.state == .completed && done.error == nil)
            #expect(done.response?.statusCode == 200 && done.countOfBytesReceived == 10)
            let types = try await runner.store.events.events(sessionId: task.sessionId, after: 0, limit: 100)
                .filter { $0.taskId == task.id }.map(\.type)
            #expect(types.first == .taskDidCreateTask && types.last == .taskDidCompleteWithError)
            #expect(types.contains(.dataTaskDidReceiveResponse))
            #expect(types.firstIndex(of: .dataTaskDidReceiveResponse)! < types.firstIndex(of: .taskDidFinishCollectingMetrics)!)
        }
    }

    @Test func aSuspendedTaskWaitsUntilItIsResumedThenCompletes() async throws {
        try await withStartedDataTask("/drip?bytes=4&interval=0.2") { task, runner, controls in
            let suspended = try await controls.perform(.suspend, taskId: task.id, tenant: task.tenant)
            #expect(suspended.state == .suspended)
            let resumed = try await controls.perform(.resume, taskId: task.id, tenant: task.tenant)
            #expect(resumed.state == .running)
            let done = try await runner.waitForCompletion(of: task.id, tenant: task.tenant, timeout: .seconds(20))
            #expect(done.state == .completed && done.error == nil && done.countOfBytesReceived == 4)
        }
    }

    @Test func aCancelledRunningTaskCompletesWithNSURLErrorCancelled() async throws {
        try await withStartedDataTask("/drip?bytes=50&interval=0.2") { task, runner, controls in
            _ = try await controls.perform(.cancel, taskId: task.id, tenant: task.tenant)
            let done = try await runner.waitForCompletion(of: task.id, tenant: task.tenant, timeout: .seconds(20))
            #expect(done.state == .completed && done.error?.code == URLErrorCode.cancelled.rawValue)
        }
    }

    @Test func aControlCallOnAnotherTenantsTaskFindsNothing() async throws {
        let fixture = try Self.loopbackFixture()
        defer { fixture.close() }
        let session = try await fixture.session()
        let created = try await fixture.task(#"{"kind": "data", "request": {"url": "http://127.0.0.1:9/"}}"#, in: session)
        try await withRunner(fixture) { _, controls in
            await #expect(throws: TaskStoreError.taskNotFound) {
                try await controls.perform(.cancel, taskId: created.id, tenant: "someone-else")
            }
        }
    }

    @Test func aStoppedRunnerLeavesARunningTaskRunningInTheStoreForTheNextStart() async throws {
        try await withStartedDataTask("/drip?bytes=50&interval=0.2") { task, runner, _ in
            try await eventually(timeout: 10) { runner.table.withLock { $0.entries[task.id]?.attempt?.body != nil } }
        } afterStop: { fixture, task in
            // The engine aborted the transfer at the stop: that is not the task's end.
            let row = try await fixture.store.tasks.task(id: task.id)
            #expect(row?.state == .running && row?.completion == nil)
        }
    }
}
