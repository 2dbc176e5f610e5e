public import Foundation
import JSONCodec

/// A row of `event`: one delegate callback, in the session's gap-free `sequence`.
public struct EventRecord: Codable, Sendable, Hashable {
    public var rowid: Int64?
    public var id: String
    public var sessionId: String
    public var sequence: Int64
    public var taskId: String?
    public var type: TaskEventType
    public var timestamp: Date
    /// The delegate method's parameters as JSON text.
    public var data: String
    /// When a 2xx acknowledged the webhook (nil: not yet, or no delegate URL).
    public var deliveredAt: Date?
    public var deliveryAttempts: Int
    public var nextAttemptAt: Date?

    public init(id: String, sessionId: String, sequence: Int64, taskId: String?, type: TaskEventType, timestamp: Date, data: String) {
        self.id = id
        self.sessionId = sessionId
        self.sequence = sequence
        self.taskId = taskId
        self.type = type
        self.timestamp = timestamp
        self.data = data
        self.deliveryAttempts = 0
    }

    /// The API's view of the event, its `data` as stored.
    public var object: EventObject {
        EventObject(
            data: EncodedJSON(data), id: id, sequence: sequence, sessionId: sessionId, taskId: taskId,
            timestamp: timestamp, type: type)
    }
}
