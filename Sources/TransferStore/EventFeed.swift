import Foundation
import TransferModels

/// Tells readers of the event log (the webhook dispatcher, long-polls, server-sent event streams)
/// which sessions have new events, once the transaction that appended them has committed.
///
/// A notification is a hint, not the event: a reader reads the store after it, so a notification that
/// is dropped (a subscriber far behind) costs latency, never an event. Readers that must not rely on
/// hints alone also rescan now and then.
public final class EventFeed: Sendable {
    private let subscribers = LockedBox<[Int: AsyncStream<String>.Continuation]>([:])
    private let nextSubscriber = LockedBox(0)

    public init() {}

    /// A stream of session ids, one element per committed write that appended events to that session.
    /// It ends when the caller stops iterating it (or drops it).
    public func subscribe(bufferingNewest limit: Int = 4096) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(limit))
        let id = nextSubscriber.withLock { next in
            next += 1
            return next
        }
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [subscribers] _ in subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    /// Called by the store after a commit that appended events to `sessionId`.
    func publish(_ sessionId: String) {
        let continuations = subscribers.withLock { Array($0.values) }
        for continuation in continuations { continuation.yield(sessionId) }
    }
}
