import Foundation
import Testing
import TransferModels
import TransferStore

@testable import SessionTasks

/// The session service alone: what a session's reset, flush and invalidation ask of its transfers (a
/// recording stand-in for the task service), over a real store.
@Suite("SessionService", .timeLimit(.minutes(1)))
struct SessionServiceTests {
    /// Records what the session service asks; cancels by completing nothing (the store's row is enough).
    final class RecordedTransfers: SessionTransfers {
        let calls = LockedBox<[String]>([])
        func closeConnections(ofSession id: String, idleOnly: Bool) { calls.withLock { $0.append("close \(id) idle=\(idleOnly)") } }
        func sessionInvalidated(_ id: String) { calls.withLock { $0.append("invalidated \(id)") } }
        func cancel(taskId: String, tenant: String, producingResumeData: Bool) async throws -> TaskRecord {
            calls.withLock { $0.append("cancel \(taskId)") }
            throw TaskStoreError.invalidStateTransition  // as for a task already finishing: invalidation goes on
        }
    }

    private func service(_ fixture: ApplicationLayerFixture, _ transfers: RecordedTransfers) -> SessionService {
        SessionService(store: fixture.store, storages: fixture.storages, files: fixture.files, transfers: transfers)
    }

    @Test func flushClosesIdleConnectionsAndResetClosesThemAll() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let transfers = RecordedTransfers()
        let sessions = service(fixture, transfers)
        let session = try await fixture.session()
        try await sessions.flush(session)
        try await sessions.reset(session)
        #expect(transfers.calls.withLock { $0 } == ["close \(session.id) idle=true", "close \(session.id) idle=false"])
    }

    @Test func invalidateAndCancelCancelsTheUnfinishedTasksAndFinishTasksAndInvalidateDoesNot() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let transfers = RecordedTransfers()
        let sessions = service(fixture, transfers)
        let finishing = try await fixture.session()
        let cancelling = try await fixture.session()
        let task = try await fixture.task(#"{"kind": "data", "request": {"url": "https://o.example/a"}}"#, in: cancelling)
        _ = try await fixture.task(#"{"kind": "data", "request": {"url": "https://o.example/b"}}"#, in: finishing)

        let finished = try #require(try await sessions.invalidate(finishing, cancellingTasks: false))
        #expect(finished.state == .invalidating, "it takes no new task; its task still runs")
        let cancelled = try #require(try await sessions.invalidate(cancelling, cancellingTasks: true))
        #expect(cancelled.state == .invalidating)
        #expect(
            transfers.calls.withLock { $0 } == ["invalidated \(finishing.id)", "invalidated \(cancelling.id)", "cancel \(task.id)"],
            "only invalidateAndCancel cancels; a task that cannot be cancelled any more does not stop it")
    }

    @Test func anotherTenantsSessionIsNotFoundAndSharedIsTheTenants() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let sessions = service(fixture, RecordedTransfers())
        let theirs = try await fixture.session(tenant: "t2")
        #expect(try await sessions.session(id: theirs.id, tenant: "t1") == nil)
        #expect(try await sessions.invalidate(theirs.withTenant("t1"), cancellingTasks: true) == nil)
        let shared = try #require(try await sessions.session(id: "shared", tenant: "t1"))
        #expect(shared.isShared && shared.tenant == "t1")
        #expect(try await sessions.shared(tenant: "t1").id == shared.id, "made once")
    }
}

extension SessionRecord {
    /// The same session as another tenant would name it (to show the tenant is checked, not only the id).
    fileprivate func withTenant(_ tenant: String) -> SessionRecord {
        var record = self
        record.tenant = tenant
        return record
    }
}
