import Foundation

/// A Debian PostgreSQL on loopback for the tests of the second store backend: a cluster made by
/// `initdb` in a temporary directory owned by `postgres` (PostgreSQL refuses to run as root), started in
/// the foreground on a port from the OS, with `fsync=off` (a test's data need not survive a power cut).
///
/// One cluster serves the whole test process (`shared()`); each test takes a database of its own
/// (`makeDatabase()`), so tests never see each other's rows. The server runs under a small shell that
/// stops it and removes its directory when this process's end of a pipe closes, so no cluster outlives
/// the test run, however it ends.
public final class PostgresServer: Sendable {
    public let port: Int
    private let directory: String
    private let process: Process
    /// Our end of the pipe the keeper shell waits on: closing it (exit included) stops the server.
    private let lifeline: Pipe
    private let counter = Locked(0)

    /// The binaries of the installed major version (`/usr/lib/postgresql/N/bin`), newest first.
    static func binaries() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap(Int.init).sorted().last else {
            throw PostgresServerError(message: "PostgreSQL is not installed (no \(root)/N): run `make test-deps`")
        }
        return "\(root)/\(newest)/bin"
    }

    private static let shared = Locked<Task<PostgresServer, any Error>?>(nil)

    /// The test process's cluster, started on first use.
    public static func shared() async throws -> PostgresServer {
        let task = shared.withLock { task in
            if let task { return task }
            let started = Task { try await PostgresServer.start() }
            task = started
            return started
        }
        return try await task.value
    }

    /// A new, empty database on the shared cluster: its `postgres://` URL.
    public static func makeDatabase() async throws -> String {
        try await shared().makeDatabase()
    }

    public static func start() async throws -> PostgresServer {
        let bin = try binaries()
        let directory = "/tmp/urlsessiond-pg-\(String(UInt64.random(in: .min ... .max), radix: 16))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try run("/bin/chown", ["postgres:postgres", directory])
        try run(
            "/usr/sbin/runuser",
            [
                "-u", "postgres", "--", "\(bin)/initdb", "-D", "\(directory)/data", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                "--no-sync",
            ])
        let port = try freeLoopbackPort()
        let postgres = [
            "\(bin)/postgres", "-D", "\(directory)/data", "-p", "\(port)", "-c", "listen_addresses=127.0.0.1",
            "-c", "unix_socket_directories=\(directory)", "-c", "fsync=off", "-c", "synchronous_commit=off",
            "-c", "full_page_writes=off", "-c", "max_connections=300", "-c", "shared_buffers=64MB",
        ].joined(separator: " ")
        // The keeper: the server in the background, stopped (fast shutdown) once stdin reaches its end,
        // then its directory removed.
        let keeper =
            "\(postgres) >\(directory)/server.log 2>&1 & server=$!; cat >/dev/null; kill -INT $server; wait $server; rm -rf \(directory)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", "postgres", "--", "/bin/sh", "-c", keeper]
        let lifeline = Pipe()
        process.standardInput = lifeline
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = PostgresServer(port: port, directory: directory, process: process, lifeline: lifeline)
        try await server.waitUntilReady()
        return server
    }

    private init(port: Int, directory: String, process: Process, lifeline: Pipe) {
        self.port = port
        self.directory = directory
        self.process = process
        self.lifeline = lifeline
    }

    /// `postgres://postgres@127.0.0.1:PORT/NAME` of a database created now.
    public func makeDatabase() async throws -> String {
        let number = counter.withLock { count -> Int in
            count += 1
            return count
        }
        let name = "t\(ProcessInfo.processInfo.processIdentifier)_\(number)"
        try psql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    public func url(database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// The database a `postgres://` URL of this server names (its path's last component).
    public static func databaseName(of url: String) -> String { String(url.split(separator: "/").last ?? "") }

    /// `url` (one of this server's) through the server's Unix socket instead of TCP, as libpq writes it:
    /// `postgres://postgres@:PORT/NAME?host=DIRECTORY`.
    public func overUnixSocket(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.host = ""
        components.queryItems = [URLQueryItem(name: "host", value: directory)]
        return components.string ?? url
    }

    /// Runs `sql` as the superuser on the `postgres` database (or `database`); its output, unaligned.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(
            "/usr/sbin/runuser",
            [
                "-u", "postgres", "--", "\(Self.binaries())/psql", "-h", directory, "-p", "\(port)", "-d", database, "-AtX", "-v",
                "ON_ERROR_STOP=1", "-c", sql,
            ])
    }

    /// Everything `database` holds, as `pg_dump` writes it (rows as text, bytea in hex).
    public func dump(database: String) throws -> String {
        try Self.run(
            "/usr/sbin/runuser",
            ["-u", "postgres", "--", "\(Self.binaries())/pg_dump", "-h", directory, "-p", "\(port)", "--data-only", database])
    }

    /// Stops the server and removes its directory.
    public func stop() {
        try? lifeline.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func waitUntilReady() async throws {
        for _ in 0..<500 {  // 10 s
            guard process.isRunning else { break }
            if (try? psql("SELECT 1")) == "1\n" { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
        stop()
        throw PostgresServerError(message: "PostgreSQL did not start on \(port): \(log)")
    }

    @discardableResult
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgresServerError(
                message: "\(path) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                    + String(decoding: message, as: UTF8.self))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

}

public struct PostgresServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The PostgreSQL database a test's store opens (and opens again, as a restart does) when the tests run
/// on PostgreSQL (`URLSESSIOND_TEST_STORE=postgres`): made at the first ask, the same one after.
public final class TestDatabase: Sendable {
    private let made = Locked<String?>(nil)

    public init() {}

    /// The database's name, once made.
    public var name: String? { made.withLock { $0 }.map(PostgresServer.databaseName) }

    /// The database's `postgres://` URL; nil when the tests run on SQLite.
    public func postgresURL() async throws -> String? {
        guard ServiceProcess.testsPostgres else { return nil }
        if let url = made.withLock({ $0 }) { return url }
        let url = try await PostgresServer.makeDatabase()
        made.withLock { $0 = url }
        return url
    }
}
