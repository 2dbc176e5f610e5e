import Curl
import Foundation
import TestSupport
import Testing
import TransferEngine
import TransferModels
import WebSockets

/// Drives one `WebSocketConnection` from the test's thread: polls its socket, writes what is queued,
/// reads what arrived, until a condition holds or the deadline passes.
private final class WebSocketDriver {
    let connection: WebSocketConnection
    var events: [WebSocketConnectionEvent] = []
    var failure: WebSocketConnectionError?

    init(_ connection: WebSocketConnection) { self.connection = connection }

    /// Connects to `path` of `origin` with the egress guard allowing loopback (or not).
    static func connect(
        _ origin: WebSocketEchoOrigin, _ path: String, protocols: [String] = [], fields: [(name: String, value: String)] = [],
        maximumMessageSize: Int = 1 << 20, allowLoopback: Bool = true
    ) throws -> (WebSocketDriver?, CurlResult, CurlEasyHandle) {
        try connect(
            port: origin.port, path, protocols: protocols, fields: fields, maximumMessageSize: maximumMessageSize,
            allowLoopback: allowLoopback)
    }

    /// Connects to `path` on `port` of 127.0.0.1, over TLS when `trusting` names the server's certificate.
    static func connect(
        port: Int, _ path: String, trusting certificate: String? = nil, protocols: [String] = [],
        fields: [(name: String, value: String)] = [], maximumMessageSize: Int = 1 << 20, allowLoopback: Bool = true
    ) throws -> (WebSocketDriver?, CurlResult, CurlEasyHandle) {
        let handle = try CurlEasyHandle()
        let allowed = allowLoopback ? try EgressPolicy.parseAllowList("127.0.0.0/8").get() : []
        try handle.apply(SafetyBaseline(certificateAuthorities: certificate, egress: EgressPolicy(allowed: allowed)))
        try handle.set(.url, "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)\(path)")
        try handle.set(.connectTimeoutMilliseconds, 5000)
        let transport = CurlConnection(handle: handle)
        let result = transport.connect()
        guard result.isSuccess else { return (nil, result, handle) }
        let connection = WebSocketConnection(
            connection: transport, target: path, host: "127.0.0.1:\(port)", protocols: protocols, fields: fields,
            maximumMessageSize: maximumMessageSize)
        return (WebSocketDriver(connection), result, handle)
    }

    /// Runs until `done(events)` or the connection failed or ended, for at most `timeout`.
    func run(timeout: Duration = .seconds(10), until done: ([WebSocketConnectionEvent]) -> Bool) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, failure == nil, !done(events) {
            do {
                try connection.writePending()
                guard connection.state != .closed || connection.hasPendingOutput else { return }
                guard let socket = connection.socket else { return }
                var descriptor = pollfd(fd: socket, events: Int16(POLLIN) | (connection.hasPendingOutput ? Int16(POLLOUT) : 0), revents: 0)
                _ = poll(&descriptor, 1, 50)
                events += try connection.readAvailable()
            } catch {
                failure = error
                try? connection.writePending()  // the close frame of a protocol violation
            }
        }
    }

    var messages: [WebSocketMessage] {
        events.compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    var closed: (code: WebSocketCloseCode, reason: String)? {
        events.lazy.compactMap { if case .closed(let code, let reason) = $0 { (code, reason) } else { nil } }.first
    }
}

