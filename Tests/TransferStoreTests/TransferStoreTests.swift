import Crypto
import Foundation
import GRDB
import JSONCodec
import Logging
import TestSupport
import Testing
import TransferModels

@testable import TransferStore

/// A store on a real database: a SQLite file in a temporary directory, or under `URLSESSIOND_TEST_STORE=postgres`
/// (`make test-postgres`) a PostgreSQL database of its own. Opening it again is a restart: the same rows.
struct StoreFixture {
    let directory: TemporaryDirectory
    let key = SymmetricKey(size: .bits256)
    let database = TestDatabase()

    init() throws { directory = try TemporaryDirectory.make(prefix: "store-test") }

    var path: String { directory.appending("urlsessiond.sqlite").path }

    /// Everything the database holds, file by file: the SQLite files (the WAL too), or PostgreSQL's dump of
    /// the database (bytea as hex, so a secret is looked for in both forms by `contains`).
    func rawContents() async throws -> [(name: String, bytes: Data)] {
        if let name = database.name {
            return [("pg_dump", Data(try await PostgresServer.shared().dump(database: name).utf8))]
        }
        return try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("urlsessiond.sqlite") }
            .map { ($0, try Data(contentsOf: directory.url.appendingPathComponent($0))) }
    }

    /// Whether `secret` is anywhere in the database, as text or (PostgreSQL's dump of a bytea) as hex.
    func holds(_ secret: String) async throws -> Bool {
        let hex = Data(secret.utf8).map { String(format: "%02x", $0) }.joined()
        return try await rawContents().contains {
            $0.bytes.range(of: Data(secret.utf8)) != nil || $0.bytes.range(of: Data(hex.utf8)) != nil
        }
    }

    /// Runs `body` on the database directly, outside the store's verbs (rows as an older version wrote them).
    func rawWrite(_ body: @escaping @Sendable (any StoreConnection) throws -> Void) async throws {
        if let url = try await database.postgresURL() {
            let postgres = try await PostgresStoreDatabase(url: url, readers: 1, logger: Logger(label: "test"))
            try await postgres.write(body)
            await postgres.close()
            return
        }
        let pool = try DatabasePool(path: path)
        try await SQLiteStoreDatabase(pool: pool).write(body)
        try pool.close()
    }

    /// The SQLite file whatever the tests' backend, for what only SQLite has (checkpoints, GRDB's records).
    func openSQLite() throws -> TransferStore {
        try TransferStore(path: path, secrets: SecretBox(key: key), logger: Logger(label: "test"))
    }

    func open(quotaLimits: QuotaLimits = .unlimited) async throws -> TransferStore {
        let secrets = SecretBox(key: key)
        guard let url = try await database.postgresURL() else {
            return try TransferStore(path: path, secrets: secrets, logger: Logger(label: "test"), quotaLimits: quotaLimits)
        }
        return try await TransferStore.open(postgresURL: url, secrets: secrets, logger: Logger(label: "test"), quotaLimits: quotaLimits)
    }
}

private func request(_ json: String) throws -> ValidatedSessionRequest {
    try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
}

@Suite("TransferStore on a real database (SQLite, or PostgreSQL under make test-postgres)")
struct TransferStoreTests {
    @Test func createsReadsAndReattachesBackgroundSessions() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let background = try request(#"{"configuration": {"kind": "background", "identifier": "com.example.a"}}"#)

        guard case .created(let first) = try await store.sessions.createSession(tenant: "t1", request: background, secret: nil) else {
            Issue.record("expected a new session")
            return
        }
        guard case .reattached(let again) = try await store.sessions.createSession(tenant: "t1", request: background, secret: nil) else {
            Issue.record("expected the re-attach")
            return
        }
        #expect(again.id == first.id)
        guard case .created(let otherTenant) = try await store.sessions.createSession(tenant: "t2", request: background, secret: nil) else {
            Issue.record("another tenant gets its own session")
            return
        }
        #expect(otherTenant.id != first.id)
        #expect(try await store.sessions.session(id: first.id, tenant: "t2") == nil)

        _ = try await store.sessions.beginInvalidation(id: first.id, tenant: "t1")
        guard case .created(let fresh) = try await store.sessions.createSession(tenant: "t1", request: background, secret: nil) else {
            Issue.record("an invalidated identifier can be used again")
            return
        }
        #expect(fresh.id != first.id)
        try store.close()
    }

