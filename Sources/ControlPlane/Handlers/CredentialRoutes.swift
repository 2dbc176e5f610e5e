import SessionTasks
import TransferModels

/// `/v1/credentials`: `URLCredentialStorage` — `set(_:for:)`, the stored credentials (of the tenant's
/// shared storage, or with `?sessionId=` of a session's private one), one by id, `remove(_:for:)`, and
/// `setDefaultCredential(_:for:)`. Secrets go in and never come out.
struct CredentialRoutes {
    let cursors: PageCursors
    let sessions: SessionService

    var routes: [Route] {
        [
            Route("POST", "/v1/credentials", steps: [.authenticated, .idempotent]) { try await create($0) },
            Route("GET", "/v1/credentials", steps: [.authenticated]) { try await list($0) },
            Route("PUT", "/v1/credentials/default", steps: [.authenticated]) { try await setDefault($0) },
            Route("GET", "/v1/credentials/{id}", steps: [.authenticated]) { try await get($0) },
            Route("DELETE", "/v1/credentials/{id}", steps: [.authenticated]) { try await remove($0) },
        ]
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.decodeJSON(CredentialCreateRequest.self)
        var session: SessionRecord?
        if let id = body.sessionId { session = try await SessionLookup.session(id: id, request, sessions) }
        if let session, session.configuration.urlCredentialStorage != .private {
            // A well-formed request this session's configuration cannot take: it has no storage of its own.
            throw Problem.conflict(
                "the session's urlCredentialStorage is \(session.configuration.urlCredentialStorage.rawValue): store the "
                    + "credential without sessionId (shared), or create the session with private storage")
        }
        let created = try await sessions.createCredential(body, tenant: request.tenant, session: session)
        return try .json(created, status: 201, headers: [("Location", "/v1/credentials/\(created.id)")])
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let pagination = try request.pagination(cursors)
        var session: SessionRecord?
        if let id = request.queryValue("sessionId") { session = try await SessionLookup.session(id: id, request, sessions) }
        var port: Int?
        if let text = request.queryValue("port") {
            guard let value = Int(text), (1...65_535).contains(value) else { throw Problem.invalidValue("port", "must be 1...65535") }
            port = value
        }
        let host = request.queryValue("host")?.lowercased()
        let scheme = request.queryValue("protocol")?.lowercased()
        let realm = request.queryValue("realm")
        let method = request.queryValue("authenticationMethod")
        let matches = { (space: ProtectionSpace) -> Bool in
            guard host == nil || space.host == host, port == nil || space.port == port else { return false }
            guard scheme == nil || space.protocol == scheme, realm == nil || space.realm == realm else { return false }
            return method == nil || space.authenticationMethod == method
        }
        let all: [CredentialObject] = try await sessions.credentials(tenant: request.tenant, session: session, matching: matches)
        return try .json(try pagination.page(of: all))
    }

    private func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameter("id")
        guard let credential = try await sessions.credential(id: id, tenant: request.tenant) else {
            throw Problem.notFound("no credential \(id)")
        }
        return try .json(credential)
    }

    private func remove(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = request.parameter("id")
        guard try await sessions.removeCredential(id: id, tenant: request.tenant) else { throw Problem.notFound("no credential \(id)") }
        return .noContent
    }

    private func setDefault(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.decodeJSON(DefaultCredentialRequest.self)
        guard let credential = try await sessions.setDefaultCredential(id: body.id, tenant: request.tenant) else {
            throw Problem.notFound("no credential \(body.id)")
        }
        return try .json(credential)
    }

}
