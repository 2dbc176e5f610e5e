import Curl
import TransferModels

// A request's response as the machine follows it: the head decides what the body is (the task's, a
// redirect's to drop, a challenge's to keep, the stored one, parts, a range), the body is routed per chunk,
// and the end of the request decides what follows.

extension TransferStateMachine {
    /// Where libcurl's body bytes go, called per chunk.
    func routeBody() -> BodyRoute {
        if isWaiting { return .pause }
        switch state {
        // A redirect the delegate decides keeps its body: rejected, the 3xx and its body are the task's
        // answer, as URLSession hands them over (followed, `.discardBody` drops what was kept).
        case .followingRedirect: return decidesRedirects ? .keep : .drop
        case .receiving(.range(let answer)): return answer == .accepted ? .keep : .refuse
        default: return .keep
        }
    }

    /// Whether a request is on the wire (the states a response head or the request's end may come in).
    var isInRequest: Bool {
        switch state {
        case .requesting, .receiving, .followingRedirect, .answeringChallenge, .cutAtPartEnd: true
        case .connectionStopped, .awaitingResponseDecision, .deliveringHeldParts, .awaitingRedirectDecision,
            .awaitingChallengeDecision, .awaitingProxiedTarget, .parked, .finished:
            false
        }
    }

    /// A complete head: informational ones are reported; a range request's answer is judged; a redirect we
    /// will follow has its body dropped; a challenge waits for the request's end; the final one is delivered
    /// before its body (the stored one for a 304 to a validation), and asked about when the delegate decides.
    mutating func headComplete(_ facts: ResponseFacts) -> [Action] {
        guard isInRequest else { return [] }
        guard facts.status >= 200 else { return facts.status == 100 || facts.status == 101 ? [] : [.reportInformational] }
        if range != nil {
            state = .receiving(.range(facts.rangeAnswer))
            guard facts.isFirstAnswerOfResumedSegments else { return [.storeCookies] }
            if resume == .pending { resume = .settled }
            // Not as asked: the download starts again from 0 when the request ends.
            return facts.rangeAnswer == .accepted ? [.storeCookies, .resumeSegments] : [.storeCookies]
        }
        if let next = facts.redirect {
            state = .followingRedirect(next)
            return [.storeCookies]
        }
        if let challenge = facts.challenge {
            state = .answeringChallenge(challenge)
            return [.storeCookies]
        }
        var actions: [Action] = [.storeCookies]
        let body: ResponseBody
        if facts.status == 304 && validatesStoredResponse {
            body = .stored
            actions.append(.deliverNotModified)
        } else if facts.isMultipart {
            // Each part is a response of its own, delivered (and asked about) as it arrives.
            state = .receiving(.multipart)
            return actions + [.beginMultipart]
        } else {
            body = .network
            actions += [.deliverResponse, .beginSegmentsIfPossible]
        }
        if resume == .pending {
            resume = .settled
            actions.append(.settleResume)
        }
        if decidesResponse {
            state = .awaitingResponseDecision(body, finished: nil)  // the body is paused until the answer
            actions.append(.askAboutResponse)
        } else {
            state = .receiving(body)
        }
        return actions
    }

    /// A cache hit is answered as if its request had ended at once; with a delegate that decides about
    /// responses, it waits for the answer with nothing to pause.
    mutating func servedStoredResponse() -> [Action] {
        guard case .requesting = state else { return [] }
        state = .receiving(.stored)
        guard decidesResponse else { return [.deliverResponse] + requestEnded(.ok) }
        state = .awaitingResponseDecision(.stored, finished: .ok)
        return [.deliverResponse, .askAboutResponse]
    }

    /// The handle finished one request: the step it stopped at, a redirect to propose, a challenge to raise,
    /// or the outcome. A response being decided about keeps the result for the answer.
    mutating func requestEnded(_ result: CurlResult) -> [Action] {
        if case .awaitingResponseDecision(let body, nil) = state {
            state = .awaitingResponseDecision(body, finished: result)
            return []
        }
        if case .connectionStopped(let stop) = state {
            switch stop {
            case .challenge(let challenge): return raise(challenge)
            case .failure(let failure):
                state = .finished
                return [.fail(failure)]
            }
        }
        guard isInRequest else { return [] }
        var actions: [Action] = [.recordTransaction]
        if result.isSuccess, case .receiving(.stored) = state { actions.append(.readStoredBody) }
        if result.isSuccess, case .followingRedirect(let next) = state {
            redirects += 1
            guard redirects <= RedirectPolicy.maximumRedirects else {
                state = .finished
                let failure = TransferFailure(
                    code: URLErrorCode.httpTooManyRedirects.rawValue, curlCode: 47,
                    message: "more than \(RedirectPolicy.maximumRedirects) redirects")
                return actions + [.fail(failure)]
            }
            return actions + propose(next)
        }
        guard result.isSuccess else {
            state = .finished
            return actions + [.failRequest(result)]
        }
        if case .answeringChallenge(let challenge) = state { return actions + raise(challenge) }
        if case .receiving(.multipart) = state { actions.append(.finishMultipart) }
        state = .finished
        return actions + [.finishBody]
    }

    /// How a request of a segmented download ended: cut at its part's end is its success; a range answer
    /// that was not the range asked for says why.
    func segmentEnd(_ result: CurlResult) -> SegmentEnd {
        switch state {
        case .connectionStopped(let stop): .connectionStopped(stop)
        case .cutAtPartEnd: .completed
        case .receiving(.range(.validatorChanged)): .validatorChanged
        case .receiving(.range(.unexpected(let status))): .unexpected(status: status)
        default: result.isSuccess ? .completed : .failed(result)
        }
    }

    /// A redirect to follow: asked about when the delegate decides, or when the body is a stream (only the
    /// task layer can get it again, `needNewBodyStream`); the handle is out of the multi meanwhile.
    mutating func propose(_ next: OutgoingRequest) -> [Action] {
        if decidesRedirects || next.body.isStream {
            state = .awaitingRedirectDecision(next)
            return [.askAboutRedirect(next)]
        }
        state = .requesting
        return [.follow(next)]
    }

    /// A challenge to answer: asked when the delegate answers challenges, else the default handling's.
    mutating func raise(_ challenge: AuthenticationChallenge) -> [Action] {
        if decidesChallenges {
            state = .awaitingChallengeDecision(challenge)
            return [.askAboutChallenge(challenge)]
        }
        state = .answeringChallenge(challenge)
        return [.resolveByDefault(challenge)]
    }
}
