import Foundation
import JSONCodec
import SessionTasks
import TransferModels

/// `/v1/sessions/{id}/cookies`: the session's `HTTPCookieStorage` — list (`cookies`, `cookies(for:)`),
/// `setCookies(_:for:mainDocumentURL:)`, `removeCookies(since:)`, and `deleteCookie(_:)` of one.
struct CookieRoutes {
    let cursors: PageCursors
    let sessions: SessionService

    var routes: [Route] {
        [
            Route("GET", "/v1/sessions/{id}/cookies", steps: [.authenticated]) { try await list($0) },
            Route("POST", "/v1/sessions/{id}/cookies", steps: [.authenticated, .idempotent]) { try await set($0) },
            Route("DELETE", "/v1/sessions/{id}/cookies", steps: [.authenticated]) { try await removeAll($0) },
            Route("DELETE", "/v1/sessions/{id}/cookie", steps: [.authenticated]) { try await removeOne($0) },
        ]
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let pagination = try request.pagination(cursors)
        let url = request.queryValue("url")
        if let url, !StorageQuery.isHTTPURL(url) { throw Problem.invalidValue("url", "must be an absolute http or https URL") }
        return try .json(try pagination.page(of: try await sessions.cookies(of: session, for: url)))
    }

    private func set(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        let body = try request.decodeJSON(SetCookiesRequest.self)
        let cookies = try body.validated(now: Date())
        let stored = try await sessions.setCookies(cookies, mainDocumentURL: body.mainDocumentURL, in: session)
        return try .json(Page(items: stored, nextCursor: nil))
    }

    private func removeAll(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        try await sessions.removeCookies(of: session, since: try StorageQuery.since(request))
        return .noContent
    }

    private func removeOne(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, sessions)
        guard let name = request.queryValue("name") else { throw RequestDecodingError.missingField("name") }
        guard let domain = request.queryValue("domain"), !domain.isEmpty else { throw RequestDecodingError.missingField("domain") }
        let path = request.queryValue("path") ?? "/"
        guard try await sessions.removeCookie(of: session, name: name, domain: domain, path: path) else {
            throw Problem.notFound("no cookie \(name) for \(domain)\(path)")
        }
        return .noContent
    }

}
