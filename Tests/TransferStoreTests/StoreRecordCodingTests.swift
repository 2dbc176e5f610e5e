import Foundation
import GRDB
import JSONCodec
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// The store's own record coding reads rows exactly as GRDB's Codable records wrote them (the SQLite
/// files already in service), and writes what GRDB reads back the same.
@Suite("Record coding compatible with GRDB's")
struct StoreRecordCodingTests {
    private func session() throws -> SessionRecord {
        let body = #"""
            {"configuration": {"kind": "background", "identifier": "sync", "timeoutIntervalForRequest": 12.5,
             "httpAdditionalHeaders": {"X-A": "1"}, "allowsCellularAccess": false},
             "delegate": {"url": "https://hooks.example/x", "events": ["task.didCompleteWithError"]},
             "sessionDescription": "caf\u00e9 \"quoted\""}
            """#
        let request = try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(body.utf8)).validated()
        var record = SessionRecord(
            id: ResourceID.make(prefix: "ses"), tenant: "t1", configuration: request.configuration, delegate: request.delegate,
            delegateSecret: Data([0, 1, 2, 255]), sessionDescription: request.sessionDescription,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000.25))
        record.state = .invalidated  // two rows of one identifier may exist only so
        record.invalidatedAt = Date(timeIntervalSince1970: 1_790_000_100.5)
        return record
    }

    @Test(.timeLimit(.minutes(1)))
    func rowsWrittenByEitherReadTheSameThroughBoth() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.openSQLite()
        defer { try? store.close() }

        var byGRDB = try session()
        byGRDB.rowid = try await store.sqlite!.pool.write { [byGRDB] db in
            var inserted = GRDBSession(byGRDB)
            try inserted.insert(db)
            return inserted.record.rowid
        }
        var byStore = try session()
        byStore.rowid = try await store.database.write { [byStore] db in
            try db.insert(byStore, into: "session", returningRowID: true)
        }
        for record in [byGRDB, byStore] {
            let throughGRDB = try await store.sqlite!.pool.read { db in try GRDBSession.fetchOne(db, key: ["id": record.id])?.record }
            let throughStore = try await store.database.read { db in
                try db.row("SELECT * FROM session WHERE id = ?", record.id).map { try $0.decode(SessionRecord.self) }
            }
            #expect(throughGRDB == record)
            #expect(throughStore == record)
        }
        // The same text in both columns: a JSON column compares equal whoever wrote it.
        let texts = try store.sqlite!.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT configuration, delegate, kind, state, createdAt FROM session ORDER BY rowid")
        }
        #expect(texts.count == 2 && Array(texts[0].databaseValues) == Array(texts[1].databaseValues))
    }

    /// An update or an upsert writes a nil property as null, as GRDB's did: a column cleared in the record
    /// is cleared in the row (a synthesized `encode(to:)` skips nil properties, an insertion leaves them to
    /// the table's defaults).
    @Test(.timeLimit(.minutes(1)))
    func updatesAndUpsertsClearNilColumns() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try fixture.openSQLite()
        defer { try? store.close() }

        var record = try session()
        record.rowid = try await store.database.write { [record] db in try db.insert(record, into: "session", returningRowID: true) }
        record.sessionDescription = nil
        record.delegate = nil
        try await store.database.write { [record] db in
            try db.update(record, in: "session", key: "id", only: ["sessionDescription"])
        }
        var stored = try await store.database.read { [record] db in
            try db.row("SELECT * FROM session WHERE id = ?", record.id)?.decode(SessionRecord.self)
        }
        #expect(stored?.sessionDescription == nil)
        #expect(stored?.delegate != nil)  // not among the columns named
        try await store.database.write { [record] db in try db.update(record, in: "session", key: "id") }
        stored = try await store.database.read { [record] db in
            try db.row("SELECT * FROM session WHERE id = ?", record.id)?.decode(SessionRecord.self)
        }
        #expect(stored == record)

        record.sessionDescription = "again"
        record.delegateSecret = nil
        try await store.database.write { [record] db in try db.upsert(record, into: "session", key: ["id"]) }
        stored = try await store.database.read { [record] db in
            try db.row("SELECT * FROM session WHERE id = ?", record.id)?.decode(SessionRecord.self)
        }
        #expect(stored == record)
    }
}

/// A session as GRDB's Codable record wrote and read it before the store had its own coding (the rows of
/// the SQLite files in service): the store's records are no GRDB records any more, so this test gives one
/// the conformance through a wrapper that encodes and decodes exactly as the record does. GRDB's default
/// date strategy writes `storageText`'s very text (`StorageTextTests`).
private struct GRDBSession: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "session"
    var record: SessionRecord

    init(_ record: SessionRecord) { self.record = record }
    init(from decoder: any Decoder) throws { record = try SessionRecord(from: decoder) }
    func encode(to encoder: any Encoder) throws { try record.encode(to: encoder) }
    mutating func didInsert(_ inserted: InsertionSuccess) { record.rowid = inserted.rowID }
}
