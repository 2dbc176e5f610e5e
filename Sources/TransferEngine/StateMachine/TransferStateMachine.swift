import Curl

/// What one `Transfer` is doing, and the only place that decides what may follow what.
///
/// A value, as `TaskLifecycle` is for a task and async-http-client's `HTTPRequestStateMachine` for a
/// request: every input — a response head libcurl completed, the end of a request, a delegate's answer,
/// a scheduler's event — goes through `handle(_:)`, which changes the state and returns the actions its
/// owner (the `Transfer`, on the engine loop) carries out in order. The `Transfer` keeps the data (the
/// easy handle, the request, the head being read, the sink, the credentials and TLS decisions); the
/// machine keeps only which step the request is at, with what that step needs, so a flag can no longer
/// disagree with another. Body bytes never enter it: `routeBody()` only says where they go, without
/// allocating, since libcurl calls it per chunk.
struct TransferStateMachine {
    enum State {
        /// A request is on the wire (or prepared for it); no final response head yet.
        case requesting
        /// The final response's body is the task's, arriving.
        case receiving(ResponseBody)
        /// A redirect URLSession's rules would follow to this request: its body is dropped, and the
        /// redirect proposed when the request ends.
        case followingRedirect(OutgoingRequest)
        /// A 401 or 407 the delegate (or the default handling) answers when the request ends; its body is
        /// kept, as it is the response if no credential is given.
        case answeringChallenge(AuthenticationChallenge)
        /// The connection was stopped before the request left (a TLS question, or a refusal): what follows
        /// once libcurl reports the end.
        case connectionStopped(ConnectionStop)
        /// A segmented download's response was cut where its part ends (libcurl reports a write error; it
        /// is this success).
        case cutAtPartEnd
        /// The delegate decides about the response: the body is paused, or the request already ended with
        /// `finished`.
        case awaitingResponseDecision(ResponseBody, finished: CurlResult?)
        /// After an allowing answer, the parts of a `multipart/x-mixed-replace` response held while the
        /// delegate decided are delivered; one of them may be asked about in turn.
        case deliveringHeldParts(finished: CurlResult?)
        /// The delegate decides about this redirect; the handle is out of the multi meanwhile.
        case awaitingRedirectDecision(OutgoingRequest)
        /// The delegate answers this challenge; the handle is out of the multi meanwhile.
        case awaitingChallengeDecision(AuthenticationChallenge)
        /// The egress verdict on the target the request's proxy would reach (a name being resolved).
        case awaitingProxiedTarget(host: String)
        /// A segmented download's primary with no range of its own to fetch: its part connections fetch the
        /// rest (no connection of its own, no idle timeout).
        case parked
        /// The outcome is reported (or the transfer aborted): nothing follows.
        case finished
    }

    /// Where the final response's body comes from, and what is done with it.
    enum ResponseBody: Equatable {
        /// The network's bytes, into the sink (or a segmented download's file).
        case network
        /// The stored response's body, read into the sink when the request ends: a cache hit, or the 304
        /// that validated it (the network's body of a 304 is empty).
        case stored
        /// `multipart/x-mixed-replace`: each part is a response of its own (`Transfer+MultipartReplace`).
        case multipart
        /// The answer to a range request of a segmented download, and what its head said.
        case range(SegmentAnswer)
    }

    /// Why a connection was stopped before its request left (`curlConnectionReady`).
    enum ConnectionStop {
        /// A TLS challenge the delegate answers; the request goes again with the answer.
        case challenge(AuthenticationChallenge)
        /// The chain (or the key) is refused: the task fails with this.
        case failure(TransferFailure)
    }

    /// A resumed download (`resumeOffset`): whether the bytes kept from an earlier attempt are still wanted.
    enum Resume: Equatable {
        case none
        /// Until the final response says (206 continues after them, anything else starts from 0).
        case pending
        case settled
    }

    /// Why the transfer refused bytes, for the error its CURLcode becomes (`Transfer.failure(for:)`).
    enum Refusal: Equatable {
        /// The body passed `maximumDownloadSize` (-1103).
        case tooLarge
        /// The streamed body's producer failed, its client left (-1021).
        case uploadStreamFailed
    }

    // Changed only by the inputs (`handle(_:)` and the extensions beside this file), which is why they are
    // not `private(set)`: the inputs live in files of their own.
    var state: State = .requesting
    /// The range the current request asks for (with `If-Range`); nil for a request without one.
    var range: Range<Int64>?
    /// Redirects followed so far (URLSession's limit is `RedirectPolicy.maximumRedirects`).
    var redirects: Int
    var resume: Resume
    /// The delegate made this data task a download (`becomeDownload`): later parts replace the file.
    var becameDownload = false
    var refusal: Refusal?
    /// What the job lets its delegate decide.
    let decidesResponse: Bool
    let decidesRedirects: Bool
    let decidesChallenges: Bool
    /// The job's request carries a stored response's validators (`If-None-Match`, `If-Modified-Since`).
    let hasConditionalRequest: Bool

    init(
        decidesResponse: Bool = false, decidesRedirects: Bool = false, decidesChallenges: Bool = false,
        hasConditionalRequest: Bool = false, resuming: Bool = false, redirects: Int = 0
    ) {
        self.decidesResponse = decidesResponse
        self.decidesRedirects = decidesRedirects
        self.decidesChallenges = decidesChallenges
        self.hasConditionalRequest = hasConditionalRequest
        self.resume = resuming ? .pending : .none
        self.redirects = redirects
    }

    init(job: TransferJob, redirects: Int = 0) {
        self.init(
            decidesResponse: job.decidesResponse, decidesRedirects: job.decidesRedirects, decidesChallenges: job.decidesChallenges,
            hasConditionalRequest: job.storedResponse?.conditionalFields.isEmpty == false, resuming: job.resumeOffset > 0,
            redirects: redirects)
    }

    /// Whether the request asks for the bytes after those kept (`Range: bytes=offset-`).
    var isResuming: Bool { resume == .pending }

    /// The request validates the stored response: only the job's own request, never a redirect's (another
    /// URL, another resource) or a range's.
    var validatesStoredResponse: Bool { hasConditionalRequest && redirects == 0 && range == nil }

    /// Waiting for someone else (a delegate, a name lookup, the part connections): no traffic of its own,
    /// so no idle timeout, and body bytes libcurl offers are paused.
    var isWaiting: Bool {
        switch state {
        case .awaitingResponseDecision, .awaitingRedirectDecision, .awaitingChallengeDecision, .awaitingProxiedTarget, .parked:
            true
        case .requesting, .receiving, .followingRedirect, .answeringChallenge, .connectionStopped, .cutAtPartEnd,
            .deliveringHeldParts, .finished:
            false
        }
    }

    var isParked: Bool {
        if case .parked = state { true } else { false }
    }

    /// The delegate decides about a response now (its body paused).
    var isAwaitingResponseDecision: Bool {
        if case .awaitingResponseDecision = state { true } else { false }
    }

    /// Parts of a multipart response may be delivered now (none is being asked about).
    var deliversParts: Bool {
        switch state {
        case .receiving(.multipart), .deliveringHeldParts: true
        default: false
        }
    }
}
