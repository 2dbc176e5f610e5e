import Foundation
import TransferModels

/// An answer to a decision event given through the API, or by the session's webhook, on a node where no
/// transfer waits for it: the transfer may wait on the node running the event's task, so the answer is
/// sent to that node (`NOTIFY`, as forwarded controls are), which takes it if its transfer still waits and
/// says so back (`OfferedDecisionAnswerReply`).
public struct OfferedDecisionAnswer: Codable, Sendable, Equatable {
    /// Names the offer, for its reply.
    public var request: String
    /// The node asked: the one running the event's task.
    public var node: String
    public var session: String
    public var event: String
    /// The answer's JSON as the client sent it, parsed again by the node that takes it.
    public var body: String
    /// A webhook's answer, sent on by the node that delivered the event: a body that is not a valid answer
    /// (or none: the webhook failed) means the default handling at once, as on the node itself.
    public var fromWebhook: Bool?

    public init(request: String, node: String, session: String, event: String, body: String, fromWebhook: Bool? = nil) {
        (self.request, self.node, self.session, self.event, self.body) = (request, node, session, event, body)
        self.fromWebhook = fromWebhook
    }

    /// PostgreSQL refuses a `NOTIFY` payload of 8000 bytes or more; the size is checked before the node
    /// asked is known, so room is left for a longer node name than this one's.
    public static let maximumPayloadSize = 7900

    /// The payload as sent (too large for a `NOTIFY` past `maximumPayloadSize` bytes).
    public func payload() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}

/// Whether the node asked took an `OfferedDecisionAnswer`.
public struct OfferedDecisionAnswerReply: Codable, Sendable, Equatable {
    public var request: String
    public var taken: Bool

    public init(request: String, taken: Bool) { (self.request, self.taken) = (request, taken) }
}

extension ClusterStore {
    /// The node running the task of the decision event `eventId` of session `sessionId` while it runs (nil:
    /// no such event of that session, not a decision event, or its task is not running on a node).
    public func nodeAwaitingAnswer(toEvent eventId: String, session sessionId: String) async throws -> String? {
        let found: (type: String, node: String?)? = try await database.read { db in
            try db.row(
                """
                SELECT event.type AS type, task.node AS node FROM event JOIN task ON task.id = event.taskId
                WHERE event.id = ? AND event.sessionId = ? AND task.state = 'running'
                """, eventId, sessionId
            ).map { (try $0.decode(forColumn: "type"), try $0.decode(forColumn: "node")) }
        }
        guard let found, TaskEventType(rawValue: found.type)?.isDecision == true else { return nil }
        return found.node
    }

    /// Sends `payload` (an `OfferedDecisionAnswer`'s) to the node it names, at the commit of a transaction
    /// of its own.
    public func offer(decisionAnswer payload: String) async throws {
        try await database.write { db in db.notify(.decisionAnswers, payload) }
    }

    /// Tells the node that offered an answer whether it was taken.
    public func reply(_ reply: OfferedDecisionAnswerReply) async throws {
        let payload = String(decoding: try JSONEncoder().encode(reply), as: UTF8.self)
        try await database.write { db in db.notify(.decisionAnswerReplies, payload) }
    }
}