    @Test func sessionsSurviveReopeningAndSecretsAreSealed() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let secret = WebhookSecret.generate()
        var id = ""
        do {
            let store = try await fixture.open()
            let created = try await store.sessions.createSession(
                tenant: "t1", request: try request(#"{"delegate": {"url": "https://h/x"}, "sessionDescription": "d"}"#),
                secret: secret)
            guard case .created(let record) = created else { throw CancellationError() }
            id = record.id
            try store.close()
        }
        #expect(try await fixture.holds(id), "what is stored is found where it is looked for")
        #expect(try await !fixture.holds(secret), "the secret must not be stored in clear")

        let reopened = try await fixture.open()
        let record = try #require(try await reopened.sessions.session(id: id, tenant: "t1"))
        #expect(record.sessionDescription == "d")
        #expect(record.delegate?.url == "https://h/x")
        #expect(try reopened.deliveries.delegateSecret(of: record) == secret)
        #expect(record.wire(delivery: nil).delegate?.secret == nil)
        try reopened.close()
    }

    @Test func paginatesInCreationOrder() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        var ids: [String] = []
        for _ in 0..<5 {
            if case .created(let record) = try await store.sessions.createSession(tenant: "t1", request: try request("{}"), secret: nil) {
                ids.append(record.id)
            }
        }
        _ = try await store.sessions.createSession(tenant: "t2", request: try request("{}"), secret: nil)
        var seen: [String] = []
        var after: Int64?
        for _ in 0..<10 {
            let page = try await store.sessions.sessions(tenant: "t1", after: after, limit: 2)
            seen += page.map(\.id)
            guard page.count == 2 else { break }
            after = page.last?.rowid
        }
        #expect(seen == ids)
        try store.close()
    }

    @Test func invalidationRecordsOneEventWithGapFreeSequence() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        guard case .created(let record) = try await store.sessions.createSession(tenant: "t1", request: try request("{}"), secret: nil)
        else {
            throw CancellationError()
        }
        let invalidated = try #require(try await store.sessions.beginInvalidation(id: record.id, tenant: "t1")?.0)
        #expect(invalidated.state == .invalidated)
        _ = try await store.sessions.beginInvalidation(id: record.id, tenant: "t1")
        let events = try await store.events.events(sessionId: record.id, after: 0, limit: 10)
        #expect(events.map(\.sequence) == [1])
        #expect(events.first?.type == .sessionDidBecomeInvalidWithError)
        #expect(try await store.sessions.beginInvalidation(id: record.id, tenant: "t2")?.0 == nil)
        try store.close()
    }

    @Test func sharedSessionIsMadeOncePerTenant() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        async let a = store.sessions.sharedSession(tenant: "t1")
        async let b = store.sessions.sharedSession(tenant: "t1")
        let (first, second) = try await (a, b)
        #expect(first.id == second.id)
        #expect(first.isShared)
        #expect(try await store.sessions.sharedSession(tenant: "t2").id != first.id)
        try store.close()
    }

    @Test func idempotencyKeysReplayAndConflict() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        guard case .proceed(let claim) = try await store.idempotency.beginIdempotentRequest(tenant: "t1", key: "k", fingerprint: "f1")
        else {
            Issue.record("first use proceeds")
            return
        }
        guard case .conflict = try await store.idempotency.beginIdempotentRequest(tenant: "t1", key: "k", fingerprint: "f1") else {
            Issue.record("in progress is a conflict")
            return
        }
        try await store.idempotency.completeIdempotentRequest(
            claim, status: 201, contentType: "application/json", location: "/x", body: Data("{}".utf8))
        guard
            case .replay(let status, _, let location, let body) = try await store.idempotency.beginIdempotentRequest(
                tenant: "t1", key: "k", fingerprint: "f1")
        else {
            Issue.record("a finished request replays")
            return
        }
        #expect(status == 201 && location == "/x" && body == Data("{}".utf8))
        guard case .conflict = try await store.idempotency.beginIdempotentRequest(tenant: "t1", key: "k", fingerprint: "f2") else {
            Issue.record("another body is a conflict")
            return
        }
        guard case .proceed = try await store.idempotency.beginIdempotentRequest(tenant: "t2", key: "k", fingerprint: "f2") else {
            Issue.record("keys are per tenant")
            return
        }
        try store.close()
    }

    /// A claim whose request is still being answered holds its key however long that takes (`?wait=` may
    /// last 300 s); a finished one is replayed whatever its age.
    @Test func aRunningClaimIsNeverTakenOver() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let start = Date()
        func begin(after seconds: TimeInterval, key: String = "k") async throws -> IdempotencyDecision {
            try await store.idempotency.beginIdempotentRequest(
                tenant: "t1", key: key, fingerprint: "f", now: start.addingTimeInterval(seconds))
        }
        guard case .proceed(let claim) = try await begin(after: 0) else {
            Issue.record("first use proceeds")
            return
        }
        for seconds in [119.0, 121, 301, 3600] {
            guard case .conflict = try await begin(after: seconds) else {
                Issue.record("still being answered at \(seconds) s: the claim must hold")
                return
            }
        }
        try await store.idempotency.completeIdempotentRequest(claim, status: 201, contentType: nil, location: nil, body: Data("first".utf8))
        guard case .replay(let status, _, _, let body) = try await begin(after: 3601) else {
            Issue.record("a finished one replays")
            return
        }
        #expect(status == 201 && body == Data("first".utf8))

        // A request that ended without an answer (a 5xx) lets the next one have the key at once.
        guard case .proceed(let failed) = try await begin(after: 0, key: "retry") else {
            Issue.record("first use proceeds")
            return
        }
        try await store.idempotency.abandonIdempotentRequest(failed)
        guard case .proceed = try await begin(after: 1, key: "retry") else {
            Issue.record("an abandoned claim frees its key")
            return
        }
        try store.close()
    }

    /// After the process that held a claim died, the next process takes the key over at once; the old
    /// claim's answer, should it still come, is not stored over the new owner's.
    @Test func aDeadProcessClaimIsTakenOverAndItsLateAnswerIsDropped() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let first = try await fixture.open()
        guard case .proceed(let stale) = try await first.idempotency.beginIdempotentRequest(tenant: "t1", key: "k", fingerprint: "f") else {
            Issue.record("first use proceeds")
            return
        }
        let second = try await fixture.open()  // another process on the same file: the first one's requests are gone
        guard case .proceed(let owner) = try await second.idempotency.beginIdempotentRequest(tenant: "t1", key: "k", fingerprint: "f")
        else {
            Issue.record("a dead process's claim is taken over")
            return
        }
        try await second.idempotency.completeIdempotentRequest(
            owner, status: 201, contentType: nil, location: "/new", body: Data("new".utf8))
        try await first.idempotency.completeIdempotentRequest(
            stale, status: 200, contentType: nil, location: "/old", body: Data("old".utf8))
        try await first.idempotency.abandonIdempotentRequest(stale)
        guard
            case .replay(let status, _, let location, let body) = try await second.idempotency.beginIdempotentRequest(
                tenant: "t1", key: "k", fingerprint: "f")
        else {
            Issue.record("the owner's answer replays")
            return
        }
        #expect(status == 201 && location == "/new" && body == Data("new".utf8), "\(status) \(String(describing: location))")
        try first.close()
        try second.close()
    }

    @Test func blobsBelongToTheirTenant() async throws {
        let fixture = try StoreFixture()
        defer { fixture.directory.remove() }
        let store = try await fixture.open()
        let id = ResourceID.make(prefix: "blb")
        _ = try await store.blobs.insertBlob(BlobRecord(id: id, tenant: "t1", size: 3, digest: "sha-256=:x:"))
        #expect(try await store.blobs.blob(id: id, tenant: "t2") == nil)
        #expect(try await store.blobs.deleteBlob(id: id, tenant: "t2") == nil)
        #expect(try await store.blobs.blob(id: id, tenant: "t1")?.size == 3)
        #expect(try await store.blobs.allBlobIDs() == [id])
        #expect(try await store.blobs.deleteBlob(id: id, tenant: "t1")?.id == id)
        #expect(try await store.blobs.blob(id: id, tenant: "t1") == nil)
        try store.close()
    }
}
