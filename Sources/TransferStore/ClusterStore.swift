/// The cluster: the nodes sharing a PostgreSQL database (their rows, heartbeats and load), which node runs
/// each task (claims and take-overs), the named leases that let one node at a time do a job, and the
/// control calls forwarded to the node that runs a task. One aggregate because it is how the nodes
/// coordinate; the tasks it claims are `TaskStore`'s rows, read and locked through `TaskRows` in the same
/// order as every other task write. On SQLite (one node) only the claims run, and only in tests.
public struct ClusterStore: Sendable {
    let database: any StoreDatabase
    let requestSecrets: RequestSecrets
    /// Control calls other nodes forward to the nodes running the tasks, and their answers (each element a
    /// `ForwardedControl` or `ForwardedControlAnswer` in JSON); see `ClusterStore+ForwardedControls`.
    public let forwardedControls = EventFeed()
    public let forwardedControlAnswers = EventFeed()
    /// Answers to decision events given through the API on another node, and their replies
    /// (`OfferedDecisionAnswer`, `OfferedDecisionAnswerReply` JSON); see `ClusterStore+DecisionAnswers`.
    public let offeredDecisionAnswers = EventFeed()
    public let offeredDecisionAnswerReplies = EventFeed()
}
