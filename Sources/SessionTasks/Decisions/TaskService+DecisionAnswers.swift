import Foundation
public import TransferModels
import TransferStore

/// What became of an answer to a decision event given through the API.
public enum DecisionAnswerOutcome: Sendable, Equatable {
    /// A transfer waited for it and took it (on this node, or on the node running the task).
    case taken
    /// Several nodes: sent to the node running the event's task, which did not reply in time; it takes the
    /// answer if its transfer still waits.
    case offeredToOtherNodes
    /// No transfer waits for it: not a decision event of this session, answered already, or its
    /// `decisionTimeout` passed (the default handling was applied).
    case notWaiting
    /// With several nodes, an answer whose offer (`size` bytes) would not fit a `NOTIFY` (`limit` at most).
    case tooLargeToOffer(size: Int, limit: Int)
}

extension TaskService {
    /// `POST /v1/sessions/{id}/events/{eventId}/answer`: hands `answer` (parsed from `body`) to the transfer
    /// waiting for the decision event `eventId` of session `sessionId` (the caller checked it is the
    /// tenant's). The first answer wins, the webhook's or this one. With several nodes the transfer waits
    /// on the node running the event's task: an answer made on another is sent there, so it is refused
    /// when its offer could not be sent, whether or not a transfer here waits (the same answer gets the
    /// same status on every node).
    public func answerDecision(
        _ answer: DelegateAnswer, body: [UInt8], toEvent eventId: String, session sessionId: String
    ) async throws -> DecisionAnswerOutcome {
        guard let node else {
            return decisions.take(answer, toEvent: eventId, session: sessionId) ? .taken : .notWaiting
        }
        var offer = OfferedDecisionAnswer(
            request: ResourceID.make(prefix: "ans"), node: node.membership.nodeID, session: sessionId, event: eventId,
            body: String(decoding: body, as: UTF8.self))
        let size = try offer.payload().utf8.count
        guard size <= OfferedDecisionAnswer.maximumPayloadSize else {
            return .tooLargeToOffer(size: size, limit: OfferedDecisionAnswer.maximumPayloadSize)
        }
        if decisions.take(answer, toEvent: eventId, session: sessionId) { return .taken }
        guard let running = try await store.cluster.nodeAwaitingAnswer(toEvent: eventId, session: sessionId),
            running != node.membership.nodeID
        else { return .notWaiting }
        offer.node = running
        switch try await node.offer(offer, payload: try offer.payload()) {
        case true?: return .taken
        case false?: return .notWaiting
        case nil: return .offeredToOtherNodes
        }
    }
}
