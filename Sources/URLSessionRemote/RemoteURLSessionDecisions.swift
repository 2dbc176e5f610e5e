/// The decision methods a ``RemoteURLSessionDelegate`` implements, so that the service asks them.
///
/// URLSession sees which optional methods its delegate implements; a Swift protocol's default
/// implementations cannot be told from the delegate's own at run time, so the delegate says it. The
/// session lists these events in its service-side delegate (`delegate.decisions`): for each one the
/// transfer waits for the delegate's answer; the others get URLSession's handling without a delegate.
public struct RemoteURLSessionDecisions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `urlSession(_:task:willPerformHTTPRedirection:newRequest:)` (`task.willPerformHTTPRedirection`).
    public static let redirection = RemoteURLSessionDecisions(rawValue: 1 << 0)
    /// `urlSession(_:task:didReceive:)` with a challenge (`task.didReceiveChallenge`).
    public static let taskChallenge = RemoteURLSessionDecisions(rawValue: 1 << 1)
    /// `urlSession(_:didReceive:)` (`session.didReceiveChallenge`): the session-wide challenges.
    public static let sessionChallenge = RemoteURLSessionDecisions(rawValue: 1 << 2)
    /// `urlSession(_:dataTask:didReceive:)`'s disposition (`dataTask.didReceiveResponse`).
    public static let response = RemoteURLSessionDecisions(rawValue: 1 << 3)
    /// `urlSession(_:dataTask:willCacheResponse:)` (`dataTask.willCacheResponse`).
    public static let caching = RemoteURLSessionDecisions(rawValue: 1 << 4)
    /// `urlSession(_:task:willBeginDelayedRequest:)` (`task.willBeginDelayedRequest`).
    public static let delayedRequest = RemoteURLSessionDecisions(rawValue: 1 << 5)

    /// The service's `DecisionEventType` names of these decisions.
    var eventTypes: [String] {
        let names: [(RemoteURLSessionDecisions, String)] = [
            (.redirection, "task.willPerformHTTPRedirection"), (.taskChallenge, "task.didReceiveChallenge"),
            (.sessionChallenge, "session.didReceiveChallenge"), (.response, "dataTask.didReceiveResponse"),
            (.caching, "dataTask.willCacheResponse"), (.delayedRequest, "task.willBeginDelayedRequest"),
        ]
        return names.filter { self.contains($0.0) }.map(\.1)
    }
}
