internal import Dispatch
internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A real HTTP/1.1 origin on loopback for tests: it lets a test provoke what a URLSession engine must handle
/// (ranges, validators, redirects, slow, stalled, truncated and garbled responses, content codings, cookies,
/// authentication, caching) and records every request it saw. The routes are listed in `FixtureRouter`.
///
/// POSIX sockets and threads, no event loop: one accept thread and one thread per connection (at most
/// ``maximumConnections``), keep-alive, request bodies with `Content-Length` or chunked framing, and
/// `Expect: 100-continue` answered. Every wait is bounded and ``stop()`` wakes them all through one pipe.
///
/// ```swift
/// let origin = try FixtureOrigin.start()
/// defer { origin.stop() }
/// let response = try await HTTPClient().send(.get(origin.url("/bytes/1024?seed=7")))
/// #expect(response.body == FixtureOrigin.bytes(count: 1024, seed: 7))
/// ```
public final class FixtureOrigin: Sendable {
    /// Connections served at once; further ones are accepted and closed at once (and still counted).
    public static let maximumConnections = 512

    /// The port the origin listens on, chosen by the system.
    public let port: Int
    /// `http://127.0.0.1:PORT` (`http://[::1]:PORT` for an IPv6 host), without a trailing slash.
    public let baseURL: String
    let core: FixtureOriginCore

    private init(port: Int, core: FixtureOriginCore) {
        self.port = port
        self.baseURL = "http://\(core.authority)"
        self.core = core
    }

    deinit {
        self.stop()
    }

    /// Binds `host` (a numeric address) on a system-chosen port, or on `port` again (one an earlier
    /// origin got from the system: "the origin comes back"), and starts accepting.
    ///
    /// - Throws: ``FixtureOriginError`` when the socket cannot be created, bound or listened on.
    public static func start(host: String = "127.0.0.1", port requested: Int = 0) throws -> FixtureOrigin {
        let wake = try FixtureWakePipe()
        let (listener, port) = try Self.bindListener(host: host, port: requested)
        let core = FixtureOriginCore(host: host, port: port, wake: wake)
        core.threads.enter()
        let thread = Thread {
            defer { core.threads.leave() }
            Self.acceptLoop(listener: listener, core: core)
        }
        thread.name = "FixtureOrigin.accept"
        thread.start()
        return FixtureOrigin(port: port, core: core)
    }

    /// The absolute URL of `path`, which starts with `/` and may carry a query.
    public func url(_ path: String) -> String {
        self.baseURL + path
    }

    /// Closes the listener and every connection, and waits (up to 2 s) until all their threads returned.
    /// Idempotent; `deinit` calls it too. Recorded requests stay readable afterwards.
    public func stop() {
        let first = self.core.state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { self.core.wake.signal() }
        _ = self.core.threads.wait(timeout: .now() + .seconds(2))
    }

    /// TCP connections accepted so far, including any refused for exceeding ``maximumConnections``.
    public var acceptedConnections: Int {
        self.core.state.withLock { $0.accepted }
    }

    /// Connections open right now.
    public var openConnections: Int {
        self.core.state.withLock { $0.open }
    }

    /// Every request received so far, in the order their bodies ended.
    public var requests: [RecordedRequest] {
        self.core.state.withLock { $0.requests }
    }

    /// The requests received for exactly `path` (no query), in order.
    public func requests(path: String) -> [RecordedRequest] {
        self.requests.filter { $0.path == path }
    }

    /// Forgets the recorded requests, e.g. between the phases of one test. The connection count stays.
    public func clearRequests() {
        self.core.state.withLock { $0.requests.removeAll() }
    }

    /// Sets (or replaces) the resource served at `/resource/{name}`, with ranges and validators like `/bytes`.
    /// Replacing it with other bytes and another `etag` is how tests make a resumed download's validator fail.
    ///
    /// - Parameters:
    ///   - etag: The `ETag` value as sent, quotes included (`"v2"` or `W/"v2"`), or nil for none.
    ///   - lastModified: An HTTP date for `Last-Modified`, or nil for none.
    public func setResource(_ name: String, body: [UInt8], etag: String?, lastModified: String?) {
        self.core.state.withLock {
            $0.resources[name] = FixtureResource(body: body, etag: etag, lastModified: lastModified)
        }
    }

    /// Lets every `/gate/{name}` response, waiting or to come, send the rest of its body (or fail).
    public func openGate(_ name: String) {
        self.core.state.withLock { _ = $0.openGates.insert(name) }
    }

    /// The bytes `/bytes/{count}?seed={seed}` serves: SplitMix64 in counter mode (see `FixtureBytes`).
    public static func bytes(count: Int, seed: UInt64 = 0) -> [UInt8] {
        FixtureBytes.binary(count: count, seed: seed)
    }

    /// The decoded text `/encoded/{coding}?size={count}` serves: numbered lorem ipsum lines cut at `count`.
    public static func text(count: Int) -> [UInt8] {
        FixtureBytes.text(count: count)
    }

    private static func acceptLoop(listener: Int32, core: FixtureOriginCore) {
        AcceptLoop.run(
            listener: listener, wake: core.wake, threads: core.threads, name: "FixtureOrigin",
            admit: { core.state.withLock { $0.admit() } },
            release: { core.state.withLock { $0.open -= 1 } },
            serve: { socket, id in FixtureConnection.serve(socket, id: id, core: core) })
    }
}
