import Foundation
import TransferModels

/// An answer to a decision event given through the API on a node where no transfer waits for it: the
/// transfer may run on another node sharing the database, so the answer is offered to all of them
/// (`NOTIFY`), and the one whose transfer still waits takes it. Nobody answers back: the first answer wins
/// wherever it comes from, and the client reads the outcome in the task's events.
public struct OfferedDecisionAnswer: Codable, Sendable, Equatable {
    /// The node that offers it (it does not take its own offer: nothing waited there).
    public var node: String
    public var session: String
    public var event: String
    /// The answer's JSON as the client sent it, parsed again by the node that takes it.
    public var body: String

    public init(node: String, session: String, event: String, body: String) {
        (self.node, self.session, self.event, self.body) = (node, session, event, body)
    }

    /// PostgreSQL refuses a `NOTIFY` payload of 8000 bytes or more.
    public static let maximumPayloadSize = 7999

    /// The payload as sent (too large for a `NOTIFY` past `maximumPayloadSize` bytes).
    public func payload() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}

extension ClusterStore {
    /// Offers `payload` (an `OfferedDecisionAnswer`'s) to every node, at the commit of a transaction of its own.
    public func offer(decisionAnswer payload: String) async throws {
        try await database.write { db in db.notify(.decisionAnswers, payload) }
    }
}
