import Curl
import TransferModels

// The delegate's answers, and the parts of a multipart response (each asked about in turn). An answer
// that finds the machine not waiting for it is dropped: it came late, or twice.

extension TransferStateMachine {
    mutating func redirectDecided(_ disposition: RedirectDisposition) -> [Action] {
        guard case .awaitingRedirectDecision = state else { return [] }
        switch disposition {
        case .follow(let request):
            state = .requesting
            // The 3xx's body was kept while the delegate decided (`routeBody`): it is not the answer.
            return (decidesRedirects ? [.discardBody] : []) + [.follow(request)]
        case .reject:
            // The redirect response is the final one, with the body kept while the delegate decided.
            state = .finished
            return [.deliverResponse, .finishBody]
        }
    }

    mutating func challengeDecided(_ disposition: ChallengeDisposition) -> [Action] {
        guard case .awaitingChallengeDecision(let challenge) = state else { return [] }
        state = .answeringChallenge(challenge)
        return [.resolve(challenge, disposition)]
    }

    /// The answer about the response: the body goes on (to a file, for `becomeDownload`), its held parts
    /// first; a request that already ended reaches its end now.
    mutating func responseDecided(_ disposition: ResponseDisposition) -> [Action] {
        guard case .awaitingResponseDecision(let body, let finished) = state else { return [] }
        var actions: [Action] = []
        switch disposition {
        case .cancel:
            state = .finished
            return [.abort(Self.cancelled)]
        case .becomeDownload(let path):
            becameDownload = true
            actions.append(.becomeDownload(path: path))
        case .allow:
            break
        }
        if body == .multipart {
            state = .deliveringHeldParts(finished: finished)
            return actions + [.deliverHeldParts]
        }
        state = .receiving(body)
        return actions + goOn(after: finished)
    }

    /// Every held part is delivered; unless one of them is being asked about, the response goes on.
    mutating func heldPartsDelivered() -> [Action] {
        guard case .deliveringHeldParts(let finished) = state else { return [] }
        state = .receiving(.multipart)
        return goOn(after: finished)
    }

    /// A part began: the delegate that decides about responses is asked about it (not after it made the
    /// task a download, whose later parts replace the file), and the parts after it wait for the answer.
    mutating func partBegan() -> [Action] {
        let finished: CurlResult?
        switch state {
        case .receiving(.multipart): finished = nil
        case .deliveringHeldParts(let held): finished = held
        default: return []
        }
        guard decidesResponse && !becameDownload else { return [] }
        state = .awaitingResponseDecision(.multipart, finished: finished)
        return [.askAboutResponse]
    }

    private mutating func goOn(after finished: CurlResult?) -> [Action] {
        guard let finished else { return [.unpause] }
        return requestEnded(finished)
    }
}
