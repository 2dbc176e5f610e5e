import Foundation

extension ServiceProcess {
    /// The store backend the tests run the service on: `URLSESSIOND_TEST_STORE=postgres` (what
    /// `make test-postgres` sets) runs every service on a PostgreSQL database of its own, from
    /// `PostgresServer`; otherwise SQLite in the data directory, as `make run`.
    public static var testsPostgres: Bool { ProcessInfo.processInfo.environment["URLSESSIOND_TEST_STORE"] == "postgres" }

    /// `URLSESSIOND_DATABASE_URL` for a service on `dataDirectory`: one database per data directory, so a
    /// restart (kill -9 and start again on the same directory) finds the rows it left. A test that sets
    /// the variable itself (several nodes on one database) wins over this. A service in a network namespace
    /// reaches the server through its Unix socket (the test's loopback is not the namespace's).
    static func storeEnvironment(for dataDirectory: URL, overUnixSocket: Bool) async throws -> [String: String] {
        guard testsPostgres else { return [:] }
        let remembered = dataDirectory.appendingPathComponent("test-database-url")
        var url = (try? String(contentsOf: remembered, encoding: .utf8)) ?? ""
        if url.isEmpty {
            url = try await PostgresServer.makeDatabase()
            try url.write(to: remembered, atomically: true, encoding: .utf8)
        }
        if overUnixSocket { url = try await PostgresServer.shared().overUnixSocket(url) }
        return ["URLSESSIOND_DATABASE_URL": url]
    }
}
