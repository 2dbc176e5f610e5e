import Foundation
import JSONCodec
import SessionTasks
import TransferModels

/// `/v1/tasks/{id}/messages` and `/v1/tasks/{id}/ping` of webSocket tasks: `URLSessionWebSocketTask`'s
/// `send`, `receive` and `sendPing(pongReceiveHandler:)`.
struct WebSocketRoutes {
    let tasks: TaskService
    let streams: StreamQuota

    var routes: [Route] {
        [
            Route("POST", "/v1/tasks/{id}/messages", steps: [.authenticated, .idempotent]) { try await send($0) },
            Route("GET", "/v1/tasks/{id}/messages", steps: [.authenticated]) { try await receive($0) },
            Route("POST", "/v1/tasks/{id}/ping", steps: [.authenticated, .idempotent]) { try await ping($0) },
        ]
    }

    /// How long a send or a ping made while the task's connection is being made waits for it to open.
    static let openTimeout: Duration = .seconds(30)

    /// `send`: exactly one of `string` or `data` (base64); answered once the message is written to the
    /// connection (`send`'s completion handler), 204. Made before the connection opened, it waits for it.
    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        struct Message: Decodable { var string: String?, data: String? }
        let body = try request.decodeJSON(Message.self)
        let (task, channel) = try await tasks.connections.webSocketChannel(
            of: request.parameter("id"), tenant: request.tenant, waiting: Self.openTimeout)
        let message: WebSocketMessageObject
        let field: String
        switch (body.string, body.data) {
        case (let text?, nil): (message, field) = (WebSocketMessageObject(sequence: 0, string: text), "string")
        case (nil, let encoded?):
            guard let bytes = Data(base64Encoded: encoded), bytes.base64EncodedString() == encoded else {
                throw Problem.invalidValue("data", "must be standard base64 with padding")
            }
            (message, field) = (WebSocketMessageObject(sequence: 0, data: Array(bytes)), "data")
        default:
            throw Problem.invalidValue("string", "give exactly one of \"string\" or \"data\"")
        }
        let maximum = task.webSocket?.maximumMessageSize ?? WebSocketTaskOptions.defaultMaximumMessageSize
        guard message.length <= maximum else {
            throw Problem(
                status: 413, slug: "payload-too-large", title: "Payload Too Large",
                detail: "the message is \(message.length) bytes; the task's maximumMessageSize is \(maximum)", field: field)
        }
        guard let channel, await channel.send(message) == .sent else { throw Self.notOpen(task.state) }
        return .noContent
    }

    /// `receive`: the messages after `after` (which acknowledges those up to it), waiting up to `wait`
    /// seconds for the first. `nextCursor` is the `after` of the next call; null once the connection
    /// ended and every message was read.
    private func receive(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameter("id")
        let after = try request.integerQuery("after", default: Int64(0), 0...Int64.max)
        let limit = try request.integerQuery("limit", default: 100, 1...1000)
        let wait = try TaskRoutes.waitDuration(request)
        var (task, channel) = try await tasks.connections.webSocketChannel(of: id, tenant: request.tenant)
        if channel?.hasRelay == true { throw Self.relayHoldsMessages }
        if let wait, channel?.messages(after: after, limit: 1)?.items.isEmpty ?? true {
            try await streams.holding(tenant: request.tenant) {
                let deadline = ContinuousClock.now + wait
                // Not connected yet: the channel appears when the upgrade is accepted.
                (task, channel) = try await tasks.connections.webSocketChannel(of: id, tenant: request.tenant, waiting: wait)
                if let channel, ContinuousClock.now < deadline {
                    await channel.waitForMessages(after: after, timeout: deadline - ContinuousClock.now)
                }
            }
        }
        var page: (items: [WebSocketMessageObject], state: WebSocketConnectionState) = ([], task.state == .completed ? .closed : .open)
        if let channel {
            // A relay that attached meanwhile holds the buffer: nothing is acknowledged or read twice.
            guard let read = channel.messages(after: after, limit: limit) else { throw Self.relayHoldsMessages }
            page = read
        }
        let next = page.items.last?.sequence ?? after
        let ended = page.items.isEmpty && page.state == .closed
        return try .json(MessagePage(items: page.items, nextCursor: ended ? nil : String(next)))
    }

    /// `sendPing(pongReceiveHandler:)`: answered when the pong arrives (204), or 504 after `timeout`
    /// seconds (default 10, at most 60).
    private func ping(_ request: HTTPRequest) async throws -> HTTPResponse {
        let seconds = try request.integerQuery("timeout", default: Int64(10), 1...60)
        let (task, channel) = try await tasks.connections.webSocketChannel(
            of: request.parameter("id"), tenant: request.tenant, waiting: Self.openTimeout)
        guard let channel else { throw Self.notOpen(task.state) }
        switch await channel.sendPing(timeout: .seconds(seconds)) {
        case .pong: return .noContent
        case .notOpen: throw Self.notOpen(task.state)
        case .timedOut:
            throw Problem(status: 504, slug: "pong-timeout", title: "Gateway Timeout", detail: "no pong within \(seconds) seconds")
        }
    }

    /// `GET /messages` while a relay (`GET /socket`) holds the task's received messages.
    static let relayHoldsMessages = Problem.conflict(
        "a relay (GET /v1/tasks/{id}/socket) takes this task's received messages while it is attached; they are read there")

    private static func notOpen(_ state: TaskState) -> Problem {
        .conflict("the task's WebSocket connection is not open (the task is \(state.rawValue), or its connection is closing)")
    }
}

/// A page of received messages.
struct MessagePage: Encodable {
    var items: [WebSocketMessageObject]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey { case items, nextCursor }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items, forKey: .items)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}
