public import TransferStore

/// Everything the control plane may reach, as one value: the task and session APIs, and the reads and
/// keys beside them. The control plane's only door to the service — it knows neither the store nor the
/// engine; the composition root (`URLSessionService`) makes this value from both.
public struct ApplicationLayer: Sendable {
    /// The task API (create, control, wait), its files, networks and connections.
    public let tasks: TaskService
    /// Tasks as read for the API: one task, lists, kept bodies, resume data.
    public let queries: TaskQueries
    /// Sessions' and tasks' events, as pages and as hints that more were written.
    public let events: EventQueries
    /// Each tenant's usage and quotas.
    public let usage: TenantUsages
    /// This node, its store and the other nodes.
    public let nodes: NodeStatus
    /// The `Idempotency-Key` claims and kept answers.
    public let idempotency: IdempotencyKeys
    /// The lists' `?after=` cursors.
    public let cursors: PageCursors

    public init(store: TransferStore, tasks: TaskService) {
        self.tasks = tasks
        queries = TaskQueries(store: store)
        events = EventQueries(store: store)
        usage = TenantUsages(store: store)
        nodes = NodeStatus(store: store)
        idempotency = IdempotencyKeys(store: store)
        cursors = PageCursors(store: store)
    }

    /// The session API and the storages' (`tasks.sessions`).
    public var sessions: SessionService { tasks.sessions }
}
