/// A channel on which a write tells the other nodes sharing the database what it changed
/// (PostgreSQL's `NOTIFY`, sent at the commit). One process alone (SQLite) needs none: its own feeds
/// already see every commit.
public struct StoreChannel: Hashable, Sendable {
    /// The channel's name in PostgreSQL (`LISTEN`/`pg_notify`).
    public let name: String

    init(_ name: String) { self.name = name }

    /// A session has new events (the payload is its id): wakes the other nodes' event readers.
    static let events = StoreChannel("urlsessiond_events")
    /// A session's row changed (the payload is its id): the other nodes drop it from their session cache.
    static let sessions = StoreChannel("urlsessiond_sessions")
    /// A session's delegate changed (the payload is its id): the other nodes' dispatchers re-address it.
    static let delegates = StoreChannel("urlsessiond_delegates")

    /// Tasks completed (the payload is their ids, separated by spaces: one notification for a commit's
    /// completions, not one each): wakes the other nodes' `?wait=` long-polls on them.
    static let completions = StoreChannel("urlsessiond_completions")
    /// A control call for a task another node runs (the payload is a `ForwardedControl` in JSON).
    static let controls = StoreChannel("urlsessiond_controls")
    /// The answer to a forwarded control call (a `ForwardedControlAnswer` in JSON).
    static let controlAnswers = StoreChannel("urlsessiond_control_answers")
    /// An answer to a decision event given through the API on one node, for the node running the event's
    /// task (an `OfferedDecisionAnswer` in JSON), and whether it took it (an `OfferedDecisionAnswerReply`).
    static let decisionAnswers = StoreChannel("urlsessiond_decision_answers")
    static let decisionAnswerReplies = StoreChannel("urlsessiond_decision_answer_replies")

    /// Every channel the store's listener follows.
    static let all: [StoreChannel] = [
        .events, .sessions, .delegates, .completions, .controls, .controlAnswers, .decisionAnswers,
        .decisionAnswerReplies,
    ]
}

/// What a node's listener hears from the others.
enum StoreNotice: Sendable, Equatable {
    /// Another node's committed write sent `payload` on `channel`.
    case notification(StoreChannel, payload: String)
    /// The listener (re)connected: notifications sent while it was away are lost, so whatever they would
    /// have told must be read again.
    case resynchronize
}
