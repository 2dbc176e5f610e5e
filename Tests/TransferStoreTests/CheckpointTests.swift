import Foundation
import GRDB
import JSONCodec
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// Checkpoints run on the checkpointer's connection, never inside a commit on the writer; savepoint
/// journals stay in memory.
@Suite("WAL checkpoints off the writer")
struct CheckpointTests {
    @Test(.timeLimit(.minutes(1)))
    func commitsLeaveTheWALToTheCheckpointerWhichCopiesItBack() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.openSQLite()
        defer { try? store.close() }
        func databaseFileSize() -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: fixture.path))?[.size] as? Int) ?? 0
        }
        let description = String(repeating: "d", count: 1000)
        let body = #"{"configuration": {"kind": "default"}, "sessionDescription": "\#(description)"}"#
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(body.utf8)).validated()
        let before = databaseFileSize()
        // About 1.2 MB of sessions, a commit each: more than SQLite's default automatic checkpoint
        // (1,000 pages) would have let pass without copying on the writer.
        for _ in 0..<1200 { _ = try await store.sessions.createSession(tenant: "t1", request: request, secret: nil) }
        #expect(databaseFileSize() == before, "a commit checkpointed on the writer")

        let checkpoints = Task { await store.maintenance.runCheckpoints(every: .milliseconds(20)) }
        defer { checkpoints.cancel() }
        try await eventually(timeout: 10, interval: 0.05) { databaseFileSize() > before + 1_000_000 }
    }

    /// A group commit gives each creation a savepoint; with SQLite's default `temp_store` their journals
    /// went to `/var/tmp` files, more pwrites than the WAL's (issue 15's profile).
    @Test(.timeLimit(.minutes(1)))
    func savepointJournalsStayInMemoryOnEveryConnection() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.openSQLite()
        defer { try? store.close() }
        let memory = 2  // PRAGMA temp_store: 0 default, 1 file, 2 memory
        #expect(try await store.sqlite!.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == memory)
        #expect(try await store.sqlite!.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == memory)
    }
}
