import Foundation
import JSONCodec
import SessionTasks
import TransferModels
import TransferStore

/// `/v1/sessions/{id}/cookies`: the session's `HTTPCookieStorage` — list (`cookies`, `cookies(for:)`),
/// `setCookies(_:for:mainDocumentURL:)`, `removeCookies(since:)`, and `deleteCookie(_:)` of one.
struct CookieRoutes {
    let store: TransferStore
    let tasks: TaskService

    var routes: [Route] {
        [
            Route("GET", "/v1/sessions/{id}/cookies") { try await list($0) },
            Route("POST", "/v1/sessions/{id}/cookies") { try await set($0) },
            Route("DELETE", "/v1/sessions/{id}/cookies") { try await removeAll($0) },
            Route("DELETE", "/v1/sessions/{id}/cookie") { try await removeOne($0) },
        ]
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, store: store)
        let (limit, after) = try request.pagination()
        let url = request.queryValue("url")
        if let url, !Self.isHTTPURL(url) { throw Problem.invalidValue("url", "must be an absolute http or https URL") }
        let all = try await tasks.cookies(of: session, for: url)
        let start = min(all.count, Int(clamping: after ?? 0))
        let page = Array(all[start..<min(all.count, start + limit)])
        let next = Cursor.next(count: page.count, limit: limit, last: Int64(start + page.count))
        return try .json(Page(items: page, nextCursor: next))
    }

    private func set(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, store: store)
        let body = try request.decodeJSON(SetCookiesRequest.self)
        let cookies = try body.validated(now: Date())
        let stored = try await tasks.setCookies(cookies, mainDocumentURL: body.mainDocumentURL, in: session)
        return try .json(Page(items: stored, nextCursor: nil))
    }

    private func removeAll(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, store: store)
        var since: Date?
        if let text = request.queryValue("since") {
            guard let date = try? StrictJSONDecoder().decode(Date.self, from: JSONValue.string(text)) else {
                throw Problem.invalidValue("since", "must be an RFC 3339 date-time")
            }
            since = date
        }
        try await tasks.removeCookies(of: session, since: since)
        return .noContent
    }

    private func removeOne(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = try await SessionLookup.session(request, store: store)
        guard let name = request.queryValue("name") else { throw RequestDecodingError.missingField("name") }
        guard let domain = request.queryValue("domain"), !domain.isEmpty else { throw RequestDecodingError.missingField("domain") }
        let path = request.queryValue("path") ?? "/"
        guard try await tasks.removeCookie(of: session, name: name, domain: domain, path: path) else {
            throw Problem.notFound("no cookie \(name) for \(domain)\(path)")
        }
        return .noContent
    }

    private static func isHTTPURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return false }
        return scheme == "http" || scheme == "https"
    }
}
