import SessionTasks
import TransferModels

extension EventRoutes {
    /// A comment goes out when nothing else did for this long, so proxies keep an idle stream open.
    static let heartbeatInterval: Duration = .seconds(15)
    /// The store is read again this often even without a hint from the feed.
    static let rescanInterval: Duration = .seconds(5)
    /// How often an idle stream looks whether its client hung up (MHD does not while the stream is parked).
    static let peerCheckInterval: Duration = .seconds(1)
    static let streamPageSize = 500

    /// Writes the session's events after `start` into `stream`, then every event committed later, until
    /// the session's log is closed for good (invalidated and everything sent: the body ends cleanly), the
    /// client leaves, or the service shuts down.
    ///
    /// It wakes on the feed's hints for this session, on the stream closing, at shutdown, and every
    /// `peerCheckInterval` to see whether a parked client hung up (`checkPeer`) and whether a heartbeat or a
    /// rescan is due. Waking costs no store read unless one of those is.
    func produceEvents(session: String, after start: Int64, into stream: ResponseStream) async {
        do {
            try await watching(session: session, tick: Self.peerCheckInterval) { doorbell in
                stream.onClose { doorbell.ring(.closed) }
                var position = start
                var lastRead: ContinuousClock.Instant?
                var lastWrite = ContinuousClock.now
                var reasons: Doorbell.Reasons = [.events]
                while reasons.isDisjoint(with: [.closed, .shutdown]) && !stream.isClosed {
                    stream.checkPeer()
                    if reasons.contains(.events) || lastRead.map({ .now - $0 >= Self.rescanInterval }) ?? true {
                        lastRead = .now
                        while true {  // everything stored after `position`, page by page
                            let page = try await events.page(sessionId: session, after: position, limit: Self.streamPageSize)
                            if let last = page.events.last {
                                guard await stream.write(try EventJSON.serverSentEvents(page.events)) else { return }
                                position = last.sequence
                                lastWrite = .now
                            }
                            if page.isFinal { return }  // `run()` finishes the stream: the body ends cleanly
                            if !page.hasMore { break }
                        }
                    }
                    if .now - lastWrite >= Self.heartbeatInterval {
                        guard await stream.write(EventJSON.keepAlive) else { return }
                        lastWrite = .now
                    }
                    reasons = await doorbell.wait()
                }
            }
        } catch {
            // Headers are sent, so no problem+json can follow: break the stream; the client reconnects
            // with Last-Event-ID and loses nothing.
            stream.abort()
        }
    }

    /// Runs `body` with a doorbell that rings `.events` when the store commits events to `session` (the
    /// feed hints only this session's commits to it: the others' never wake it),
    /// `.tick` every `tick`, `.deadline` at `deadline`, and `.shutdown` when graceful shutdown begins.
    /// The feed is subscribed before `body` runs, so a commit just after its first read is not missed.
    func watching<T>(
        session: String, tick: Duration, deadline: ContinuousClock.Instant? = nil, _ body: (Doorbell) async throws -> T
    ) async throws -> T {
        let doorbell = Doorbell()
        let hints = events.subscribe(session: session)
        shutdown.register(doorbell)
        defer { shutdown.unregister(doorbell) }
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask {
                for await _ in hints {
                    metrics.watcherWokeUp()
                    doorbell.ring(.events)
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    doorbell.ring(.tick)
                }
            }
            if let deadline {
                group.addTask {
                    try? await Task.sleep(until: deadline)
                    doorbell.ring(.deadline)
                }
            }
            defer { group.cancelAll() }  // the children end with the body: feed iteration and sleeps are cancellable
            return try await body(doorbell)
        }
    }
}
