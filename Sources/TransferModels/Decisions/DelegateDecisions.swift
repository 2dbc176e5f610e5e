public import JSONCodec

/// Asks a session's delegate what to do, the way URLSession calls a delegate method with a completion
/// handler: the task layer appends the decision event to the store, and whoever delivers events (the
/// webhook dispatcher) hands back the answer. The task layer receives it at construction; event delivery
/// implements it, so neither imports the other.
public protocol DelegateDecisions: Sendable {
    /// Waits at most `timeout` for the answer to the decision event `eventId`; nil when none came in time,
    /// the delegate answered with anything but a 2xx, or its body is not a valid answer — then the default
    /// handling applies, as if the delegate did not implement the method.
    func answer(toEvent eventId: String, within timeout: Duration) async -> DelegateAnswer?
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
