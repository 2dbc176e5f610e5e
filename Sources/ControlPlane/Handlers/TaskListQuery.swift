import SessionTasks
import TransferModels

/// `GET /v1/sessions/{id}/tasks`'s parameters, checked, and the key its answer is kept under.
struct TaskListQuery {
    var pagination: Pagination
    var kind: TaskKind?
    var state: TaskState?
    /// Names the answer: the tenant and the path (its cursors are bound to both), the session (`shared` is
    /// one per tenant) and every parameter.
    var key: String

    init(_ request: HTTPRequest, sessionId: String, cursors: PageCursors) throws {
        pagination = try request.pagination(cursors)
        kind = try request.queryValue("kind").map { text in
            guard let kind = TaskKind(rawValue: text) else { throw Problem.invalidValue("kind", "must be data, download or upload") }
            return kind
        }
        state = try request.queryValue("state").map { text in
            guard let state = TaskState(rawValue: text) else {
                throw Problem.invalidValue("state", "must be running, suspended, canceling or completed")
            }
            return state
        }
        let after = pagination.after.map(String.init) ?? ""
        key = [request.tenant, pagination.list, sessionId, kind?.rawValue ?? "", state?.rawValue ?? "", after, String(pagination.limit)]
            .joined(separator: "\u{0}")
    }
}
