internal import Dispatch
public import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A real HTTP/1.1 webhook receiver on loopback for tests: it records every request (headers, body,
/// arrival time) and answers as the test scripts it, per request (status, headers such as `Retry-After`,
/// body, delay).
///
/// Built from the fixture origin's parts (listener, non-blocking socket with bounded waits, request parser,
/// response writer, wake pipe): one accept thread and one thread per keep-alive connection.
///
/// ```swift
/// let receiver = try WebhookReceiver.start()
/// defer { receiver.stop() }
/// receiver.script([.status(503, headers: [("Retry-After", "1")]), .ok])
/// let requests = try await receiver.waitForRequests(count: 2, timeout: 10)
/// ```
public final class WebhookReceiver: Sendable {
    /// The port the receiver listens on, chosen by the system.
    public let port: Int
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public let baseURL: String
    let core: WebhookReceiverCore

    private init(port: Int, core: WebhookReceiverCore, host: String) {
        self.port = port
        self.baseURL = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        self.core = core
    }

    deinit { self.stop() }

    /// Binds `host` (a numeric address) on a system-chosen port and starts accepting.
    public static func start(host: String = "127.0.0.1") throws -> WebhookReceiver {
        let wake = try FixtureWakePipe()
        let (listener, port) = try FixtureOrigin.bindListener(host: host)
        let core = WebhookReceiverCore(wake: wake)
        core.threads.enter()
        let thread = Thread {
            defer { core.threads.leave() }
            core.acceptLoop(listener: listener)
        }
        thread.name = "WebhookReceiver.accept"
        thread.start()
        return WebhookReceiver(port: port, core: core, host: host)
    }

    /// The absolute URL of `path` (which starts with `/`).
    public func url(_ path: String) -> String { self.baseURL + path }

    /// Closes the listener and every connection, and waits (up to 2 s) for their threads. Idempotent.
    public func stop() {
        let first = self.core.state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { self.core.wake.signal() }
        _ = self.core.threads.wait(timeout: .now() + .seconds(2))
    }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { self.core.state.withLock { $0.requests } }

    /// The requests received for exactly `path`, in order.
    public func requests(path: String) -> [Request] { self.requests.filter { $0.path == path } }

    /// TCP connections accepted so far.
    public var acceptedConnections: Int { self.core.state.withLock { $0.accepted } }

    /// Replies for the next requests, in order, after any still scripted; then the default reply.
    public func script(_ replies: [Reply]) {
        self.core.state.withLock { $0.script += replies }
    }

    /// The reply once the script is used up (200 with no body at first).
    public func setDefaultReply(_ reply: Reply) {
        self.core.state.withLock { $0.defaultReply = reply }
    }

    /// Decides replies from the request itself; a nil answer falls back to the script, then the default.
    public func respond(with responder: @escaping @Sendable (Request) -> Reply?) {
        self.core.state.withLock { $0.responder = responder }
    }

    /// Waits until at least `count` requests (to `path`, when given) have arrived and returns them.
    ///
    /// - Throws: ``TimeoutError`` after `timeout` seconds.
    public func waitForRequests(count: Int, path: String? = nil, timeout: Double) async throws -> [Request] {
        // Counted under the lock: copying the list on every poll would make each later append copy it too.
        try await eventually(timeout: timeout, interval: 0.01) {
            self.core.state.withLock { state in
                guard let path else { return state.requests.count >= count }
                return state.requests.lazy.filter { $0.path == path }.count >= count
            }
        }
        return path.map { self.requests(path: $0) } ?? self.requests
    }
}

extension WebhookReceiver {
    /// One request as received.
    public struct Request: Sendable {
        public let method: String
        /// The path, without the query.
        public let path: String
        /// Header fields in arrival order, names as sent.
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]
        /// When the request head had been read.
        public let receivedAt: Date
        /// Which accepted connection carried it (equal ids: keep-alive reuse).
        public let connectionID: Int

        /// The first value of header `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            return self.headers.first { $0.name.lowercased() == wanted }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: self.body, as: UTF8.self) }

        /// The body as a JSON object.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(self.body)) as? [String: Any] else {
                throw CocoaError(.propertyListReadCorrupt)
            }
            return object
        }
    }

    /// How the receiver answers one request.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        /// Seconds to wait before answering.
        public var delay: Double

        public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], delay: Double = 0) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// 200 with no body.
        public static let ok = Reply()

        public static func status(_ status: Int, headers: [(String, String)] = [], delay: Double = 0) -> Reply {
            Reply(status: status, headers: headers, delay: delay)
        }

        /// 200 with a JSON body (a decision's answer).
        public static func json(_ text: String, status: Int = 200) -> Reply {
            Reply(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
        }
    }
}
