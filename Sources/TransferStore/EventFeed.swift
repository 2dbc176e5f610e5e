import Foundation
import TransferModels

/// Tells readers of the event log (the webhook dispatcher, long-polls, server-sent event streams)
/// which sessions have new events, once the transaction that appended them has committed.
///
/// A notification is a hint, not the event: a reader reads the store after it, so a notification that
/// is dropped (a subscriber far behind) costs latency, never an event. Readers that must not rely on
/// hints alone also rescan now and then.
///
/// Readers of one session (long-polls, streams) subscribe to it alone: a commit wakes only its own
/// session's readers, so thousands of idle streams cost nothing when other sessions are busy.
public final class EventFeed: Sendable {
    private struct Subscribers {
        /// Readers of every session (the dispatcher).
        var all: [Int: AsyncStream<String>.Continuation] = [:]
        /// Readers of one session, by session id.
        var bySession: [String: [Int: AsyncStream<String>.Continuation]] = [:]
        /// Handlers of every session's news, called on the publishing thread.
        var handlers: [Int: @Sendable (String) -> Void] = [:]
        var next = 0
    }

    /// A handler given to `onPublish`, called until `cancel()`.
    public struct Registration: Sendable {
        fileprivate let feed: EventFeed
        fileprivate let id: Int

        public func cancel() {
            feed.subscribers.withLock { _ = $0.handlers.removeValue(forKey: id) }
        }
    }

    private let subscribers = LockedBox(Subscribers())

    /// The element readers of every session receive when any session may have news they were not told
    /// of (a node's listener reconnected: notifications were lost). No session has this id.
    public static let everySession = "*"

    public init() {}

    /// A stream of session ids, one element per committed write that appended events to that session.
    /// It ends when the caller stops iterating it (or drops it).
    public func subscribe(bufferingNewest limit: Int = 4096) -> AsyncStream<String> {
        subscribe(session: nil, bufferingNewest: limit)
    }

    /// A stream with one element (the session's id) per committed write that appended events to
    /// `session`; commits to other sessions do not reach it.
    public func subscribe(session: String?, bufferingNewest limit: Int = 4096) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(limit))
        let id = subscribers.withLock { subscribers in
            subscribers.next += 1
            if let session {
                subscribers.bySession[session, default: [:]][subscribers.next] = continuation
            } else {
                subscribers.all[subscribers.next] = continuation
            }
            return subscribers.next
        }
        continuation.onTermination = { [subscribers] _ in
            subscribers.withLock { subscribers in
                guard let session else {
                    subscribers.all[id] = nil
                    return
                }
                subscribers.bySession[session]?[id] = nil
                if subscribers.bySession[session]?.isEmpty == true { subscribers.bySession[session] = nil }
            }
        }
        return stream
    }

    /// Calls `handler` with the session id of every committed write that appended events, on the
    /// committing thread, until the registration is cancelled. For a reader of every session that only
    /// posts a signal (it must not block): no task and no buffer sit between the commit and it, and no
    /// element is ever dropped.
    public func onPublish(_ handler: @escaping @Sendable (String) -> Void) -> Registration {
        let id = subscribers.withLock { subscribers in
            subscribers.next += 1
            subscribers.handlers[subscribers.next] = handler
            return subscribers.next
        }
        return Registration(feed: self, id: id)
    }

    /// Called by the store after a commit that appended events to `sessionId`.
    func publish(_ sessionId: String) {
        let (continuations, handlers) = subscribers.withLock { subscribers in
            var continuations = Array(subscribers.all.values)
            if let readers = subscribers.bySession[sessionId] { continuations += readers.values }
            return (continuations, Array(subscribers.handlers.values))
        }
        for continuation in continuations { continuation.yield(sessionId) }
        for handler in handlers { handler(sessionId) }
    }

    /// Wakes every reader as if its session had news: readers of one session receive their session's id,
    /// readers of every session `everySession`.
    func publishEverySession() {
        let continuations = subscribers.withLock { subscribers in
            subscribers.all.values.map { ($0, Self.everySession) }
                + subscribers.bySession.flatMap { session, readers in readers.values.map { ($0, session) } }
        }
        for (continuation, element) in continuations { continuation.yield(element) }
        for handler in subscribers.withLock({ Array($0.handlers.values) }) { handler(Self.everySession) }
    }
}
