/// What a node's store has committed about tasks since it opened (`TaskActivity`'s counts), for `/metrics`.
public struct TaskCounts: Sendable {
    public var created: [TaskKey: Int] = [:]
    public var completed: [Completion: Int] = [:]
    /// Bytes received and sent by the tasks that completed, by tenant.
    public var bytesReceived: [String: Int64] = [:]
    public var bytesSent: [String: Int64] = [:]

    public init() {}

    /// How a task ended: `success`, `cancelled` (NSURLErrorCancelled), or `failed`, with its
    /// NSURLErrorDomain code (0 on success; another domain's error counts as `failed` with code 0).
    public struct Completion: Hashable, Sendable {
        public var tenant: String
        public var kind: TaskKind
        public var outcome: String
        public var code: Int

        public init(tenant: String, kind: TaskKind, outcome: String, code: Int) {
            (self.tenant, self.kind, self.outcome, self.code) = (tenant, kind, outcome, code)
        }
    }

    public struct TaskKey: Hashable, Sendable {
        public var tenant: String
        public var kind: TaskKind

        public init(tenant: String, kind: TaskKind) { (self.tenant, self.kind) = (tenant, kind) }
    }
}
