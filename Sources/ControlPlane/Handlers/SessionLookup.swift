import TransferStore

/// The session named by a route's `{id}`: `shared` is the tenant's shared session; another tenant's is 404.
enum SessionLookup {
    static func session(_ request: HTTPRequest, store: TransferStore) async throws -> SessionRecord {
        let id = request.parameter("id")
        if id == "shared" { return try await store.sharedSession(tenant: request.tenant) }
        guard let record = try await store.session(id: id, tenant: request.tenant) else {
            throw Problem.notFound("no session \(id)")
        }
        return record
    }
}
