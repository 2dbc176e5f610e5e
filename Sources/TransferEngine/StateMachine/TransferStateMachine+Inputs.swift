import Curl
import TransferModels

// What a `TransferStateMachine` is told and what it answers: the inputs (libcurl's callbacks as the
// `Transfer` sees them, the delegate's decisions, the scheduler's events) and the actions its owner
// carries out, in order. An input that does not fit the state (a decision nobody asked for, a late event
// of a request already replaced) returns no action and leaves the state alone, as the scheduler used to
// drop a command whose transfer was not waiting for it.

extension TransferStateMachine {
    enum Input {
        /// The handle is set up for a request: the first, a redirect's, one sent again, a range.
        case requestPrepared
        /// The next request of a segmented download asks for this range (set before `requestPrepared`).
        case rangeAssigned(Range<Int64>)
        /// The download starts again from 0 with its request, unsegmented (its representation changed).
        case startedAgainFromZero
        /// A cache hit: the stored response is the answer, no request is sent.
        case storedResponseServed
        /// libcurl completed a response head (an informational one, or a final one).
        case headComplete(ResponseFacts)
        /// A segmented download's response reached the end of its part: the rest is another's.
        case cutAtPartEnd
        /// The transfer refused bytes (libcurl then ends the request with an error).
        case bodyRefused(Refusal)
        /// A part of a multipart response began (it has been delivered as the response).
        case partBegan
        /// The parts held while the delegate decided have been delivered.
        case heldPartsDelivered
        /// The connection was vetted before the request left, and stopped (`curlConnectionReady`).
        case connectionStopped(ConnectionStop)
        /// libcurl ended the request with this CURLcode.
        case requestEnded(CurlResult)
        /// libcurl ended a request of a segmented download (a range, or the primary's first response).
        case segmentRequestEnded(CurlResult)
        /// A challenge to answer: of a response, of a connection, or the next offer after a rejected one.
        case challengeRaised(AuthenticationChallenge)
        case redirectDecided(RedirectDisposition)
        case responseDecided(ResponseDisposition)
        case challengeDecided(ChallengeDisposition)
        /// The request's proxied target waits for the egress verdict on its name.
        case proxiedTargetPending(host: String)
        /// The egress verdict on `host` came: allowed targets go on (a denied one never got here).
        case proxiedTargetChecked(host: String)
        /// A segmented download's primary has no range left to fetch.
        case parked
        /// A streamed upload's body has bytes (or its end) again.
        case uploadReadable
        case cancel
    }

    /// What libcurl's completed response head said, worked out by the `Transfer` (which has the head, the
    /// request and the job) so that the machine decides without them.
    struct ResponseFacts {
        var status: Int
        /// The request URLSession's rules would redirect to (nil: not a redirect to follow).
        var redirect: OutgoingRequest?
        /// The 401's or 407's challenge the delegate or the default handling would answer.
        var challenge: AuthenticationChallenge?
        /// `multipart/x-mixed-replace` on a data or upload task.
        var isMultipart = false
        /// For a range request: what its head said of the range.
        var rangeAnswer = SegmentAnswer.pending
        /// A range request's head is the first answer of a resumed segmented download (nothing delivered).
        var isFirstAnswerOfResumedSegments = false
    }

