import SessionTasks
import TransferModels

/// `/v1/sessions/{id}/cache`: the session's `URLCache` — capacities and usage, `cachedResponse(for:)`,
/// `removeCachedResponse(for:)`, and `removeCachedResponses(since:)` / `removeAllCachedResponses()`.
struct CacheRoutes {
    let sessions: SessionService

    var routes: [Route] {
        [
            Route("GET", "/v1/sessions/{id}/cache", steps: [.authenticated]) { try await usage($0) },
            Route("DELETE", "/v1/sessions/{id}/cache", steps: [.authenticated]) { try await removeAll($0) },
            Route("GET", "/v1/sessions/{id}/cache/entry", steps: [.authenticated]) { try await entry($0) },
            Route("DELETE", "/v1/sessions/{id}/cache/entry", steps: [.authenticated]) { try await removeEntry($0) },
        ]
    }

    private func usage(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        return try .json(try await sessions.cacheUsage(of: session))
    }

    private func removeAll(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        try await sessions.removeCachedResponses(of: session, since: try StorageQuery.since(request))
        return .noContent
    }

    private func entry(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let url = try StorageQuery.url(request)
        guard let cached = try await sessions.cachedResponse(of: session, for: url) else {
            throw Problem.notFound("no cached response for \(url)")
        }
        return try .json(cached)
    }

    private func removeEntry(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let url = try StorageQuery.url(request)
        guard try await sessions.removeCachedResponse(of: session, for: url) else {
            throw Problem.notFound("no cached response for \(url)")
        }
        return .noContent
    }
}
