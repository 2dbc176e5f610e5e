import Foundation
import JSONCodec
import SessionTasks
import TransferModels

extension TaskRoutes {
    /// `PATCH /v1/tasks/{id}` `{"rateLimit": … | null}`: the task's own bandwidth limit, which its running
    /// transfer takes without starting again. 404 for another tenant's task, 409 once completed or canceling,
    /// 422 for an invalid limit (naming the field) or a kind without one (webSocket, stream).
    func updateRateLimit(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameter("id")
        let patch = try request.decodeJSON(TaskUpdateRequest.self)
        let task = try await tasks.requireTask(id, tenant: request.tenant)
        let limit = try patch.validated(kind: task.kind)
        guard task.state == .running || task.state == .suspended else {
            throw Problem.conflict("the task is \(task.state.rawValue): its rate limit no longer changes")
        }
        return try .json(wire(try await tasks.updateRateLimit(taskId: id, tenant: request.tenant, to: limit)))
    }
}