    enum Action {
        // After a response head.
        /// Report an informational (1xx) response (not `100 Continue` or `101`, libcurl's own business).
        case reportInformational
        /// Hand the response's `Set-Cookie` fields to the job's cookies, before anything follows from it.
        case storeCookies
        /// Deliver the head as the task's response (the network's, or the stored one of a cache hit).
        case deliverResponse
        /// Deliver the stored response updated with a 304's fields (`HTTPCacheRules.merge`).
        case deliverNotModified
        case beginMultipart
        case beginSegmentsIfPossible
        /// A resumed download's final response: 206 continues after the kept bytes, anything else from 0.
        case settleResume
        /// A resumed segmented download's first range came back as asked: it is the task's response.
        case resumeSegments
        case askAboutResponse
        // At the end of a request.
        case recordTransaction
        case readStoredBody
        /// The last part's held-back tail is its content (or the response, never split, is delivered).
        case finishMultipart
        /// Close the body and report success (or the disk error).
        case finishBody
        case fail(TransferFailure)
        /// Map libcurl's failure (a TLS failure may still be turned around by a trust exception).
        case failRequest(CurlResult)
        case askAboutRedirect(OutgoingRequest)
        /// Drop the body kept so far (a decided redirect's, when it is followed): the sink starts again.
        case discardBody
        /// Send this request with the same handle (the scheduler prepares and admits it).
        case follow(OutgoingRequest)
        case askAboutChallenge(AuthenticationChallenge)
        case resolveByDefault(AuthenticationChallenge)
        case resolve(AuthenticationChallenge, ChallengeDisposition)
        /// How a request of a segmented download ended, for the scheduler's segment logic.
        case segmentEnded(SegmentEnd)
        // After a decision or an event.
        case becomeDownload(path: String)
        case deliverHeldParts
        /// Traffic goes on: libcurl is offered the paused body again (the idle timeout restarts).
        case unpause
        /// Hand the prepared request to libcurl.
        case admit
        /// Take the transfer out of the multi and end it with this failure.
        case abort(TransferFailure)

        /// What follows from a head delivered as the task's response (skipped when a mirror's is refused).
        var concernsTheResponse: Bool {
            switch self {
            case .beginSegmentsIfPossible, .settleResume, .askAboutResponse: true
            default: false
            }
        }
    }

    /// How a request of a segmented download ended, as far as the state says.
    enum SegmentEnd {
        case completed
        case validatorChanged
        case unexpected(status: Int)
        case failed(CurlResult)
        case connectionStopped(ConnectionStop)
    }

    /// Where body bytes libcurl offers go (per chunk: no payload, no allocation).
    enum BodyRoute: Equatable {
        /// Someone decides first: libcurl keeps the bytes and offers them again after `unpause`.
        case pause
        /// A redirect's body, not kept.
        case drop
        case keep
        /// A range request's answer that is not the range asked for: nothing of it is kept.
        case refuse
    }

    static let cancelled = TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled")

    mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .requestPrepared:
            state = .requesting
            return []
        case .rangeAssigned(let range):
            self.range = range
            return []
        case .startedAgainFromZero:
            range = nil
            if resume == .pending { resume = .settled }
            return []
        case .storedResponseServed: return servedStoredResponse()
        case .headComplete(let facts): return headComplete(facts)
        case .cutAtPartEnd:
            guard isInRequest else { return [] }
            state = .cutAtPartEnd
            return []
        case .bodyRefused(let refusal):
            self.refusal = refusal
            return []
        case .partBegan: return partBegan()
        case .heldPartsDelivered: return heldPartsDelivered()
        case .connectionStopped(let stop):
            guard isInRequest else { return [] }  // libcurl's own rounds (NTLM, Digest) may open another connection
            state = .connectionStopped(stop)
            return []
        case .requestEnded(let result): return requestEnded(result)
        case .segmentRequestEnded(let result): return [.segmentEnded(segmentEnd(result))]
        case .challengeRaised(let challenge):
            // Raised by the transfer itself: the next offer after a rejected one, or a failed request's TLS
            // failure that a client certificate may turn around.
            switch state {
            case .answeringChallenge, .finished: return raise(challenge)
            default: return []
            }
        case .redirectDecided(let disposition): return redirectDecided(disposition)
        case .responseDecided(let disposition): return responseDecided(disposition)
        case .challengeDecided(let disposition): return challengeDecided(disposition)
        case .proxiedTargetPending(let host):
            guard case .requesting = state else { return [] }  // a prepared request, not yet admitted
            state = .awaitingProxiedTarget(host: host)
            return []
        case .proxiedTargetChecked(let host):
            guard case .awaitingProxiedTarget(host) = state else { return [] }
            state = .requesting
            return [.admit]
        case .parked:
            // Whatever its last request left (a range's end, a failure, a stopped connection).
            if case .finished = state { return [] }
            state = .parked
            return []
        case .uploadReadable:
            if isWaiting { return [] }
            if case .finished = state { return [] }
            return [.unpause]
        case .cancel:
            if case .finished = state { return [] }
            state = .finished
            return [.abort(Self.cancelled)]
        }
    }
}
