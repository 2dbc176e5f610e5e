import Testing

@testable import TestSupport

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
        let name = String(first.split(separator: "/").last!)
        try server.psql("CREATE TABLE probe (value int); INSERT INTO probe VALUES (42)", database: name)
        #expect(try server.psql("SELECT value FROM probe", database: name) == "42\n")
        let other = String(second.split(separator: "/").last!)
        #expect(try server.psql("SELECT count(*) FROM pg_tables WHERE tablename = 'probe'", database: other) == "0\n")
        #expect(try server.psql("SHOW fsync") == "off\n")
    }
}
