import Foundation

/// Debian's SOCKS5 server (`danted`, package dante-server) on loopback, asking for a username and password
/// (RFC 1929), for tests of `connectionProxyDictionary`'s SOCKS keys against a real proxy.
///
/// Dante checks a login against the system's password database (`getpwnam`, `getspnam`). So that a test
/// adds no user to the machine, danted runs in a mount namespace of its own (`unshare --mount`, as root)
/// where copies of `/etc/passwd` and `/etc/shadow` with one more user are mounted over the real ones.
/// It logs every connection it passes (`log: connect`) and every login it refuses: `connections(to:)` and
/// `refusedLogins` read them.
public final class DanteSOCKSProxy: Sendable {
    public let port: Int
    public let user: String
    public let password: String
    private let directory: TemporaryDirectory

    /// Whether this machine can run one: danted installed, and root (for the mount namespace).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/danted") && getuid() == 0
    }

    /// Starts danted on a free loopback port, passing TCP connections from loopback to anywhere for the
    /// user `user` with `password` (random when not given).
    public static func start(
        user: String = "urlsessiond-socks", password: String = "pw-" + String(UInt64.random(in: .min ... .max), radix: 36)
    ) async throws -> DanteSOCKSProxy {
        let directory = try TemporaryDirectory.make(prefix: "dante-socks")
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let shadow = try String(contentsOfFile: "/etc/shadow", encoding: .utf8)
        let hash = try NginxOrigin.runTool("/usr/bin/openssl", ["passwd", "-6", password])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try (passwd + "\(user):x:64999:64999::/nonexistent:/usr/sbin/nologin\n").write(
            to: directory.appending("passwd"), atomically: false, encoding: .utf8)
        try (shadow + "\(user):\(hash):19000:0:99999:7:::\n").write(
            to: directory.appending("shadow"), atomically: false, encoding: .utf8)
        _ = chmod(directory.appending("passwd").path, 0o644)
        _ = chmod(directory.appending("shadow").path, 0o640)
        let port = try freeLoopbackPort()
        let configuration = """
            logoutput: \(directory.appending("danted.log").path)
            internal: 127.0.0.1 port = \(port)
            external: 127.0.0.1
            socksmethod: username
            clientmethod: none
            user.privileged: root
            user.unprivileged: nobody
            client pass {
                from: 127.0.0.0/8 to: 0.0.0.0/0
                log: error
            }
            socks pass {
                from: 127.0.0.0/8 to: 0.0.0.0/0
                command: connect
                log: connect error
            }

            """
        let configurationFile = directory.appending("danted.conf")
        try configuration.write(to: configurationFile, atomically: false, encoding: .utf8)
        // danted detaches (-D), so it is no child of the test process: run in the foreground as one, the
        // service processes of the same test were never reaped after they exited (zombies, `isRunning`
        // true, "ignored SIGTERM"), a Foundation `Process` quirk not worth chasing here. The launcher
        // (unshare, then sh) ends once danted has forked; danted's pid file says which process to stop.
        let script = """
            mount --bind \(directory.appending("passwd").path) /etc/passwd && \
            mount --bind \(directory.appending("shadow").path) /etc/shadow && \
            exec /usr/sbin/danted -D -f \(configurationFile.path) -p \(directory.appending("danted.pid").path)
            """
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        launcher.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", script]
        launcher.standardOutput = FileHandle.nullDevice
        launcher.standardError = try FileHandle(forWritingTo: Self.create(directory.appending("stderr.log")))
        try launcher.run()
        let proxy = DanteSOCKSProxy(port: port, user: user, password: password, directory: directory)
        try await proxy.waitUntilListening(launcher)
        return proxy
    }

    private static func create(_ file: URL) throws -> URL {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw NginxOriginError(message: "cannot create \(file.path)")
        }
        return file
    }

    private init(port: Int, user: String, password: String, directory: TemporaryDirectory) {
        self.port = port
        self.user = user
        self.password = password
        self.directory = directory
    }

    /// What danted logged (connections passed, errors), for a test's message.
    public var log: String {
        (try? String(contentsOf: directory.appending("danted.log"), encoding: .utf8)) ?? ""
    }

    /// How many connections danted opened to `port` on loopback for its clients: its lines
    /// `pass(1): tcp/connect [: username%USER@CLIENT PROXY -> SOURCE 127.0.0.1.<port>`.
    public func connections(to port: Int) -> Int {
        log.split(separator: "\n").filter { $0.contains("tcp/connect [") && $0.hasSuffix(" 127.0.0.1.\(port)") }.count
    }

    /// How many logins danted refused (`system password authentication failed`).
    public var refusedLogins: Int {
        log.split(separator: "\n").filter { $0.contains("password authentication failed") }.count
    }

    /// danted's own pid (its pid file), once it has written it.
    private var pid: pid_t? {
        (try? String(contentsOf: directory.appending("danted.pid"), encoding: .utf8))
            .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Whether `pid` is a live process (a zombie left for init to reap counts as gone).
    private static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !stat.contains(") Z ")
    }

    /// Ends danted (SIGTERM; its children follow their mother), waiting at most 5 s.
    public func stop() {
        if let pid, Self.isAlive(pid) {
            kill(pid, SIGTERM)
            for _ in 0..<250 where Self.isAlive(pid) { usleep(20_000) }
            if Self.isAlive(pid) { kill(pid, SIGKILL) }
        }
        directory.remove()
    }

    deinit { stop() }

    private func waitUntilListening(_ launcher: Process) async throws {
        for _ in 0..<250 {
            if loopbackPortAccepts(port) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        for _ in 0..<250 where launcher.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        guard loopbackPortAccepts(port), !launcher.isRunning else {
            let errors = (try? String(contentsOf: directory.appending("stderr.log"), encoding: .utf8)) ?? ""
            let log = self.log
            if launcher.isRunning { kill(launcher.processIdentifier, SIGKILL) }
            stop()
            throw NginxOriginError(message: "danted did not start listening on \(port): \(errors) \(log)")
        }
    }
}
