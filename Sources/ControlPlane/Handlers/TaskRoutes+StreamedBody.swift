import SessionTasks
import TransferEngine
import TransferModels
import TransferStore

// `PUT /v1/tasks/{id}/body`: a streamed upload's body (`uploadTask(withStreamedRequest:)`), chunked or
// with a length, passed to the origin as it arrives (`StreamedRequestBody`); 204 once the last byte is
// passed on. Again after `task.needNewBodyStream`, from the start.
extension TaskRoutes {
    /// Where the body goes, decided from memory on the HTTP thread before any byte of it is read; a
    /// task that is not running now is looked up in the store (404, or 409 with its state).
    func streamedBody(of request: HTTPRequest) -> Route.BodyDestination {
        let id = request.parameters["id"] ?? ""
        guard ResourceID.isWellFormed(id, prefix: "tsk") else { return .refused(.notFound("no task \(id)")) }
        switch tasks.uploadStream(of: id, tenant: request.tenant) {
        case .success(let stream):
            return .stream(stream)
        case .failure(.notAwaitingBody(let state, let isStreamedUpload)):
            return .refused(Self.notAwaitingBody(id, state: state, isStreamedUpload: isStreamedUpload))
        case .failure(.unknownTask):
            let (tasks, tenant) = (self.tasks, request.tenant)
            return .later {
                guard let task = try? await tasks.requireTask(id, tenant: tenant) else { return .notFound("no task \(id)") }
                return Self.notAwaitingBody(id, state: task.state, isStreamedUpload: task.uploadSource == .stream)
            }
        }
    }

    private static func notAwaitingBody(_ id: String, state: TaskState, isStreamedUpload: Bool) -> Problem {
        guard isStreamedUpload else { return .conflict("task \(id) is not a streamed upload (uploadSource.stream)") }
        return .conflict("task \(id) is \(state.rawValue): its body is sent while it runs (resume it first)")
    }
}
