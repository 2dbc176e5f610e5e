public import Foundation
public import JSONCodec

/// The API's Event object, as polling, server-sent events and webhooks all show it:
/// `{"data":{…},"id":"evt_…","sequence":17,"sessionId":"ses_…","taskId":"tsk_…"|null,"timestamp":"…","type":"…"}`.
/// `data` is the stored JSON text, embedded as it is (it was written by `DelegateEvent` already).
public struct EventObject: Encodable, Sendable {
    public var data: EncodedJSON
    public var id: String
    public var sequence: Int64
    public var sessionId: String
    public var taskId: String?
    public var timestamp: Date
    public var type: TaskEventType

    public init(
        data: EncodedJSON, id: String, sequence: Int64, sessionId: String, taskId: String?, timestamp: Date,
        type: TaskEventType
    ) {
        self.data = data
        self.id = id
        self.sequence = sequence
        self.sessionId = sessionId
        self.taskId = taskId
        self.timestamp = timestamp
        self.type = type
    }

    enum CodingKeys: String, CodingKey { case data, id, sequence, sessionId, taskId, timestamp, type }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(data, forKey: .data)
        try c.encode(id, forKey: .id)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(sessionId, forKey: .sessionId)
        try c.encode(taskId, forKey: .taskId)  // null for session events
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(type, forKey: .type)
    }

    /// What `WireJSON.encode(self)` writes, written directly: an event is encoded for every webhook and
    /// every page of events, and a flat object of known members needs no `Encoder`.
    public func encodedJSON() -> [UInt8] {
        var writer = JSONObjectWriter(capacity: data.text.utf8.count + 256)
        writer.member("data", json: data)
        writer.member("id", string: id)
        writer.member("sequence", integer: sequence)
        writer.member("sessionId", string: sessionId)
        writer.member("taskId", string: taskId)  // null for session events
        writer.member("timestamp", timestamp: timestamp)
        writer.member("type", string: type.rawValue)
        return writer.finish()
    }
}
