internal import Dispatch
internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// What the receiver's threads share. Each thread holds a strong reference, so the wake pipe stays open
/// until the last of them has returned.
final class WebhookReceiverCore: Sendable {
    struct State: ConnectionCounting {
        var requests: [WebhookReceiver.Request] = []
        var script: [WebhookReceiver.Reply] = []
        var defaultReply = WebhookReceiver.Reply.ok
        var responder: (@Sendable (WebhookReceiver.Request) -> WebhookReceiver.Reply?)?
        var accepted = 0
        var open = 0
        var stopped = false
    }

    let wake: FixtureWakePipe
    let threads = DispatchGroup()
    let state = Locked(State())

    init(wake: FixtureWakePipe) { self.wake = wake }

    func acceptLoop(listener: Int32) {
        AcceptLoop.run(
            listener: listener, wake: self.wake, threads: self.threads, name: "WebhookReceiver",
            admit: { self.state.withLock { $0.admit() } },
            release: { self.state.withLock { $0.open -= 1 } },
            serve: { socket, id in self.serve(socket, id: id) })
    }

    /// Serves one connection's requests in sequence until either side closes or the receiver stops.
    private func serve(_ socket: FixtureSocket, id: Int) {
        do {
            while try self.exchange(on: socket, connectionID: id) {}
        } catch .malformed(let status, let reason) {
            let response = FixtureResponse.text(status, "\(reason)\n", headers: [("Connection", "close")])
            try? socket.write(response.head(closing: true) + response.body)
            socket.closeAfterEarlyAnswer()
        } catch {
            // Stopped, reset, timed out: nothing to answer.
        }
    }

    /// Reads one request (bodies framed by `Content-Length`, as webhook senders do), records it, answers.
    private func exchange(on socket: FixtureSocket, connectionID: Int) throws(FixtureSocketError) -> Bool {
        guard let head = try socket.readHead(limit: 65_536, idleTimeout: 60) else { return false }
        let receivedAt = Date()
        let request = try FixtureRequest.parse(head: head)
        if request.header("Transfer-Encoding") != nil {
            throw .malformed(status: 411, reason: "the receiver reads Content-Length bodies only")
        }
        guard let length = Int(request.header("Content-Length") ?? "0"), length >= 0, length <= 16 << 20 else {
            throw .malformed(status: 400, reason: "bad Content-Length")
        }
        if length > 0, request.header("Expect")?.lowercased() == "100-continue" {
            try socket.write("HTTP/1.1 100 Continue\r\n\r\n")
        }
        var body: [UInt8] = []
        body.reserveCapacity(length)
        try socket.readExactly(length) { body += $0 }
        let recorded = WebhookReceiver.Request(
            method: request.method, path: request.path, headers: request.headers, body: body, receivedAt: receivedAt,
            connectionID: connectionID)
        let reply = self.state.withLock { state -> WebhookReceiver.Reply in
            state.requests.append(recorded)
            if let reply = state.responder?(recorded) { return reply }
            return state.script.isEmpty ? state.defaultReply : state.script.removeFirst()
        }
        if reply.delay > 0 { try socket.pause(seconds: reply.delay) }
        let response = FixtureResponse(status: reply.status, headers: reply.headers, body: reply.body)
        return try socket.send(response, to: request) == .keepAlive
    }
}
