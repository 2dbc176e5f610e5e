import Foundation
import Logging
public import TransferEngine
import TransferModels
import TransferStore

/// Where a decision event's answer comes from: the webhook's 2xx body, or nil (no answer in time, a
/// non-2xx answer, no delegate URL) — then the default handling applies, as if the delegate did not
/// implement the method.
public typealias DecisionAnswerSource = @Sendable (_ eventId: String, _ timeout: Duration) async -> [UInt8]?

extension TaskRunner {
    /// Connects the decision events to whatever delivers them (the webhook dispatcher).
    public func answerDecisions(with source: @escaping DecisionAnswerSource) {
        decisionSource.withLock { $0 = source }
    }

    /// Appends a decision event, waits for its answer and hands the result to `resolve` — off the engine's
    /// loop thread, so one waiting task never holds up another.
    func decide(_ event: PendingEvent, timeout: Duration, resolve: @escaping @Sendable ([UInt8]?) async -> Void) {
        let eventId = event.id ?? ResourceID.make(prefix: "evt")
        var event = event
        event.id = eventId
        pending.withLock { $0.events.append(event) }
        doorbell.ring(.events)
        let source = decisionSource.withLock { $0 }
        Task {
            let answer = await source?(eventId, timeout)
            await resolve(answer)
        }
    }

    // MARK: task.willPerformHTTPRedirection

    public func transfer(_ transfer: TransferID, asksToRedirect response: ResponseHead, to request: OutgoingRequest) {
        let id = transfer.taskId
        guard let task = active.withLock({ $0[id] }), let base = task.record.originalRequest else {
            return engine.resolveRedirect(transfer, .follow(request))
        }
        let current = pending.withLock { $0.responses[id]?.currentRequest?.url } ?? base.url
        let head = HTTPResponseSnapshot(url: current, statusCode: response.statusCode, headerLines: response.fields)
        let proposed = RequestSnapshots.snapshot(of: request, basedOn: base)
        decide(task.event(.redirect(head, proposed)), timeout: task.decisionTimeout) { [self] answer in
            engine.resolveRedirect(transfer, redirectDisposition(answer, proposed: request, task: task))
        }
    }

    /// `{"disposition": "follow"}` (the proposed request), `{"disposition": "follow", "request": {...}}`
    /// (the delegate's own), `{"disposition": "reject"}`; anything else follows, as URLSession does without
    /// the method.
    func redirectDisposition(_ answer: [UInt8]?, proposed: OutgoingRequest, task: ActiveTask) -> RedirectDisposition {
        struct Answer: Decodable {
            var disposition: String
            var request: URLRequestInput?
        }
        guard let answer, let decoded = try? StrictJSONDecoder().decode(Answer.self, from: answer) else { return .follow(proposed) }
        switch decoded.disposition {
        case "reject":
            return .reject
        case "follow":
            guard let input = decoded.request else { return .follow(proposed) }
            do {
                let snapshot = try input.validated(kind: .data, session: task.configuration, allowedSchemes: allowedSchemes)
                return .follow(OutgoingRequest(
                    url: snapshot.url, method: snapshot.httpMethod,
                    headers: Self.mergedHeaders(request: snapshot.allHTTPHeaderFields, session: task.configuration.httpAdditionalHeaders),
                    body: snapshot.httpBody.map { .bytes(Array($0)) } ?? .none))
            } catch {
                logger.warning("A redirect decision's request is invalid; following the proposed one",
                               metadata: ["task.id": "\(task.record.id)", "error": "\(error)"])
                return .follow(proposed)
            }
        default:
            return .follow(proposed)
        }
    }

    // MARK: dataTask.didReceiveResponse

    public func transfer(_ transfer: TransferID, asksAbout response: ResponseHead, for request: OutgoingRequest) {
        let id = transfer.taskId
        guard let task = active.withLock({ $0[id] }) else { return engine.resolveResponse(transfer, .allow) }
        let snapshot = HTTPResponseSnapshot(url: request.url, statusCode: response.statusCode, headerLines: response.fields)
        decide(task.event(.response(snapshot)), timeout: task.decisionTimeout) { [self] answer in
            engine.resolveResponse(transfer, await responseDisposition(answer, task: task))
        }
    }

