public import JSONCodec

/// The body of `PATCH /v1/tasks/{id}`, a JSON merge patch of the task: only `rateLimit` may change (a limit,
/// or `null` for none of its own); the member is required, since a patch changing nothing is a mistake.
public struct TaskUpdateRequest: Decodable, Sendable {
    public var rateLimit: Nullable<RateLimitInput>

    /// The task's new own limit (nil: none), or the field at fault.
    public func validated(kind: TaskKind) throws(RequestDecodingError) -> RateLimit? {
        switch rateLimit {
        case .absent: throw .missingField("rateLimit", "is required: the task's new limit, or null for none")
        case .null: return nil
        case .value(let input):
            guard kind.isRateLimited else {
                throw .invalidValue("rateLimit", "only data, download and upload tasks have a rate limit")
            }
            return try input.validated(at: "rateLimit")
        }
    }
}
