import Foundation
import TransferModels

extension TransferStore {
    /// Whether other nodes may write the same database (PostgreSQL): their writes reach this node only
    /// through `followOtherNodes`, and one node at a time delivers a session's webhooks (leases).
    public var sharesDatabaseWithOtherNodes: Bool { sqlite == nil }

    /// Applies the other nodes' writes to this node's memory until the calling task is cancelled: their
    /// new events wake this node's `eventFeed` (long-polls, event streams, the webhook dispatcher), their
    /// session writes drop this node's cached copies, their delegate changes reach `deliveries.delegateChanges`.
    /// Returns at once on SQLite, where this process makes every write.
    public func followOtherNodes() async {
        guard let postgres = database as? PostgresStoreDatabase else { return }
        await postgres.listen { [weak self] notice in self?.receive(notice) }
    }

    func receive(_ notice: StoreNotice) {
        switch notice {
        case .notification(let channel, let sessionId) where channel == .events:
            events.eventFeed.publish(sessionId)
        case .notification(let channel, let sessionId) where channel == .sessions:
            forgetForeignSessionWrite(sessionId)
        case .notification(let channel, let sessionId) where channel == .delegates:
            forgetForeignSessionWrite(sessionId)
            deliveries.delegateChanges.publish(sessionId)
        case .notification(let channel, let taskIds) where channel == .completions:
            for taskId in taskIds.split(separator: " ") { tasks.completionsElsewhere.publish(String(taskId)) }
        case .notification(let channel, let control) where channel == .controls:
            cluster.forwardedControls.publish(control)
        case .notification(let channel, let answer) where channel == .controlAnswers:
            cluster.forwardedControlAnswers.publish(answer)
        case .notification(let channel, let answer) where channel == .decisionAnswers:
            cluster.offeredDecisionAnswers.publish(answer)
        case .notification(let channel, let reply) where channel == .decisionAnswerReplies:
            cluster.offeredDecisionAnswerReplies.publish(reply)
        case .notification:
            break
        case .resynchronize:
            // Whatever was lost: every cached session may be stale, every reader may have news.
            sessions.foreignSessionWrites.withLock { $0 &+= 1 }
            sessions.sessionCache.withLock { $0.removeAll() }
            events.eventFeed.publishEverySession()
            deliveries.delegateChanges.publishEverySession()
        }
    }

    private func forgetForeignSessionWrite(_ sessionId: String) {
        sessions.foreignSessionWrites.withLock { $0 &+= 1 }
        sessions.sessionCache.withLock { $0[sessionId] = nil }
    }
}
