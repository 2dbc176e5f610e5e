import SessionTasks
import TransferModels

// `PUT /v1/tasks/{id}/body`: a streamed upload's body (`uploadTask(withStreamedRequest:)`), chunked or
// with a length, passed to the origin as it arrives (`StreamedRequestBody`); 204 once the last byte is
// passed on. Again after `task.needNewBodyStream`, from the start.
extension TaskRoutes {
    /// Where the body goes, decided from memory on the HTTP thread before any byte of it is read. A task
    /// whose attempt is not there yet (just resumed, still starting) is waited for, and one that is not
    /// running is looked up in the store (404, or 409 with its state), off that thread.
    func streamedBody(of request: HTTPRequest) -> Route.BodyDestination {
        let id = request.parameters["id"] ?? ""
        guard ResourceID.isWellFormed(id, prefix: "tsk") else { return .refused(.notFound("no task \(id)")) }
        if let stream = tasks.connections.uploadStream(of: id, tenant: request.tenant) { return .stream(stream) }
        let (tasks, tenant) = (self.tasks, request.tenant)
        return .later {
            switch await tasks.connections.uploadStreamOnceStarted(of: id, tenant: tenant, within: Self.startWait) {
            case .success(let stream): .success(stream)
            case .failure(.unknownTask): .failure(.notFound("no task \(id)"))
            case .failure(.notAwaitingBody(let state, let isStreamedUpload)):
                .failure(Self.notAwaitingBody(id, state: state, isStreamedUpload: isStreamedUpload))
            }
        }
    }

    /// How long a `PUT` waits for a resumed task's attempt to start before it is refused (409).
    static let startWait: Duration = .seconds(30)

    private static func notAwaitingBody(_ id: String, state: TaskState, isStreamedUpload: Bool) -> Problem {
        guard isStreamedUpload else { return .conflict("task \(id) is not a streamed upload (uploadSource.stream)") }
        return .conflict("task \(id) is \(state.rawValue): its body is sent while it runs (resume it first)")
    }
}