@Suite("WebSocket client against a real server (the websockets library)")
struct WebSocketConnectionTests {
    @Test(.timeLimit(.minutes(1)))
    func textAndBinaryMessagesOfEveryLengthEncodingComeBackAndTheSubprotocolIsChosen() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let (connected, result, _) = try WebSocketDriver.connect(origin, "/echo", protocols: ["superchat", "chat"])
        let driver = try #require(connected, "connect: \(result)")
        driver.run { events in events.contains { if case .opened = $0 { true } else { false } } }
        guard case .opened(let chosen, let response) = try #require(driver.events.first) else {
            Issue.record("not opened")
            return
        }
        #expect(chosen == "superchat")
        #expect(response.statusCode == 101)

        let sent: [WebSocketMessage] = [
            .string("héllo"), .data([0, 1, 2, 255]), .string(""), .data(Array(repeating: 7, count: 126)),
            .data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) }), .string(String(repeating: "€", count: 30_000)),
        ]
        for message in sent { #expect(driver.connection.send(message)) }
        driver.run { _ in driver.messages.count == sent.count }
        #expect(driver.failure == nil)
        #expect(driver.messages == sent)
    }

    @Test(.timeLimit(.minutes(1)))
    func fragmentedMessagesAreJoinedAndPingsGoBothWays() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let driver = try #require(try WebSocketDriver.connect(origin, "/echo").0)
        driver.connection.send(.string("fragments 4 a message sent in four fragments"))
        driver.run { _ in !driver.messages.isEmpty }
        #expect(driver.messages == [.string("a message sent in four fragments")])

        // The server's ping is answered (it says so once the pong arrived); ours gets its pong.
        driver.connection.send(.string("ping 42"))
        #expect(driver.connection.sendPing([1, 2, 3]))
        driver.run { events in driver.messages.count == 2 && events.contains(.pong([1, 2, 3])) }
        #expect(driver.messages.last == .string("pong received 42"))
        #expect(driver.events.contains(.pong([1, 2, 3])))
    }

    @Test(.timeLimit(.minutes(1)))
    func eachCloseEndsWithItsCodeAndReason() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        // Ours: the server echoes the close frame.
        let ours = try #require(try WebSocketDriver.connect(origin, "/echo").0)
        ours.run { events in !events.isEmpty }
        ours.connection.close(code: .goingAway, reason: "done here")
        #expect(!ours.connection.send(.string("after close")), "no message after close")
        ours.run { _ in ours.closed != nil }
        #expect(ours.closed?.code == .goingAway)
        #expect(ours.connection.state == .closed && ours.connection.closeCode == .goingAway)

        // The server's, on request and at once.
        let theirs = try #require(try WebSocketDriver.connect(origin, "/echo").0)
        theirs.connection.send(.string("close 4001 finished"))
        theirs.run { _ in theirs.closed != nil }
        #expect(theirs.closed?.code == WebSocketCloseCode(rawValue: 4001) && theirs.closed?.reason == "finished")
        let immediate = try #require(try WebSocketDriver.connect(origin, "/close-now").0)
        immediate.run { _ in immediate.closed != nil }
        #expect(immediate.closed?.code == WebSocketCloseCode(rawValue: 4000) && immediate.closed?.reason == "bye")
    }

    @Test(.timeLimit(.minutes(1)))
    func aMessageOverTheMaximumSizeFailsTheConnectionWith1009() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let driver = try #require(try WebSocketDriver.connect(origin, "/echo", maximumMessageSize: 1000).0)
        driver.connection.send(.data(Array(repeating: 1, count: 1000)))
        driver.run { _ in !driver.messages.isEmpty }
        #expect(driver.messages.count == 1, "a message of exactly the maximum size is taken")
        driver.connection.send(.data(Array(repeating: 1, count: 1001)))
        driver.run { _ in false }
        #expect(driver.failure == .protocolViolation(.messageTooBig(limit: 1000)))
        #expect(driver.connection.closeCode == .messageTooBig && driver.connection.state == .closed)
    }

    @Test(.timeLimit(.minutes(1)))
    func theHandshakeCarriesTheRequestsFieldsAndARefusalKeepsTheResponse() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let driver = try #require(
            try WebSocketDriver.connect(origin, "/headers?x=1", fields: [("Cookie", "session=abc"), ("Authorization", "Bearer t")]).0)
        driver.run { _ in !driver.messages.isEmpty }
        guard case .string(let json) = try #require(driver.messages.first) else {
            Issue.record("no headers")
            return
        }
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(fields["Cookie"] == "session=abc" && fields["Authorization"] == "Bearer t")
        #expect(fields["Sec-WebSocket-Version"] == "13" && fields["Host"] == "127.0.0.1:\(origin.port)")

        let refused = try #require(try WebSocketDriver.connect(origin, "/nowhere").0)
        refused.run { _ in false }
        guard case .handshake(.notUpgraded(404), let response)? = refused.failure else {
            Issue.record("expected a refused upgrade, got \(String(describing: refused.failure))")
            return
        }
        #expect(response?.statusCode == 404)
    }

    /// wss: nginx terminates TLS (offering h2 and http/1.1 by ALPN) in front of the server; the connection
    /// verifies nginx's certificate and speaks HTTP/1.1 for the upgrade.
    @Test(.timeLimit(.minutes(1)))
    func overTLSThroughAProxyingNginxMessagesAndCloseWork() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let nginx = try await NginxOrigin.start(tls: true, webSocketUpstream: origin.port)
        defer { nginx.stop() }
        let (connected, result, _) = try WebSocketDriver.connect(
            port: nginx.port, "/echo", trusting: nginx.certificatePath, protocols: ["chat"])
        let driver = try #require(connected, "connect: \(result)")
        driver.connection.send(.string("over TLS"))
        driver.connection.send(.data(Array(repeating: 42, count: 100_000)))
        driver.run { _ in driver.messages.count == 2 }
        #expect(driver.failure == nil)
        #expect(driver.messages == [.string("over TLS"), .data(Array(repeating: 42, count: 100_000))])
        guard case .opened(let chosen, _)? = driver.events.first else {
            Issue.record("not opened")
            return
        }
        #expect(chosen == "chat")
        driver.connection.close(code: .normalClosure, reason: "")
        driver.run { _ in driver.closed != nil }
        #expect(driver.closed?.code == .normalClosure)

        // An untrusted certificate fails the connection itself.
        let (refused, refusal, _) = try WebSocketDriver.connect(port: nginx.port, "/echo", trusting: "/etc/ssl/certs/ca-certificates.crt")
        #expect(refused == nil && !refusal.isSuccess)
    }

    @Test(.timeLimit(.minutes(1)))
    func theEgressGuardRefusesAForbiddenAddressBeforeConnecting() async throws {
        let origin = try await WebSocketEchoOrigin.start()
        defer { origin.stop() }
        let (driver, result, handle) = try WebSocketDriver.connect(origin, "/echo", allowLoopback: false)
        #expect(driver == nil)
        #expect(result == .couldNotConnect)
        #expect(handle.egressDenial != nil)
    }
}
