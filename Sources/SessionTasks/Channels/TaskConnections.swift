import Foundation
import TransferEngine
public import TransferModels
import TransferStore

/// What the API does with the connections of running tasks, beside the task API (`tasks.connections`):
/// webSocket tasks' channels (send, receive, ping, cancel with a close code), stream tasks' (read, write,
/// the closes), the bodies of running data and upload tasks followed as they arrive, and the streams a
/// streamed upload's body is fed into.
///
/// The engine reports the channels and bodies to the task runner (`TaskRunner+WebSocket`, `+Stream`,
/// `+Bodies`), which checks them against the current attempt and keeps them.
public final class TaskConnections: Sendable {
    /// The runner, which keeps the channels and bodies its engine reports.
    let runner: TaskRunner

    init(runner: TaskRunner) {
        self.runner = runner
    }

    /// webSocket tasks' channels and stream tasks', open and recently ended.
    private var channels: ConnectionChannels { runner.channels }
    /// Readers of `/data` waiting for a running task's body to begin.
    private var bodyWaiters: CompletionWaiters { runner.waiters.bodies }

    // MARK: Bodies being received

    /// The body the task's current attempt is receiving; nil before its final response (or when it has
    /// no attempt in the engine: suspended, waiting, completed).
    public func receivingBody(of taskId: String) -> ReceivingBody? {
        runner.table.withLock { $0.entries[taskId]?.attempt?.body }.map(ReceivingBody.init)
    }

    /// Returns when the task's body begins, when a completion of it is written, at shutdown, or after
    /// `timeout`, whichever comes first (the caller looks again at what changed).
    public func waitForBody(of taskId: String, tenant: String, timeout: Duration) async throws {
        try await bodyWaiters.wait(for: taskId, timeout: timeout) { [store = runner.store] in
            guard self.receivingBody(of: taskId) == nil else { return true }
            let state = try await store.tasks.task(id: taskId, tenant: tenant)?.state
            return state == nil || state == .completed || state == .suspended
        }
    }

    // MARK: Streamed uploads

    /// The stream the tenant's task's attempt sends now, from memory only (`PUT …/body` asks on the HTTP
    /// thread); nil when it has none: not the tenant's, not a streamed upload, or no attempt under way
    /// (suspended, completed, just resumed and still starting).
    public func uploadStream(of taskId: String, tenant: String) -> StreamedUploadBody? {
        runner.table.withLock { state in
            guard let entry = state.entries[taskId], let attempt = entry.attempt ?? entry.prepared?.task,
                attempt.record.tenant == tenant
            else { return nil }
            return attempt.uploadStream.map(StreamedUploadBody.init)
        }
    }

    /// `uploadStream(of:tenant:)`, waiting while the task runs but its attempt has not started yet (a
    /// `PUT` right after `resume`): polled every 20 ms for at most `within`; a task not in memory is read
    /// from the store.
    public func uploadStreamOnceStarted(
        of taskId: String, tenant: String, within timeout: Duration
    ) async -> Result<StreamedUploadBody, StreamedBodyRefusal> {
        let deadline = ContinuousClock.now + timeout
        while true {  // bounded by the deadline
            if let stream = uploadStream(of: taskId, tenant: tenant) { return .success(stream) }
            guard let task = try? await runner.store.tasks.task(id: taskId, tenant: tenant) else { return .failure(.unknownTask) }
            let isStreamedUpload = task.uploadSource == .stream
            guard isStreamedUpload, task.state == .running, ContinuousClock.now < deadline else {
                return .failure(.notAwaitingBody(task.state, isStreamedUpload: isStreamedUpload))
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    // MARK: stream tasks

    /// The channel of a tenant's stream task: nil before it first ran (suspended) and once forgotten after
    /// it ended.
    /// - Throws: `TaskStoreError.taskNotFound` for another tenant's task, or one that is not a stream task.
    public func streamChannel(of taskId: String, tenant: String) async throws -> (TaskRecord, TaskStream?) {
        let task = try await runner.requireTask(taskId, tenant: tenant)
        guard task.kind == .stream else { throw TaskStoreError.taskNotFound }
        return (task, channels.streams.channel(of: taskId).map(TaskStream.init))
    }

    // MARK: webSocket tasks

    /// The channel of a tenant's webSocket task: nil before its connection opened (suspended, connecting)
    /// and once forgotten after it ended.
    /// - Throws: `TaskStoreError.taskNotFound` for another tenant's task, or one that is not a webSocket task.
    public func webSocketChannel(of taskId: String, tenant: String) async throws -> (TaskRecord, TaskWebSocket?) {
        let task = try await runner.requireTask(taskId, tenant: tenant)
        guard task.kind == .webSocket else { throw TaskStoreError.taskNotFound }
        return (task, channels.webSockets.channel(of: taskId).map(TaskWebSocket.init))
    }

    /// The channel, waiting up to `wait` (looked for every 50 ms, while `proceeding()`) when the task is
    /// running and its connection is still being made: URLSession queues a send, a ping or a receive made
    /// between `resume()` and the open, rather than failing it.
    public func webSocketChannel(
        of taskId: String, tenant: String, waiting wait: Duration, while proceeding: () -> Bool = { true }
    ) async throws -> (TaskRecord, TaskWebSocket?) {
        var (task, channel) = try await webSocketChannel(of: taskId, tenant: tenant)
        let deadline = ContinuousClock.now + wait
        while channel == nil, task.state == .running, proceeding(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            (task, channel) = try await webSocketChannel(of: taskId, tenant: tenant)
        }
        return (task, channel)
    }

    /// `cancel(with:reason:)`: the close handshake with `closeCode` and `reason`; the peer's close frame
    /// completes the task without an error (a task not connected yet completes cancelled, as `cancel()`).
    public func cancelWebSocket(taskId: String, tenant: String, closeCode: Int, reason: String) async throws -> TaskRecord {
        let task = try await runner.requireTask(taskId, tenant: tenant)
        guard task.kind == .webSocket, let attempt = runner.table.withLock({ $0.entries[taskId]?.lifecycle.transferringAttempt })
        else {
            return try await runner.control(task, .cancel(producingResumeData: false))
        }
        // Before the lifecycle's stop, through the same inbox: the loop then ignores the stop.
        runner.engine.closeWebSocket(TransferID(taskId: taskId, attempt: attempt), code: closeCode, reason: reason)
        do {
            return try await runner.control(task, .cancel(producingResumeData: false))
        } catch let error as TaskStoreError where error == .invalidStateTransition {
            // The peer answered the close before the lifecycle heard of the cancel: the task completed, as asked.
            return try await runner.waitForCompletion(of: taskId, tenant: tenant, timeout: .seconds(5))
        }
    }
}

/// Why `PUT /v1/tasks/{id}/body` finds no stream to write into.
public enum StreamedBodyRefusal: Error, Sendable, Equatable {
    /// No task of the tenant with this id is known here.
    case unknownTask
    /// The task is the tenant's but takes no streamed body now (not running, or not a streamed upload).
    case notAwaitingBody(TaskState, isStreamedUpload: Bool)
}
