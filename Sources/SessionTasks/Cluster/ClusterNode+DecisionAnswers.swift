import Foundation
import JSONCodec
import Logging
import TransferModels
import TransferStore

/// Answers to decision events across nodes. The transfer waits on the node running its task: an answer
/// given through the API on another node, or the webhook's answer received by the node delivering the
/// session's events, is sent to that node, which takes it if the transfer still waits and replies whether
/// it did.
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

    /// The session's webhook answered a decision event (or failed to) that no transfer here waits for:
    /// sent to the node running the event's task. Not awaited past the offer's time: a transfer that
    /// gets no answer applies the default handling when its `decisionTimeout` passes.
    func offerWebhookAnswer(_ answer: WebhookDecisionAnswer) async {
        do {
            guard let running = try await store.cluster.nodeAwaitingAnswer(toEvent: answer.eventId, session: answer.sessionId),
                running != membership.nodeID
            else { return }
            let offer = OfferedDecisionAnswer(
                request: ResourceID.make(prefix: "ans"), node: running, session: answer.sessionId, event: answer.eventId,
                body: String(decoding: answer.body ?? [], as: UTF8.self), fromWebhook: true)
            let payload = try offer.payload()
            guard payload.utf8.count <= OfferedDecisionAnswer.maximumPayloadSize else {
                return logger.warning(
                    "A webhook's answer to a decision event is too large to send to the node running its task",
                    metadata: ["event.id": "\(answer.eventId)", "node": "\(running)", "bytes": "\(payload.utf8.count)"])
            }
            if try await self.offer(offer, payload: payload) == nil {
                logger.notice(
                    "The node running a task did not reply to its webhook's answer in time",
                    metadata: ["event.id": "\(answer.eventId)", "node": "\(running)"])
            }
        } catch {
            logger.warning(
                "Sending a webhook's answer to another node failed", metadata: ["event.id": "\(answer.eventId)", "error": "\(error)"])
        }
    }

    /// An answer another node offers this one: taken when a transfer here waits for it (the event of that
    /// session), parsed as the node that offered it parsed it, and the reply sent back.
    func takeOffered(_ payload: String) async {
        guard let offered = try? JSONDecoder().decode(OfferedDecisionAnswer.self, from: Data(payload.utf8)),
            offered.node == membership.nodeID
        else { return }
        let decisions = tasks.questions.decisions
        let taken: Bool
        if let answer = try? StrictJSONDecoder().decode(DelegateAnswer.self, from: Array(offered.body.utf8)) {
            taken = decisions.take(answer, toEvent: offered.event, session: offered.session)
        } else {
            // Through the API the answer was checked before it was offered; a webhook's is not.
            taken = offered.fromWebhook == true && decisions.decline(event: offered.event, session: offered.session)
        }
        do {
            try await store.cluster.reply(OfferedDecisionAnswerReply(request: offered.request, taken: taken))
        } catch {
            logger.warning(
                "Replying to an offered decision answer failed", metadata: ["event.id": "\(offered.event)", "error": "\(error)"])
        }
    }
}
