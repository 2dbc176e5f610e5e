import Crypto
import Foundation
import JSONCodec
import Logging
import ServiceLifecycle
import TestSupport
import Testing
import TransferModels
import TransferStore

@testable import SessionTasks

/// Housekeeping on its own, over a real store in a temporary directory: what a pass removes, what it
/// keeps, and that it stops with the service group.
@Suite("Housekeeping", .timeLimit(.minutes(1)))
struct HousekeepingTests {
    private struct Fixture {
        let directory: TemporaryDirectory
        let store: TransferStore
        let housekeeping: Housekeeping
        let logger = Logger(label: "housekeeping-test")

        init(_ configure: (inout TaskService.Configuration) -> Void = { _ in }) throws {
            directory = try TemporaryDirectory.make(prefix: "housekeeping")
            store = try TransferStore(
                path: directory.url.appendingPathComponent("urlsessiond.sqlite").path,
                secrets: SecretBox(key: SymmetricKey(size: .bits256)), logger: logger)
            var configuration = TaskService.Configuration()
            configuration.trustDirectory = directory.url.appendingPathComponent("trust")
            configuration.cacheDirectory = directory.url.appendingPathComponent("cache")
            configure(&configuration)
            let files = TaskFiles(
                objectStore: nil, store: store, blobDirectory: directory.url, downloadsDirectory: directory.url, logger: logger)
            let trust = TrustBundles(directory: configuration.trustDirectory, authorities: nil)
            housekeeping = Housekeeping(store: store, configuration: configuration, files: files, trustBundles: trust, logger: logger)
        }

        func session() async throws -> SessionRecord {
            let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array("{}".utf8)).validated()
            guard case .created(let record) = try await store.sessions.createSession(tenant: "t1", request: request, secret: nil)
            else { throw CancellationError() }
            return record
        }

        /// A download completed at `completedAt`, its file at `path` expiring at `expiresAt`.
        func download(in session: SessionRecord, file path: String, completedAt: Date, expiresAt: Date) async throws -> TaskRecord {
            let request = try StrictJSONDecoder().decode(
                TaskCreateRequest.self, from: Array(#"{"kind": "download", "request": {"url": "https://o.example/a"}}"#.utf8)
            ).validated(session: SessionConfiguration(kind: .default))
            let task = try await store.tasks.createTask(tenant: "t1", sessionId: session.id, request: request)
            #expect(FileManager.default.createFile(atPath: path, contents: Data("body".utf8)))
            return try await store.tasks.completeTask(
                id: task.id, error: nil, filePath: path, fileExpiresAt: expiresAt, completedAt: completedAt)
        }

        func pass(now: Date = Date()) async { await housekeeping.housekeepingPass(now: now, stopping: LockedBox(false)) }
    }

    @Test func anExpiredFileGoesAndItsTaskStays() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let session = try await fixture.session()
        let expired = fixture.directory.appending("expired").path
        let fresh = fixture.directory.appending("fresh").path
        let old = try await fixture.download(in: session, file: expired, completedAt: Date(), expiresAt: Date().addingTimeInterval(-1))
        let new = try await fixture.download(in: session, file: fresh, completedAt: Date(), expiresAt: Date().addingTimeInterval(3600))
        await fixture.pass()
        #expect(!FileManager.default.fileExists(atPath: expired))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(try await fixture.store.tasks.task(id: old.id, tenant: "t1") != nil, "the task stays; only its file went")
        #expect(try await fixture.store.tasks.task(id: new.id, tenant: "t1")?.filePath == fresh)
        try fixture.store.close()
    }

    @Test func aTaskPastItsRetentionGoesWithItsFile() async throws {
        let fixture = try Fixture { $0.retention.finishedTasks = 60 }
        defer { fixture.directory.remove() }
        let session = try await fixture.session()
        let path = fixture.directory.appending("kept").path
        let later = Date().addingTimeInterval(3600)
        let task = try await fixture.download(in: session, file: path, completedAt: Date(), expiresAt: later.addingTimeInterval(3600))
        await fixture.pass()
        #expect(try await fixture.store.tasks.task(id: task.id, tenant: "t1") != nil, "within its retention")
        await fixture.pass(now: later)
        #expect(try await fixture.store.tasks.task(id: task.id, tenant: "t1") == nil, "past its retention")
        #expect(!FileManager.default.fileExists(atPath: path), "its file with it")
        try fixture.store.close()
    }

    @Test func itStopsWithTheServiceGroup() async throws {
        let fixture = try Fixture { $0.housekeepingInterval = 3600 }
        defer { fixture.directory.remove() }
        let group = ServiceGroup(services: [fixture.housekeeping], logger: fixture.logger)
        let running = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(100))  // into its sleep between passes
        await group.triggerGracefulShutdown()
        try await running.value  // returns: the hour-long sleep was cancelled
        try fixture.store.close()
    }
}
