import Foundation

/// `Tests/Fixtures/path_origin.py` (its doc string lists the endpoints): an HTTP/1.1 origin that answers
/// `/whoami` with the peer's address, serves `/bytes/{n}` with ranges, If-Range and pacing, answers `/tos`
/// with the TOS byte the client's packets carried, and logs every request as a JSON line.
///
/// ``startOnLoopback()`` runs it on the test's own `127.0.0.1`; ``NetworkLab/startOrigin()`` runs it inside
/// the lab's origin namespace. The port comes from the OS (the script binds port 0 and writes a port file,
/// see ``FixtureScript``). ``stop()`` (or deinit) ends it and removes its log.
public final class PathOrigin: Sendable {
    /// The TCP port the origin bound.
    public let port: Int
    private let script: FixtureScript
    /// Holds the request log.
    private let directory: TemporaryDirectory

    private init(script: FixtureScript, directory: TemporaryDirectory) {
        self.port = script.port
        self.script = script
        self.directory = directory
    }

    deinit { stop() }

    /// The origin's base URL on loopback, `http://127.0.0.1:PORT`, without a trailing slash. For an origin
    /// in a network namespace, this is its URL from inside that namespace.
    public var url: String { "http://127.0.0.1:\(self.port)" }

    /// Starts `path_origin.py` on `127.0.0.1` in the test's own namespace, on a port the OS picks.
    /// - Throws: ``NetworkLabError`` when there is no Python or the script does not come up within 10 s
    ///   (with its stderr).
    public static func startOnLoopback() async throws -> PathOrigin {
        try await start(host: "127.0.0.1", namespace: nil)
    }

    /// Starts `path_origin.py` on `host` (e.g. `0.0.0.0`, every address of the namespace), inside
    /// `namespace` when given; with `multipath`, its listening socket is Multipath TCP and it keeps the
    /// log ``multipathConnections()`` reads.
    static func start(host: String, namespace: String?, multipath: Bool = false) async throws -> PathOrigin {
        let directory = try TemporaryDirectory.make(prefix: "path-origin")
        do {
            var arguments = ["--host", host, "--port", "0", "--log", directory.appending("log.jsonl").path]
            if multipath { arguments += ["--mptcp-log", directory.appending("mptcp.jsonl").path] }
            let script = try await FixtureScript.start("path_origin.py", arguments: arguments, namespace: namespace)
            return PathOrigin(script: script, directory: directory)
        } catch {
            directory.remove()
            throw error
        }
    }

    /// The request log, one JSON object per request in order: `peer`, `path` (with the query), `range` and
    /// `ifRange` (or null), `time`. No request yet (or no log file) is an empty log.
    /// - Throws: ``NetworkLabError`` when a line is not a JSON object.
    public func requests() throws -> [[String: Any]] {
        try Self.entries(of: self.directory.appending("log.jsonl").path)
    }

    /// A Multipath TCP origin's log of `/bytes` responses, one JSON object per response when it ends, in
    /// order: `peer`, `path`, `mptcp` (false: plain TCP, or a client that fell back), `subflows` (the most
    /// extra subflows seen), `complete`, `bytesByPeer` (bytes acknowledged on each peer address's subflows).
    /// Empty for an origin started without `multipath`.
    public func multipathConnections() throws -> [[String: Any]] {
        try Self.entries(of: self.directory.appending("mptcp.jsonl").path)
    }

    private static func entries(of path: String) throws -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            return []
        }
        // Only whole lines: the origin may be writing the next one.
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        return try lines.filter { !$0.isEmpty }.map { line in
            guard let entry = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw NetworkLabError("unexpected path_origin.py log line: \(String(decoding: line, as: UTF8.self))")
            }
            return entry
        }
    }

    /// Ends the script (blocking, see ``FixtureScript/stop()``) and removes its log. Later calls do nothing.
    public func stop() {
        self.script.stop()
        self.directory.remove()
    }
}
