import SessionTasks
import TransferModels

/// `POST /v1/sessions/{id}/events/{eventId}/answer`: a client that reads its session's events (a page, a
/// long-poll, server-sent events) answers a decision event with the body a webhook would answer with
/// (`DecisionAnswer`). For a delegate in the client (no `url`) it is the only way to answer; for a
/// webhook delegate it races the webhook's answer, and the first wins.
struct DecisionAnswerRoutes {
    let sessions: SessionService
    let tasks: TaskService

    var routes: [Route] {
        [Route("POST", "/v1/sessions/{id}/events/{eventId}/answer", steps: [.authenticated, .idempotent]) { try await answer($0) }]
    }

    /// Idempotent like every POST: a retry with the same `Idempotency-Key` gets the first answer's status
    /// (a 204 stays a 204, not the 409 a second answer would get).
    ///
    /// 204: a transfer here waited and took it; 202: offered to the other nodes (taken if one still
    /// waits); 409: nobody waits for it; 404: not the tenant's session; 422: not a valid answer.
    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let answer = try request.decodeJSON(DelegateAnswer.self).validated()
        let eventId = request.parameter("eventId")
        switch try await tasks.answerDecision(answer, body: request.body, toEvent: eventId, session: session.id) {
        case .taken:
            return .noContent
        case .offeredToOtherNodes:
            return HTTPResponse(status: 202)
        case .notWaiting:
            throw Problem.conflict(
                "no transfer waits for an answer to \(eventId): it is not a decision event of this session the delegate "
                    + "implements, it was answered already, or its decisionTimeout passed (the default handling was applied)")
        case .tooLargeToOffer(let size, let limit):
            throw Problem(
                status: 413, slug: "payload-too-large", title: "Payload Too Large",
                detail: "with several nodes the answer is offered to the node running the task in a NOTIFY of at most \(limit) "
                    + "bytes; this one would take \(size)")
        }
    }
}
