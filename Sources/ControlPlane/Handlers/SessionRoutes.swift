import Foundation
import JSONCodec
import SessionTasks
import TransferModels

/// `/v1/sessions…`: create (and re-attach), read, list, the shared session, invalidation, flush, reset,
/// redeliver.
///
/// Every session object carries its delegate's `delivery` state read from the row when it is answered
/// (`DelegateDeliveryRecord`): the dispatcher writes it in batches that do not go through the session
/// cache, so a session with a delegate is never answered from that cache alone.
struct SessionRoutes {
    let sessions: SessionService
    let tasks: TaskService
    let cursors: PageCursors
    /// Bytes of the `configuration` member's JSON at most (`URLSESSIOND_MAX_SESSION_CONFIGURATION`).
    let maximumConfigurationSize: Int
    let encoded = EncodedSessionCache()

    var routes: [Route] {
        [
            Route("POST", "/v1/sessions", steps: [.authenticated, .idempotent]) { try await create($0) },
            Route("GET", "/v1/sessions", steps: [.authenticated]) { try await list($0) },
            Route("GET", "/v1/sessions/shared", steps: [.authenticated]) { request in
                try HTTPResponse.json(try await sessions.shared(tenant: request.tenant).wire(delivery: nil))
            },
            Route(
                "GET", "/v1/sessions/{id}", steps: [.authenticated],
                fast: { request in
                    // Served from the store's session cache on the HTTP thread when there is no webhook
                    // delegate whose delivery state must be read; a miss takes the async path.
                    guard let record = sessions.cachedSession(id: request.parameter("id"), tenant: request.tenant),
                        record.delegate?.isWebhook != true
                    else { return nil }
                    return try encodedResponse(record, delivery: nil)
                }
            ) { request in
                let record = try await session(request)
                return try encodedResponse(record, delivery: try await sessions.delivery(of: record))
            },
            Route("PATCH", "/v1/sessions/{id}", steps: [.authenticated]) { try await update($0) },
            Route("POST", "/v1/sessions/{id}/finishTasksAndInvalidate", steps: [.authenticated, .idempotent]) {
                try await invalidate($0, cancelTasks: false)
            },
            Route("POST", "/v1/sessions/{id}/invalidateAndCancel", steps: [.authenticated, .idempotent]) {
                try await invalidate($0, cancelTasks: true)
            },
            Route("POST", "/v1/sessions/{id}/flush", steps: [.authenticated, .idempotent]) { request in
                try await sessions.flush(try await session(request))
                return .noContent
            },
            Route("POST", "/v1/sessions/{id}/reset", steps: [.authenticated, .idempotent]) { request in
                try await sessions.reset(try await session(request))
                return .noContent
            },
            Route("POST", "/v1/sessions/{id}/redeliver", steps: [.authenticated, .idempotent]) { try await redeliver($0) },
        ]
    }

    private func create(_ request: HTTPRequest) async throws -> HTTPResponse {
        let validated = try request.decodeJSON(SessionCreateRequest.self).validated()
        try checkConfigurationSize(request)
        try checkEgress(ofDelegate: validated.delegate?.url)
        // A delegate in the client (no url) has no secret: nothing is signed for it.
        let generatedSecret = validated.delegate?.isWebhook == true && validated.clientSecret == nil ? WebhookSecret.generate() : nil
        let creation = try await sessions.create(
            tenant: request.tenant, request: validated, secret: validated.clientSecret ?? generatedSecret)
        switch creation {
        case .created(let record):
            var wire = record.wire(delivery: DelegateDeliveryRecord())  // nothing sent or failed yet
            wire.delegate?.secret = generatedSecret  // returned once, only when the service made it
            return try .json(wire, status: 201, headers: [("Location", "/v1/sessions/\(record.id)")])
        case .reattached(let record):
            return try .json(try await sessionObject(record), status: 200, headers: [("Location", "/v1/sessions/\(record.id)")])
        case .reattachedWithNewDelegate(let record):
            var wire = try await sessionObject(record)
            wire.delegate?.secret = generatedSecret  // the new delegate's secret, once, when the service made it
            return try .json(wire, status: 200, headers: [("Location", "/v1/sessions/\(record.id)")])
        }
    }

