public import JSONCodec

/// Asks a session's delegate what to do, the way URLSession calls a delegate method with a completion
/// handler: the task layer registers for the answer, then appends the decision event to the store, and
/// whoever delivers events (the webhook dispatcher) or the client (through the API) hands back the answer.
/// The task layer receives it at construction; event delivery implements it, so neither imports the other.
public protocol DelegateDecisions: Sendable {
    /// Starts waiting for the answer to the decision event `eventId` of session `sessionId`, before the
    /// event is written: an answer can then never come before its waiter.
    func expectAnswer(toEvent eventId: String, session sessionId: String) -> ExpectedAnswer
    /// An answer given through the API: true when a transfer here waited for `eventId` of `sessionId` and
    /// took it; false when none does (not a decision event, another session's, answered already, or its
    /// time ran out — the default handling was applied).
    func take(_ answer: DelegateAnswer, toEvent eventId: String, session sessionId: String) -> Bool
    /// Hands `handler` every webhook's answer to a decision event (or its failure) that no transfer here
    /// waits for: with several nodes, the session's webhooks are sent by one node and the transfer may
    /// wait on another (the node running its task), which the handler reaches.
    func forwardAnswersNotAwaitedHere(to handler: @escaping @Sendable (WebhookDecisionAnswer) -> Void)
    /// Ends the wait for `eventId` of `sessionId` with the default handling, as a webhook's answer that is
    /// not a valid one does; false when nothing here waits for it.
    func decline(event eventId: String, session sessionId: String) -> Bool
}

extension DelegateDecisions {
    public func forwardAnswersNotAwaitedHere(to handler: @escaping @Sendable (WebhookDecisionAnswer) -> Void) {}
    public func decline(event eventId: String, session sessionId: String) -> Bool { false }
}

/// A webhook's answer to a decision event.
public struct WebhookDecisionAnswer: Sendable, Equatable {
    public var eventId: String
    public var sessionId: String
    /// Its 2xx answer's body as it came; nil when there was none (a non-2xx, no answer in time, the
    /// delivery stopped): the default handling, now.
    public var body: [UInt8]?

    public init(eventId: String, sessionId: String, body: [UInt8]?) {
        (self.eventId, self.sessionId, self.body) = (eventId, sessionId, body)
    }
}

/// The answer awaited for one decision event (`DelegateDecisions.expectAnswer`).
public struct ExpectedAnswer: Sendable {
    private let wait: @Sendable (Duration) async -> DelegateAnswer?

    public init(_ wait: @escaping @Sendable (Duration) async -> DelegateAnswer?) { self.wait = wait }

    /// Waits at most `timeout`; nil when none came in time, the delegate answered with anything but a
    /// 2xx, or its body is not a valid answer — then the default handling applies, as if the delegate did
    /// not implement the method. Called once.
    public func answer(within timeout: Duration) async -> DelegateAnswer? { await wait(timeout) }
}

/// A delegate's answer to a decision event (API.md "Decision events"), parsed once where it arrives.
/// Which fields an answer may carry depends on the question; `answer(allowing:)` checks that.
public struct DelegateAnswer: Decodable, Sendable, Equatable {
    /// `follow`, `reject`, `allow`, `cancel`, `becomeDownload`, `useCredential`, `performDefaultHandling`,
    /// `cancelAuthenticationChallenge`, `rejectProtectionSpace`, `continueLoading`, `useNewRequest`;
    /// an unknown one means the default handling.
    public var disposition: String
    /// The delegate's own request: a redirect's (`follow`) or a delayed request's (`useNewRequest`).
    public var request: URLRequestInput?
    /// `useCredential`'s credential.
    public var credential: CredentialAnswer?
    /// `willCacheResponse`'s modified response: the `userInfo` to store with it.
    public var userInfo: JSONValue?

    public init(
        disposition: String, request: URLRequestInput? = nil, credential: CredentialAnswer? = nil, userInfo: JSONValue? = nil
    ) {
        self.disposition = disposition
        self.request = request
        self.credential = credential
        self.userInfo = userInfo
    }

    /// The fields an answer may carry besides `disposition`.
    public enum Field: Sendable { case request, credential, userInfo }

    /// The answer, when it carries no field the question does not take (else it is malformed: nil).
    public func allowing(_ fields: Set<Field>) -> DelegateAnswer? {
        if request != nil && !fields.contains(.request) { return nil }
        if credential != nil && !fields.contains(.credential) { return nil }
        if userInfo != nil && !fields.contains(.userInfo) { return nil }
        return self
    }
}

/// The `URLCredential` a delegate answers a challenge with: a user and password (HTTP methods), an
/// identity (a client certificate), or `serverTrust: true` (`URLCredential(trust:)`: the chain shown is
/// accepted). Kept by `persistence` (none: this task only, never written anywhere).
public struct CredentialAnswer: Decodable, Sendable, Equatable {
    public var user: String?
    public var password: String?
    public var identity: IdentityInput?
    public var serverTrust: Bool?
    public var persistence: String?

    public init(
        user: String? = nil, password: String? = nil, identity: IdentityInput? = nil, serverTrust: Bool? = nil,
        persistence: String? = nil
    ) {
        (self.user, self.password, self.identity, self.serverTrust) = (user, password, identity, serverTrust)
        self.persistence = persistence
    }
}

extension DelegateAnswer {
    /// Every disposition some decision event takes (the cache's are `URLCacheStoragePolicy`'s).
    public static let dispositions: [String] =
        [
            "follow", "reject", "allow", "cancel", "becomeDownload", "useCredential", "performDefaultHandling",
            "cancelAuthenticationChallenge", "rejectProtectionSpace", "continueLoading", "useNewRequest",
        ] + URLCacheStoragePolicy.allCases.map(\.rawValue)

    /// The answer when a client gives it through the API, checked more closely than a webhook's (which
    /// means the default handling when it is not one), as `DecisionAnswer` describes it: a disposition no
    /// question takes, or a field no question taking that disposition carries, is refused naming it, and
    /// `useNewRequest` needs its `request`. Whether it fits the question asked is still judged by the
    /// question (`allowing`), as for a webhook's.
    public func validated() throws(RequestDecodingError) -> DelegateAnswer {
        guard Self.dispositions.contains(disposition) else {
            throw .invalidValue("disposition", "must be one of: \(Self.dispositions.joined(separator: ", "))")
        }
        // The redirect's and the delayed request's dispositions.
        if request != nil, !["follow", "reject", "continueLoading", "useNewRequest", "cancel"].contains(disposition) {
            throw .invalidValue("request", "is answered only to a redirect or a delayed request")
        }
        if request == nil, disposition == "useNewRequest" { throw .missingField("request", "useNewRequest needs the request") }
        let challenge = ["useCredential", "performDefaultHandling", "cancelAuthenticationChallenge", "rejectProtectionSpace"]
        if credential != nil, !challenge.contains(disposition) {
            throw .invalidValue("credential", "is answered only to a challenge")
        }
        if userInfo != nil, URLCacheStoragePolicy(rawValue: disposition) == nil {
            throw .invalidValue("userInfo", "is answered only with a cache storage policy (willCacheResponse)")
        }
        return self
    }
}
