import TransferModels

/// Turns the errors handlers throw into problem+json; nil for errors that are the service's own fault.
enum ProblemMapping {
    static func problem(for error: any Error) -> Problem? {
        switch error {
        case let problem as Problem:
            return problem
        case let decoding as RequestDecodingError:
            return decodingProblem(decoding)
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
}
