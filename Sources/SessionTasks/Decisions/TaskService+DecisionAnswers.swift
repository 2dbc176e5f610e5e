import Foundation
public import TransferModels
import TransferStore

/// What became of an answer to a decision event given through the API.
public enum DecisionAnswerOutcome: Sendable, Equatable {
    /// A transfer on this node waited for it and took it.
    case taken
    /// No transfer here waits for it; it was offered to the other nodes sharing the database, and the one
    /// whose transfer still waits takes it.
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
    /// tenant's). The first answer wins, the webhook's or this one. The transfer runs on one node: an
    /// answer made on another is offered to every node, so with several nodes an answer is refused when
    /// its offer could not be sent, whether or not a transfer here waits (the same answer is taken or
    /// refused the same way on every node).
    public func answerDecision(
        _ answer: DelegateAnswer, body: [UInt8], toEvent eventId: String, session sessionId: String
    ) async throws -> DecisionAnswerOutcome {
        guard let node else {
            return decisions.take(answer, toEvent: eventId, session: sessionId) ? .taken : .notWaiting
        }
        let offer = OfferedDecisionAnswer(
            node: node.membership.nodeID, session: sessionId, event: eventId, body: String(decoding: body, as: UTF8.self))
        let payload = try offer.payload()
        guard payload.utf8.count <= OfferedDecisionAnswer.maximumPayloadSize else {
            return .tooLargeToOffer(size: payload.utf8.count, limit: OfferedDecisionAnswer.maximumPayloadSize)
        }
        if decisions.take(answer, toEvent: eventId, session: sessionId) { return .taken }
        try await store.cluster.offer(decisionAnswer: payload)
        return .offeredToOtherNodes
    }
}