    /// `allow` | `cancel` | `becomeDownload` (data tasks; the body then goes to a file, and
    /// `dataTask.didBecomeDownloadTask` comes first); anything else allows, as URLSession does without
    /// the method.
    func responseDisposition(_ answer: [UInt8]?, task: ActiveTask) async -> ResponseDisposition {
        struct Answer: Decodable { var disposition: String }
        guard let answer, let decoded = try? StrictJSONDecoder().decode(Answer.self, from: answer) else { return .allow }
        switch decoded.disposition {
        case "cancel":
            return .cancel
        case "becomeDownload" where task.record.kind == .data:
            let id = task.record.id
            do {
                try await store.becomeDownload(taskId: id)
            } catch {
                logger.error("Making a data task a download failed", metadata: ["task.id": "\(id)", "error": "\(error)"])
                return .allow
            }
            let path = newPartialPath(of: id)
            let became = active.withLock { active -> PendingEvent? in
                guard var current = active[id] else { return nil }
                let before = current.summary
                current.record.kind = .download
                current.partialPath = path
                active[id] = current
                return PendingEvent(sessionId: current.record.sessionId, summary: before, payload: .becameDownload(current.summary))
            }
            guard let became else { return .allow }
            pending.withLock { $0.events.append(became) }
            return .becomeDownload(path: path)
        default:
            return .allow
        }
    }

    // MARK: task.didReceiveChallenge

    public func transfer(_ transfer: TransferID, asksAbout challenge: AuthenticationChallenge) {
        let id = transfer.taskId
        guard let task = active.withLock({ $0[id] }), let method = task.challengeMethod else {
            return engine.resolveChallenge(transfer, .performDefaultHandling)
        }
        let head = challenge.failureResponse
        let data = ChallengeEventData(
            task: method == .taskDidReceiveChallenge ? task.summary : nil, host: challenge.host, port: challenge.port, protocol: challenge.protocol,
            realm: challenge.realm, authenticationMethod: "NSURLAuthenticationMethodHTTP\(challenge.scheme.rawValue)",
            previousFailureCount: challenge.previousFailureCount,
            failureResponse: HTTPResponseSnapshot(url: challenge.request.url, statusCode: head.statusCode, headerLines: head.fields))
        decide(task.event(.challenge(data, method)), timeout: task.decisionTimeout) { [self] answer in
            engine.resolveChallenge(transfer, Self.challengeDisposition(answer))
        }
    }

    /// `useCredential` with `{"user", "password", "persistence"}`, `performDefaultHandling`,
    /// `cancelAuthenticationChallenge`, `rejectProtectionSpace`; anything else is the default handling.
    /// The credential is used for this task only and never written anywhere.
    static func challengeDisposition(_ answer: [UInt8]?) -> ChallengeDisposition {
        struct Credential: Decodable {
            var user: String
            var password: String
            var persistence: String?
        }
        struct Answer: Decodable {
            var disposition: String
            var credential: Credential?
        }
        guard let answer, let decoded = try? StrictJSONDecoder().decode(Answer.self, from: answer) else {
            return .performDefaultHandling
        }
        switch decoded.disposition {
        case "useCredential":
            guard let credential = decoded.credential else { return .performDefaultHandling }
            return .useCredential(user: credential.user, password: credential.password)
        case "cancelAuthenticationChallenge": return .cancelAuthenticationChallenge
        case "rejectProtectionSpace": return .rejectProtectionSpace
        default: return .performDefaultHandling
        }
    }

    /// Schemes a substituted request may use: http and https, plus what the operator enabled.
    var allowedSchemes: Set<String> { Set(["http", "https"] + configuration.engine.extraProtocols) }
}
