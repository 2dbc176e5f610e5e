import Logging
import Testing

@testable import TestSupport
@testable import TransferStore

/// The PostgreSQL the second store backend's tests run on: started from the Debian package by the tests
/// themselves, one cluster for the process, a database for each test.
@Suite("PostgreSQL test server")
struct PostgresServerTests {
    @Test(.timeLimit(.minutes(1)))
    func eachTestGetsAnEmptyDatabaseOfItsOwn() async throws {
        let server = try await PostgresServer.shared()
        let first = try await PostgresServer.makeDatabase()
        let second = try await PostgresServer.makeDatabase()
        #expect(first != second && first.hasPrefix("postgres://postgres@127.0.0.1:\(server.port)/"))
        let name = PostgresServer.databaseName(of: first)
        try server.psql("CREATE TABLE probe (value int); INSERT INTO probe VALUES (42)", database: name)
        #expect(try server.psql("SELECT value FROM probe", database: name) == "42\n")
        let other = PostgresServer.databaseName(of: second)
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'probe'", database: other) == "0\n")
        #expect(try server.psql("SHOW fsync") == "off\n")
    }
}

/// `URLSESSIOND_DATABASE_URL`'s forms: TCP, and a Unix socket directory as libpq writes it (how a service in
/// another network namespace reaches the server).
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test(.timeLimit(.minutes(1)))
    func aSocketDirectoryURLReachesTheServerOverItsUnixSocket() async throws {
        let server = try await PostgresServer.shared()
        let url = server.overUnixSocket(try await PostgresServer.makeDatabase())
        #expect(url.contains("@:\(server.port)/") && url.contains("?host=/"), "\(url)")
        let database = try await PostgresStoreDatabase(url: url, readers: 1, logger: Logger(label: "test"))
        #expect(try await database.read { db in try db.value("SELECT 1", as: Int.self) } == 1)
        await database.close()
    }

    @Test func aURLWithoutADatabaseOrHostIsRefusedWithoutItsPassword() {
        for url in ["postgres://user:s3cret@db.example/", "postgres://user:s3cret@/db", "mysql://user:s3cret@db/x"] {
            #expect(throws: PostgresURLError.self) { try PostgresStoreDatabase.configuration(url) }
            do {
                _ = try PostgresStoreDatabase.configuration(url)
            } catch {
                #expect(!"\(error)".contains("s3cret"), "\(error)")
            }
        }
    }

    @Test func aConnectionRefusedSaysWhy() async throws {
        let port = try freeLoopbackPort()
        await #expect {
            _ = try await PostgresStoreDatabase(url: "postgres://u:s3cret@127.0.0.1:\(port)/db", readers: 1, logger: Logger(label: "test"))
        } throws: { error in
            "\(error)".contains("connection") && !"\(error)".contains("s3cret") && !"\(error)".contains("Generic description")
        }
    }
}
