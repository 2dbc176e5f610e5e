/// A step that acts once the head is read and none of the body: it refuses (a problem) or passes on (nil),
/// having perhaps filled in the request (its principal) or bounded its body. It runs on the HTTP thread:
/// it never blocks and never awaits.
public protocol HeadStep: Sendable {
    func admit(_ head: inout RequestHead) -> Problem?
}

/// A step that acts once the whole request is in, around the handler (Hummingbird's `RouterMiddleware`):
/// it answers, or passes the request on to `next` — the route's further steps, then its handler.
public protocol RouteMiddleware: Sendable {
    func respond(to request: HTTPRequest, next: Route.Handler) async throws -> HTTPResponse
}

/// What the head steps see and decide: the request as read so far, and a bound on its body.
public struct RequestHead: Sendable {
    public var request: HTTPRequest
    /// Set by a `.quota` step: the body stops (and the request is refused) once it would pass this quota.
    public var bodyQuota: BodyQuota?

    public init(request: HTTPRequest, bodyQuota: BodyQuota? = nil) {
        self.request = request
        self.bodyQuota = bodyQuota
    }
}