    /// A delegate URL at an address the egress policy refuses is 422 at once, naming the setting that
    /// would allow it: its webhooks could never be sent.
    private func checkEgress(ofDelegate url: String?) throws {
        guard let url, let reason = tasks.egressRefusal(of: url) else { return }
        throw Problem.invalidValue("delegate.url", "the egress policy refuses webhooks to it: \(reason)")
    }

    /// `PATCH /v1/sessions/{id}`: a merge patch of `delegate` and `sessionDescription` (see
    /// `SessionUpdateRequest`). A webhook delegate given without a secret keeps the stored one; one that
    /// had none (no delegate, or one in the client) gets a generated one, returned in this answer only.
    private func update(_ request: HTTPRequest) async throws -> HTTPResponse {
        let current = try await session(request)
        let patch = try request.decodeJSON(SessionUpdateRequest.self)
        if case .value(let delegate) = patch.delegate, case .value = delegate.secret, case .absent = delegate.url,
            current.delegate?.isWebhook != true
        {
            // A well-formed patch that this session's state cannot take: its delegate has no url to sign for.
            throw Problem.conflict("the session's delegate has no url (none, or one in the client): give the url with the secret")
        }
        let update = try patch.validated(current: current.delegate)
        if case .replaced(let delegate, _) = update.delegate { try checkEgress(ofDelegate: delegate.url) }
        if current.isShared {
            guard case .unchanged = update.delegate else {
                throw Problem.conflict("the shared session has no delegate (URLSession.shared)")
            }
        }
        guard let outcome = try await sessions.update(id: current.id, tenant: request.tenant, update: update) else {
            throw Problem.notFound("no session \(current.id)")
        }
        var wire = try await sessionObject(outcome.record)
        wire.delegate?.secret = outcome.generatedSecret
        return try .json(wire)
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
        let pagination = try request.pagination(cursors)
        let found = try await sessions.list(tenant: request.tenant, after: pagination.after, limit: pagination.limit)
        let items = found.map { $0.record.wire(delivery: $0.delivery) }
        return try .json(try pagination.page(items, last: found.last?.record.rowid))
    }

    private func session(_ request: HTTPRequest) async throws -> SessionRecord {
        try await SessionLookup.session(request, sessions)
    }

    /// The session object as answered, its delivery state read now.
    private func sessionObject(_ record: SessionRecord) async throws -> TransferSession {
        record.wire(delivery: try await sessions.delivery(of: record))
    }

    /// A 200 with the session's JSON, encoded once per state of the session and its delivery.
    private func encodedResponse(_ record: SessionRecord, delivery: DelegateDeliveryRecord?) throws -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json")], body: .bytes(try encoded.json(for: record, delivery: delivery)))
    }

    /// `POST /v1/sessions/{id}/redeliver` (no body, or `{}`): the delegate's undelivered events go again
    /// now, from the first one on. A retry wait, a hold and a 410 are forgotten, as when a `PATCH` gives
    /// the delegate a new address; with several nodes the one delivering the session does it.
    private func redeliver(_ request: HTTPRequest) async throws -> HTTPResponse {
        _ = try request.decodeJSON(EmptyRequest.self)
        let record = try await session(request)
        guard !record.isShared else { throw Problem.conflict("the shared session has no delegate (URLSession.shared)") }
        switch try await sessions.redeliver(sessionId: record.id, tenant: request.tenant) {
        case .restarted(let restarted):
            return try .json(try await sessionObject(restarted))
        case .noDelegate:
            throw Problem.conflict("the session has no delegate to deliver to")
        case .notFound:
            throw Problem.notFound("no session \(record.id)")
        }
    }

    /// `finishTasksAndInvalidate()` lets running tasks finish; `invalidateAndCancel()` cancels them. Either
    /// way the session takes no new task, and becomes `invalidated` when its last task completes.
    private func invalidate(_ request: HTTPRequest, cancelTasks: Bool) async throws -> HTTPResponse {
        let record = try await session(request)
        guard !record.isShared else {
            throw Problem.conflict("the shared session cannot be invalidated")
        }
        guard let updated = try await sessions.invalidate(record, cancellingTasks: cancelTasks) else {
            throw Problem.notFound("no session \(record.id)")
        }
        return try .json(try await sessionObject(updated))
    }
}

/// A body that must be absent or `{}`: any member is 400 `unknown-field`.
private struct EmptyRequest: Decodable {
    private enum NoMembers: CodingKey {}

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: NoMembers.self)
    }
}
