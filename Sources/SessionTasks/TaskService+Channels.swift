public import TransferEngine
import TransferModels
public import TransferStore

// The channels of running tasks — webSocket messages, stream reads and writes, streamed upload bodies,
// bodies as they arrive — as the runner holds them.
extension TaskService {
    public func webSocketChannel(of taskId: String, tenant: String) async throws -> (TaskRecord, WebSocketChannel?) {
        try await runner.webSocketChannel(of: taskId, tenant: tenant)
    }

    public func webSocketChannel(
        of taskId: String, tenant: String, waiting wait: Duration, while proceeding: () -> Bool = { true }
    ) async throws -> (TaskRecord, WebSocketChannel?) {
        try await runner.webSocketChannel(of: taskId, tenant: tenant, waiting: wait, while: proceeding)
    }

    public func cancelWebSocket(taskId: String, tenant: String, closeCode: Int, reason: String) async throws -> TaskRecord {
        try await runner.cancelWebSocket(taskId: taskId, tenant: tenant, closeCode: closeCode, reason: reason)
    }

    public func streamChannel(of taskId: String, tenant: String) async throws -> (TaskRecord, StreamChannel?) {
        try await runner.streamChannel(of: taskId, tenant: tenant)
    }

    public func uploadStream(of taskId: String, tenant: String) -> UploadStream? {
        runner.uploadStream(of: taskId, tenant: tenant)
    }

    public func uploadStreamOnceStarted(
        of taskId: String, tenant: String, within timeout: Duration
    ) async -> Result<UploadStream, StreamedBodyRefusal> {
        await runner.uploadStreamOnceStarted(of: taskId, tenant: tenant, within: timeout)
    }

    public func receivingBody(of taskId: String) -> GrowingBody? {
        runner.receivingBody(of: taskId)
    }

    public func waitForBody(of taskId: String, tenant: String, timeout: Duration) async throws {
        try await runner.waitForBody(of: taskId, tenant: tenant, timeout: timeout)
    }
}
