import Foundation
import JSONCodec
import Logging
import TransferModels
import TransferStore

/// Answers to decision events across nodes. The transfer waits on the node running its task: an answer
/// given through the API on another node is sent to that node, which takes it if the transfer still waits
/// and replies whether it did.
extension ClusterNode {
    /// How long an offered answer waits for the running node's reply before the caller is told it was
    /// offered (202) rather than taken (204) or refused (409).
    static let offerTimeout: Duration = .seconds(3)

    /// What became of an answer offered to `target`: true taken, false refused, nil no reply in time.
    func offer(_ answer: OfferedDecisionAnswer, payload: String) async throws -> Bool? {
        // Subscribed before sending: the reply cannot come before the stream exists.
        let replies = store.cluster.offeredDecisionAnswerReplies.subscribe()
        try await store.cluster.offer(decisionAnswer: payload)
        let request = answer.request
        return await firstReply(OfferedDecisionAnswerReply.self, on: replies, within: Self.offerTimeout) {
            $0.request == request
        }?.taken
    }

    /// An answer another node offers this one: taken when a transfer here waits for it (the event of that
    /// session), parsed as the node that offered it parsed it, and the reply sent back.
    func takeOffered(_ payload: String) async {
        guard let offered = try? JSONDecoder().decode(OfferedDecisionAnswer.self, from: Data(payload.utf8)),
            offered.node == membership.nodeID
        else { return }
        let answer = try? StrictJSONDecoder().decode(DelegateAnswer.self, from: Array(offered.body.utf8))
        let taken = answer.map { tasks.questions.decisions.take($0, toEvent: offered.event, session: offered.session) } ?? false
        do {
            try await store.cluster.reply(OfferedDecisionAnswerReply(request: offered.request, taken: taken))
        } catch {
            logger.warning(
                "Replying to an offered decision answer failed", metadata: ["event.id": "\(offered.event)", "error": "\(error)"])
        }
    }
}
