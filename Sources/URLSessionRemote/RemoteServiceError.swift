/// The service refused a call (an RFC 9457 problem): a bad token, an unknown task, a conflict such as
/// resuming a completed task. Transfer failures are not this: they are `URLError`, as in URLSession.
public struct RemoteServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The HTTP status of the answer (401, 404, 409, 422, ...).
    public let status: Int
    /// The problem's stable `type` (a URI whose last component is a slug such as `not-found`), when given.
    public let type: String?
    public let title: String?
    public let detail: String?
    /// The dotted path of the offending field, for validation problems.
    public let field: String?

    public init(status: Int, type: String? = nil, title: String? = nil, detail: String? = nil, field: String? = nil) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.field = field
    }

    public var description: String {
        var text = "urlsessiond answered \(self.status)"
        if let title = self.title { text += " \(title)" }
        if let detail = self.detail { text += ": \(detail)" }
        if let field = self.field { text += " (field \(field))" }
        return text
    }
}
