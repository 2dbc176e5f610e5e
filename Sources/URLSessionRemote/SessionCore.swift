internal import Foundation

#if canImport(FoundationNetworking)
    internal import FoundationNetworking
#endif

/// What a ``RemoteURLSession`` shares with its tasks: the service's session (made on first use, as the
/// service cannot be reached from `init`), the tasks in flight, and the loop that follows the session's
/// events and calls the delegates.
///
/// An actor, so that events are handled one at a time in `sequence` order and the delegates are called as
/// from a serial delegate queue.
actor SessionCore {
    nonisolated let client: ServiceClient
    nonisolated let configuration: RemoteURLSessionConfiguration
    /// Whether this is `RemoteURLSession.shared`: the tenant's shared session, not one made by this client.
    nonisolated let isShared: Bool
    nonisolated let delegate: (any RemoteURLSessionDelegate)?
    /// The decision events the session's service-side delegate lists: the session's delegate's
    /// `decisions`, read once, as the service keeps them from the session's creation.
    nonisolated let decisionEventTypes: Set<String>
    /// The session object, for the delegate calls; weak, since the session owns this core.
    nonisolated let owner = Locked(WeakSession())
    /// The loop following the events, cancelled when the session goes away or is invalidated.
    nonisolated let follower = Locked<Task<Void, Never>?>(nil)

    struct WeakSession {
        weak var value: RemoteURLSession?
    }

    /// A task this client knows, and who waits for it.
    struct Entry {
        /// The task's object; a download one once a data task became a download (`becomeDownload`).
        var task: RemoteURLSessionTask
        /// The data task the caller made, when it became a download: it completes with it.
        var formerTask: RemoteURLSessionTask?
        /// The task-specific delegate (`delegate:` of the async API), else the session's gets the calls.
        let delegate: (any RemoteURLSessionDelegate)?
        /// Made by the async API (`data(for:)`, `download(for:)`): like URLSession's completion-handler
        /// tasks, it gets no `didReceive response` and no `didFinishDownloadingTo` (the call returns them).
        let isConvenience: Bool
        var waiters: [CheckedContinuation<Void, any Error>] = []
        /// Who waits for the response (`bytes(for:)`): woken by `dataTask.didReceiveResponse` or the completion.
        var responseWaiters: [CheckedContinuation<Void, any Error>] = []
        /// Called once the task's completion was handled (before the waiters are woken).
        var completionObservers: [@Sendable (RemoteURLSessionTask) -> Void] = []
    }

    private enum Attachment {
        case idle
        case attaching([CheckedContinuation<String, any Error>])
        case attached(String)
    }

    private var attachment = Attachment.idle
    var entries: [String: Entry] = [:]
    /// The `sequence` of the last event handled (the `Last-Event-ID` of a reconnection).
    var lastSequence = 0
    /// Why following the events stopped for good (a refused token, an unknown session), failing every wait.
    var followingError: (any Error)?

    init(configuration: RemoteURLSessionConfiguration, delegate: (any RemoteURLSessionDelegate)?, isShared: Bool) {
        self.configuration = configuration
        self.delegate = delegate
        self.decisionEventTypes = isShared ? [] : Set(delegate?.decisions.eventTypes ?? [])
        self.isShared = isShared
        self.client = ServiceClient(connection: configuration.connection)
    }

    /// The service's id of the session, making (or, for a background identifier, re-attaching to) it first.
    func sessionID() async throws -> String {
        switch self.attachment {
        case .attached(let id):
            return id
        case .attaching(let waiters):
            return try await withCheckedThrowingContinuation { continuation in
                self.attachment = .attaching(waiters + [continuation])
            }
        case .idle:
            self.attachment = .attaching([])
            do {
                let (id, after) = try await self.attach()
                guard case .attaching(let waiters) = self.attachment else { return id }
                self.attachment = .attached(id)
                self.lastSequence = after
                self.startFollowing(sessionID: id)
                for waiter in waiters { waiter.resume(returning: id) }
                return id
            } catch {
                guard case .attaching(let waiters) = self.attachment else { throw error }
                self.attachment = .idle
                for waiter in waiters { waiter.resume(throwing: error) }
                throw error
            }
        }
    }

    /// Makes the service's session and answers where its events start for this client.
    private func attach() async throws -> (id: String, after: Int) {
        if self.isShared {
            let session = try await self.client.decode(WireSession.self, "GET", "/v1/sessions/shared")
            // The shared session's earlier events are other clients' business: start after the last one.
            return (session.id, try await self.lastEventSequence(sessionID: session.id))
        }
        var object: [String: Any] = ["configuration": self.configuration.wireObject]
        // A delegate without `url` lives in this process: the service asks its decisions through the events
        // and waits for `answerDecision`. Sent only when it decides something or paces its progress, so that
        // a session whose delegate only listens is the same service-side session as before. A background
        // re-attach with it replaces the stored delegate's settings with these.
        var delegate: [String: Any] = [:]
        if !self.decisionEventTypes.isEmpty { delegate["decisions"] = self.decisionEventTypes.sorted() }
        delegate["progressInterval"] = self.configuration.progressInterval
        delegate["progressStep"] = self.configuration.progressStep
        if !delegate.isEmpty { object["delegate"] = delegate }
        let body = try ServiceClient.json(object)
        let session = try await self.client.decode(WireSession.self, "POST", "/v1/sessions", json: body)
        return (session.id, self.configuration.kind == .background ? self.storedSequence() : 0)
    }

    /// The sequence of the session's newest event: one page of one event says it (`lastSequence`), however
    /// long the session's history is.
    private func lastEventSequence(sessionID: String) async throws -> Int {
        let page = try await self.client.decode(
            WirePage<WireEvent>.self, "GET", "/v1/sessions/\(sessionID)/events", query: [URLQueryItem(name: "limit", value: "1")])
        return page.lastSequence ?? page.items.last?.sequence ?? 0
    }

    /// Creates a task, suspended, and registers it before it can have events.
    ///
    /// Created with `resume: false` and resumed by the caller once registered, so that no event of the task
    /// can be read from the stream before the client knows the task.
    func makeTask(
        body: Data, delegate: (any RemoteURLSessionDelegate)?, isConvenience: Bool
    ) async throws -> RemoteURLSessionTask {
        let id = try await self.sessionID()
        let wire = try await self.client.decode(WireTask.self, "POST", "/v1/sessions/\(id)/tasks", json: body)
        let task = RemoteURLSessionTask.taskClass(ofKind: wire.kind).init(wire: wire, core: self)
        self.entries[wire.id] = Entry(task: task, delegate: delegate, isConvenience: isConvenience)
        return task
    }

    /// Returns once the task's `task.didCompleteWithError` was handled (its delegate called).
    func waitForCompletion(of task: RemoteURLSessionTask) async throws {
        if let error = self.followingError { throw error }
        guard self.entries[task.identifier] != nil else { return }
        try await withCheckedThrowingContinuation { continuation in
            self.entries[task.identifier]?.waiters.append(continuation)
        }
    }

    /// Calls `observer` once the task's completion is handled (at once if it already was).
    func observeCompletion(of task: RemoteURLSessionTask, _ observer: @escaping @Sendable (RemoteURLSessionTask) -> Void) {
        guard self.entries[task.identifier] != nil else { return observer(task) }
        self.entries[task.identifier]?.completionObservers.append(observer)
    }

    /// Returns once the task has its response (its `dataTask.didReceiveResponse` was handled) or completed.
    func waitForResponse(of task: RemoteURLSessionTask) async throws {
        if let error = self.followingError { throw error }
        guard self.entries[task.identifier] != nil, task.response == nil else { return }
        try await withCheckedThrowingContinuation { continuation in
            self.entries[task.identifier]?.responseWaiters.append(continuation)
        }
    }

    /// Wakes who waits for the task's response.
    func responseArrived(for taskID: String) {
        let waiters = self.entries[taskID]?.responseWaiters ?? []
        self.entries[taskID]?.responseWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Ends following the events for good: every wait fails with `error`.
    func stopFollowing(error: any Error) {
        self.followingError = error
        for (id, entry) in self.entries {
            for waiter in entry.waiters + entry.responseWaiters { waiter.resume(throwing: error) }
            self.entries[id]?.waiters = []
            self.entries[id]?.responseWaiters = []
        }
    }

    nonisolated func cancelFollowing() {
        self.follower.withLock { $0 }?.cancel()
    }
}
