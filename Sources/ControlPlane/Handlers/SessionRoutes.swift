import Foundation
import JSONCodec
import SessionTasks
import TransferModels
import TransferStore

/// `/v1/sessions…`: create (and re-attach), read, list, the shared session, invalidation, flush, reset.
struct SessionRoutes {
    let store: TransferStore
    let tasks: TaskService
    /// Bytes of the `configuration` member's JSON at most (`URLSESSIOND_MAX_SESSION_CONFIGURATION`).
    let maximumConfigurationSize: Int
    let encoded = EncodedSessionCache()

    var routes: [Route] {
        [
            Route("POST", "/v1/sessions") { try await create($0) },
            Route("GET", "/v1/sessions") { try await list($0) },
            Route("GET", "/v1/sessions/shared") { request in
                try HTTPResponse.json(try await store.sharedSession(tenant: request.tenant).wire)
            },
            Route(
                "GET", "/v1/sessions/{id}",
                fast: { request in
                    // Served from the store's session cache on the HTTP thread; a miss takes the async path.
                    guard let record = store.cachedSession(id: request.parameter("id"), tenant: request.tenant) else { return nil }
                    let json = try encoded.json(for: record)
                    return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(json))
                }
            ) { request in
                try HTTPResponse.json(try await session(request).wire)
            },
            Route("POST", "/v1/sessions/{id}/finishTasksAndInvalidate") { try await invalidate($0, cancelTasks: false) },
            Route("POST", "/v1/sessions/{id}/invalidateAndCancel") { try await invalidate($0, cancelTasks: true) },
            Route("POST", "/v1/sessions/{id}/flush") { request in
                try await tasks.flush(try await session(request))
                return .noContent
            },
            Route("POST", "/v1/sessions/{id}/reset") { request in
                try await tasks.reset(try await session(request))
                return .noContent
            },
        ]
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let validated = try request.decodeJSON(SessionCreateRequest.self).validated()
        try checkConfigurationSize(request)
        let generatedSecret = validated.delegate != nil && validated.clientSecret == nil ? WebhookSecret.generate() : nil
        let creation = try await store.createSession(
            tenant: request.tenant, request: validated, secret: validated.clientSecret ?? generatedSecret)
        switch creation {
        case .created(let record):
            var wire = record.wire
            wire.delegate?.secret = generatedSecret  // returned once, only when the service made it
            return try .json(wire, status: 201, headers: [("Location", "/v1/sessions/\(record.id)")])
        case .reattached(let record):
            return try .json(record.wire, status: 200, headers: [("Location", "/v1/sessions/\(record.id)")])
        }
    }

    /// Every session's configuration is kept, cached and sent with each of its reads: its size is bounded
    /// (measured as compact JSON, so the client's whitespace does not count).
    private func checkConfigurationSize(_ request: HTTPRequest) throws {
        guard let configuration = (try? JSONParser.parse(request.body))?["configuration"] else { return }
        let size = configuration.serialized().count
        guard size > maximumConfigurationSize else { return }
        throw Problem(
            status: 413, slug: "payload-too-large", title: "Payload Too Large",
            detail: "the configuration is \(size) bytes of JSON, more than the limit of \(maximumConfigurationSize)",
            field: "configuration")
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let (limit, after) = try request.pagination()
        let records = try await store.sessions(tenant: request.tenant, after: after, limit: limit)
        let next = Cursor.next(count: records.count, limit: limit, last: records.last?.rowid)
        return try .json(Page(items: records.map(\.wire), nextCursor: next))
    }

    private func session(_ request: HTTPRequest) async throws -> SessionRecord {
        try await SessionLookup.session(request, store: store)
    }

    /// `finishTasksAndInvalidate()` lets running tasks finish; `invalidateAndCancel()` cancels them. Either
    /// way the session takes no new task, and becomes `invalidated` when its last task completes.
    private func invalidate(_ request: HTTPRequest, cancelTasks: Bool) async throws -> HTTPResponse {
        let record = try await session(request)
        guard !record.isShared else {
            throw Problem.conflict("the shared session cannot be invalidated")
        }
        guard let (_, unfinished) = try await store.beginInvalidation(id: record.id, tenant: request.tenant) else {
            throw Problem.notFound("no session \(record.id)")
        }
        try await tasks.invalidated(record)
        if cancelTasks {
            for taskId in unfinished {
                _ = try? await tasks.cancel(taskId: taskId, tenant: request.tenant)  // one already finishing is fine
            }
        }
        guard let updated = try await store.session(id: record.id, tenant: request.tenant) else {
            throw Problem.notFound("no session \(record.id)")
        }
        return try .json(updated.wire)
    }
}
