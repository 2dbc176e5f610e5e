import Foundation

/// A message a webSocket task received, as `GET /v1/tasks/{id}/messages` and
/// `webSocketTask.didReceiveMessage` give it: its place in the task's order (1, 2, 3…), and
/// `URLSessionWebSocketTask.Message`'s two cases — `string`, or `data` as base64.
public struct WebSocketMessageObject: Encodable, Sendable, Hashable {
    public var sequence: Int64
    public var string: String?
    public var data: [UInt8]?

    public init(sequence: Int64, string: String? = nil, data: [UInt8]? = nil) {
        self.sequence = sequence
        self.string = string
        self.data = data
    }

    /// Bytes of the message (UTF-8 for a string).
    public var length: Int { string?.utf8.count ?? data?.count ?? 0 }

    enum CodingKeys: String, CodingKey { case sequence, string, data }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sequence, forKey: .sequence)
        if let string { try c.encode(string, forKey: .string) }
        if let data { try c.encode(Data(data).base64EncodedString(), forKey: .data) }
    }
}

/// `webSocketTask.didOpenWithProtocol`: `{"task", "protocol"}` — the subprotocol the server chose, or null.
public struct WebSocketOpenEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var `protocol`: String?

    enum CodingKeys: String, CodingKey { case task, `protocol` }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(task, forKey: .task)
        try c.encode(`protocol`, forKey: .protocol)
    }
}

/// `webSocketTask.didCloseWith`: `{"task", "closeCode", "reason"}` (reason null when there was none).
public struct WebSocketCloseEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var closeCode: Int
    public var reason: String?

    enum CodingKeys: String, CodingKey { case task, closeCode, reason }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(task, forKey: .task)
        try c.encode(closeCode, forKey: .closeCode)
        try c.encode(reason, forKey: .reason)
    }
}

/// `webSocketTask.didReceiveMessage` (beyond URLSession, whose `receive` is a call, not a delegate method;
/// sent only to a delegate with `deliverData`): `{"task", "message", "length"}` — the message, or null when
/// it is larger than `deliverDataMaxBytes` (then `GET /v1/tasks/{id}/messages` has it).
public struct WebSocketMessageEventData: Encodable, Sendable {
    public var task: TaskSummary
    public var sequence: Int64
    public var length: Int
    public var message: WebSocketMessageObject?

    enum CodingKeys: String, CodingKey { case task, sequence, length, message }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(task, forKey: .task)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(length, forKey: .length)
        try c.encode(message, forKey: .message)
    }
}
