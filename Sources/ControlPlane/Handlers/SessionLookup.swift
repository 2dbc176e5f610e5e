import SessionTasks
import TransferModels

/// The session named by a route's `{id}`: `shared` is the tenant's shared session; another tenant's is 404.
enum SessionLookup {
    static func session(_ request: HTTPRequest, _ sessions: SessionService) async throws -> SessionRecord {
        try await session(id: request.parameter("id"), request, sessions)
    }

    /// The session `id` of the request's tenant (a `sessionId` in a body or query).
    static func session(id: String, _ request: HTTPRequest, _ sessions: SessionService) async throws -> SessionRecord {
        guard let record = try await sessions.session(id: id, tenant: request.tenant) else {
            throw Problem.notFound("no session \(id)")
        }
        return record
    }
}
