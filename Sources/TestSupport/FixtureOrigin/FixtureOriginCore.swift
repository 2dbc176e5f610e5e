internal import Dispatch
internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A mutable resource served at `/resource/{name}`.
struct FixtureResource {
    var body: [UInt8]
    var etag: String?
    var lastModified: String?
}

/// What the accept thread and every connection thread share. Each thread holds a strong reference, so the
/// wake pipe stays open until the last of them has returned.
final class FixtureOriginCore: Sendable {
    struct State: ConnectionCounting {
        var requests: [RecordedRequest] = []
        var accepted = 0
        var open = 0
        var resources: [String: FixtureResource] = [:]
        /// When each connection (by ``RecordedRequest/connectionID``) ended, once it has.
        var connectionEnds: [Int: Date] = [:]
        /// Gates a test opened (`/gate/{name}` goes on past them).
        var openGates: Set<String> = []
        var stopped = false
    }

    /// `127.0.0.1`, or `[::1]` for IPv6, as URLs spell the host.
    let host: String
    /// `host:PORT`.
    let authority: String
    let wake: FixtureWakePipe
    /// Entered for each thread before it starts, left when it returns, so `stop()` can join them all.
    let threads = DispatchGroup()
    let state = Locked(State())
    let encoder = FixtureEncoder()

    init(host: String, port: Int, wake: FixtureWakePipe) {
        self.host = host.contains(":") ? "[\(host)]" : host
        self.authority = "\(self.host):\(port)"
        self.wake = wake
    }

    func record(
        _ request: FixtureRequest, body: FixtureBody, connectionID: Int, receivedAt: Date
    ) {
        let recorded = RecordedRequest(
            method: request.method, target: request.target, path: request.path, query: request.query,
            headers: request.headers, bodySize: body.size, bodySHA256: body.sha256, bodyComplete: body.complete,
            connectionID: connectionID, receivedAt: receivedAt)
        self.state.withLock { $0.requests.append(recorded) }
    }

    func resource(_ name: String) -> FixtureResource? {
        self.state.withLock { $0.resources[name] }
    }
}

/// A self-pipe that wakes every `poll` in the origin at once: ``signal()`` writes a byte nobody reads, so the
/// read end stays readable for good and threads that start waiting afterwards see it too.
final class FixtureWakePipe: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw FixtureOriginError(operation: "pipe", code: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK)
        }
        self.readFD = fds[0]
        self.writeFD = fds[1]
    }

    deinit {
        close(self.readFD)
        close(self.writeFD)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(self.writeFD, &byte, 1)
    }
}

/// Starting ``FixtureOrigin`` failed in a system call.
public struct FixtureOriginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failing call, e.g. `bind`.
    public let operation: String
    /// `errno`, or the `getaddrinfo` code.
    public let code: Int32

    /// Creates an error from the failing call and its error number.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    public var description: String {
        let message: UnsafePointer<CChar>? =
            self.operation == "getaddrinfo" ? gai_strerror(self.code) : UnsafePointer(strerror(self.code))
        let text = message.map { String(cString: $0) } ?? "unknown error"
        return "FixtureOriginError(\(self.operation), \(self.code)): \(text)"
    }
}
