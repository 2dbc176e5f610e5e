internal import Foundation

extension RemoteURLSession {
    /// `getAllTasks()`: the session's tasks that have not completed, as URLSession answers (the service
    /// lists completed ones too; they are left out here). Tasks this client did not make (a background
    /// session's, from before a restart) are made known, so that their properties follow their events.
    public func getAllTasks() async throws -> [RemoteURLSessionTask] {
        let id = try await self.core.sessionID()
        var wires: [WireTask] = []
        var after: String?
        repeat {  // bounded by the session's tasks: each page holds up to 1,000
            var query = [URLQueryItem(name: "limit", value: "1000")]
            if let after { query.append(URLQueryItem(name: "after", value: after)) }
            let page = try await self.core.client.decode(
                WirePage<WireTask>.self, "GET", "/v1/sessions/\(id)/tasks", query: query)
            wires += page.items
            after = page.items.isEmpty ? nil : page.nextCursor
        } while after != nil
        return await self.core.tasks(for: wires.filter { $0.state != "completed" })
    }

    /// `allTasks` (the async property of URLSession).
    public var allTasks: [RemoteURLSessionTask] {
        get async throws { try await self.getAllTasks() }
    }

    /// `finishTasksAndInvalidate()`: no new tasks; those running finish, then the delegate hears
    /// `didBecomeInvalidWithError(nil)` and the session stops following its events.
    /// The shared session cannot be invalidated (the service answers 409).
    public func finishTasksAndInvalidate() async throws {
        let id = try await self.core.sessionID()
        try await self.core.client.send("POST", "/v1/sessions/\(id)/finishTasksAndInvalidate")
    }

    /// `invalidateAndCancel()`: every task is cancelled (`URLError(.cancelled)`), then the session is invalid.
    public func invalidateAndCancel() async throws {
        let id = try await self.core.sessionID()
        try await self.core.client.send("POST", "/v1/sessions/\(id)/invalidateAndCancel")
    }

    /// `reset()`: empties the session's cookies, cache and credentials and closes its connections.
    public func reset() async throws {
        let id = try await self.core.sessionID()
        try await self.core.client.send("POST", "/v1/sessions/\(id)/reset")
    }

    /// `flush()`: writes the session's storage to disk and closes its idle connections.
    public func flush() async throws {
        let id = try await self.core.sessionID()
        try await self.core.client.send("POST", "/v1/sessions/\(id)/flush")
    }
}

extension SessionCore {
    /// The task objects for `wires`: the ones this client has, brought up to date, else new ones,
    /// registered so that their events reach them (and the session's delegate).
    func tasks(for wires: [WireTask]) -> [RemoteURLSessionTask] {
        wires.map { wire in
            if let entry = self.entries[wire.id] {
                entry.task.update(from: wire)
                return entry.task
            }
            let task = RemoteURLSessionTask.taskClass(ofKind: wire.kind).init(wire: wire, core: self)
            self.entries[wire.id] = Entry(task: task, delegate: nil, isConvenience: false)
            return task
        }
    }
}
