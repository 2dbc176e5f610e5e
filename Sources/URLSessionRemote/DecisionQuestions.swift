internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// A decision event's question put to the delegate, and its return value as the service's
/// `DecisionAnswer` JSON.
///
/// Nonisolated functions: the Foundation objects made for the delegate (challenges, cached responses)
/// and the ones it returns stay inside one call; only the answer's bytes go back to the session's actor.
enum DecisionQuestions {
    /// `task.willPerformHTTPRedirection`: nil rejects, the proposed request follows, another one follows
    /// with it.
    static func redirection(
        _ event: WireEvent, task: RemoteURLSessionTask, session: RemoteURLSession?, delegate: (any RemoteURLSessionDelegate)?
    ) async -> Data {
        guard let proposed = event.data.request?.urlRequest, let response = event.data.response?.httpURLResponse,
            let session, let delegate
        else { return json(["disposition": "follow"]) }
        let chosen = await delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: proposed)
        guard let chosen else { return json(["disposition": "reject"]) }
        if chosen == proposed { return json(["disposition": "follow"]) }
        return json(["disposition": "follow", "request": chosen.wireObject])
    }

    /// `task.didReceiveChallenge`.
    static func taskChallenge(
        _ event: WireEvent, task: RemoteURLSessionTask, session: RemoteURLSession?, delegate: (any RemoteURLSessionDelegate)?
    ) async -> Data {
        guard let challenge = event.data.challenge?.authenticationChallenge, let session, let delegate else {
            return json(["disposition": "performDefaultHandling"])
        }
        let (disposition, credential) = await delegate.urlSession(session, task: task, didReceive: challenge)
        return json(ChallengeAnswer.object(disposition, credential, for: challenge))
    }

    /// `session.didReceiveChallenge`: always the session's delegate, as in URLSession.
    static func sessionChallenge(
        _ event: WireEvent, session: RemoteURLSession?, delegate: (any RemoteURLSessionDelegate)?
    ) async -> Data {
        guard let challenge = event.data.challenge?.authenticationChallenge, let session, let delegate else {
            return json(["disposition": "performDefaultHandling"])
        }
        let (disposition, credential) = await delegate.urlSession(session, didReceive: challenge)
        return json(ChallengeAnswer.object(disposition, credential, for: challenge))
    }

    /// `dataTask.didReceiveResponse`: the delegate hears the response whether or not it decides; the
    /// answer is sent only when it does.
    static func response(
        _ event: WireEvent, dataTask: RemoteURLSessionDataTask, session: RemoteURLSession?,
        delegate: (any RemoteURLSessionDelegate)?
    ) async -> Data {
        guard let response = event.data.response?.httpURLResponse, let session, let delegate else {
            return json(["disposition": "allow"])
        }
        let disposition = await delegate.urlSession(session, dataTask: dataTask, didReceive: response)
        switch disposition {
        case .cancel: return json(["disposition": "cancel"])
        case .becomeDownload: return json(["disposition": "becomeDownload"])
        default: return json(["disposition": "allow"])
        }
    }

    /// `dataTask.willCacheResponse`: nil is `notAllowed`; a response's `storagePolicy` (and `userInfo`,
    /// when it is JSON) is stored.
    static func caching(
        _ event: WireEvent, dataTask: RemoteURLSessionDataTask, session: RemoteURLSession?,
        delegate: (any RemoteURLSessionDelegate)?
    ) async -> Data {
        guard let proposal = event.data.proposedResponse, let response = proposal.response.httpURLResponse, let session,
            let delegate
        else { return SessionCore.defaultAnswer(to: event) }
        let proposed = CachedURLResponse(
            response: response, data: proposal.data.flatMap { Data(base64Encoded: $0) } ?? Data(), userInfo: nil,
            storagePolicy: proposal.storagePolicy == "allowedInMemoryOnly" ? .allowedInMemoryOnly : .allowed)
        guard let chosen = await delegate.urlSession(session, dataTask: dataTask, willCacheResponse: proposed) else {
            return json(["disposition": "notAllowed"])
        }
        var object: [String: Any] = [:]
        switch chosen.storagePolicy {
        case .allowed: object["disposition"] = "allowed"
        case .allowedInMemoryOnly: object["disposition"] = "allowedInMemoryOnly"
        default: object["disposition"] = "notAllowed"
        }
        if let userInfo = chosen.userInfo {
            let keyed = Dictionary(userInfo.map { ("\($0.key.base)", $0.value) }, uniquingKeysWith: { first, _ in first })
            if JSONSerialization.isValidJSONObject(keyed) { object["userInfo"] = keyed }
        }
        return json(object)
    }

    /// `task.willBeginDelayedRequest`.
    static func delayedRequest(
        _ event: WireEvent, task: RemoteURLSessionTask, session: RemoteURLSession?, delegate: (any RemoteURLSessionDelegate)?
    ) async -> Data {
        guard let request = event.data.request?.urlRequest, let session, let delegate else {
            return json(["disposition": "continueLoading"])
        }
        let (disposition, newRequest) = await delegate.urlSession(session, task: task, willBeginDelayedRequest: request)
        switch disposition {
        case .cancel:
            return json(["disposition": "cancel"])
        case .useNewRequest:
            // URLSession needs the new request; without one the original begins.
            guard let newRequest else { return json(["disposition": "continueLoading"]) }
            return json(["disposition": "useNewRequest", "request": newRequest.wireObject])
        default:
            return json(["disposition": "continueLoading"])
        }
    }

    static func json(_ object: [String: Any]) -> Data {
        // Only a delegate's userInfo could fail, and it is checked first.
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
    }
}
