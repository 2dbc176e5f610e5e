import JSONCodec
import SessionTasks
import TransferModels

/// Turns the errors handlers throw into problem+json; nil for errors that are the service's own fault.
enum ProblemMapping {
    static func problem(for error: any Error) -> Problem? {
        switch error {
        case let problem as Problem:
            return problem
        case let decoding as RequestDecodingError:
            return decodingProblem(decoding)
        case let task as TaskStoreError:
            return taskProblem(task)
        case let exceeded as QuotaExceeded:
            return .quotaExceeded(exceeded)
        case let elsewhere as TaskOwnedElsewhere:
            // The node running the task did not answer a forwarded control call: the caller may try it there.
            return .conflict("the task runs on node \(elsewhere.node): control it there", slug: "task-on-another-node")
        default:
            return nil
        }
    }

    static func decodingProblem(_ error: RequestDecodingError) -> Problem {
        let (status, slug, title): (Int, String, String) =
            switch error.kind {
            case .malformedJSON: (400, "malformed-json", "Malformed JSON")
            case .unknownField: (400, "unknown-field", "Unknown Field")
            case .typeMismatch: (400, "type-mismatch", "Wrong Type")
            case .missingField: (422, "missing-field", "Missing Field")
            default: (422, "invalid-value", "Invalid Value")
            }
        return Problem(status: status, slug: slug, title: title, detail: error.detail, field: error.field)
    }

    static func taskProblem(_ error: TaskStoreError) -> Problem {
        switch error {
        case .sessionNotFound: .notFound("no such session")
        case .taskNotFound: .notFound("no such task")
        case .blobNotFound: Problem(status: 404, slug: "not-found", title: "Not Found", detail: "no such blob", field: "uploadSource.blob")
        case .sessionNotValid: .conflict("the session is invalidated or invalidating: it takes no new tasks")
        default: .conflict("the task cannot do that in its current state")
        }
    }
}
