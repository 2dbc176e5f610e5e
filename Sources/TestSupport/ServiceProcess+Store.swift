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
    ///
    /// The node's lease is a minute (`URLSESSIOND_LEASE_SECONDS`; the tests of several nodes set their own):
    /// a lone node fences itself after two thirds of its lease without a renewal and settles its default
    /// sessions' tasks with -1005 when the fence lifts. On a CI machine of 2 cores running three services
    /// and their PostgreSQL at once, a download in a test of the command line once ended so, the service
    /// never restarted (its log was gone; a renewal starved for 10 s is the one path there). The fence is
    /// what `MultiNodeTests` test, with a lease of their own.
    static func storeEnvironment(for dataDirectory: URL, overUnixSocket: Bool) async throws -> [String: String] {
        guard testsPostgres else { return [:] }
        let remembered = dataDirectory.appendingPathComponent("test-database-url")
        var url = (try? String(contentsOf: remembered, encoding: .utf8)) ?? ""
        if url.isEmpty {
            url = try await PostgresServer.makeDatabase()
            try url.write(to: remembered, atomically: true, encoding: .utf8)
        }
        if overUnixSocket { url = try await PostgresServer.shared().overUnixSocket(url) }
        return ["URLSESSIOND_DATABASE_URL": url, "URLSESSIOND_LEASE_SECONDS": "60"]
    }
}
