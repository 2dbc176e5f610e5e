import Foundation
import TestSupport
import Testing

/// `/v1/sessions/{id}/cookies`: `HTTPCookieStorage`'s list, `cookies(for:)`, `setCookies`, removals.
@Suite("Cookies API")
struct CookiesAPITests {
    static func items(_ response: TestHTTPResponse) throws -> [[String: Any]] {
        try #require(try response.json()["items"] as? [[String: Any]], "\(response.text)")
    }

    @Test(.timeLimit(.minutes(1)))
    func listsWhatTransfersKeptAndWhatIsSet() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "ephemeral"])
            _ = try await CookiesTests.fetch(api, session, origin.url("/cookies/set?a=1"))
            let listed = try Self.items(try await api.get("/v1/sessions/\(session)/cookies"))
            #expect(listed.count == 1)
            let cookie = try #require(listed.first)
            #expect(cookie["name"] as? String == "a" && cookie["value"] as? String == "1")
            #expect(cookie["domain"] as? String == "127.0.0.1" && cookie["path"] as? String == "/")
            #expect(cookie["isSessionOnly"] as? Bool == true && isNull(cookie["expiresDate"]) && isNull(cookie["portList"]))

            let body = #"""
                {"url": "https://shop.example.com/cart", "cookies": [
                  {"name": "host", "value": "1"},
                  {"name": "wide", "value": "2", "domain": ".example.com", "path": "/", "isSecure": true,
                   "expiresDate": "2099-01-01T00:00:00Z", "sameSitePolicy": "Lax"},
                  {"name": "suffix", "value": "3", "domain": ".com"}]}
                """#
            let set = try await api.post("/v1/sessions/\(session)/cookies", json: body)
            #expect(set.status == 200, "\(set.text)")
            #expect(try Self.items(set).compactMap { $0["name"] as? String }.sorted() == ["host", "wide"], "not for a public suffix")

            let forShop = try Self.items(try await api.get("/v1/sessions/\(session)/cookies?url=https%3A%2F%2Fshop.example.com%2F"))
            #expect(forShop.compactMap { $0["name"] as? String } == ["host", "wide"])
            let forWww = try Self.items(try await api.get("/v1/sessions/\(session)/cookies?url=http%3A%2F%2Fwww.example.com%2F"))
            #expect(forWww.isEmpty, "wide is Secure; host is for shop only")
            let wide = try #require(forShop.last)
            #expect(wide["domain"] as? String == ".example.com" && wide["sameSitePolicy"] as? String == "lax")
            #expect(wide["expiresDate"] as? String == "2099-01-01T00:00:00.000Z" && wide["isSessionOnly"] as? Bool == false)

            let paged = try await api.get("/v1/sessions/\(session)/cookies?limit=2")
            #expect(try Self.items(paged).count == 2)
            let cursor = try #require(try paged.json()["nextCursor"] as? String)
            #expect(try Self.items(try await api.get("/v1/sessions/\(session)/cookies?limit=2&after=\(cursor)")).count == 1)

            #expect(try await api.delete("/v1/sessions/\(session)/cookie?name=wide&domain=.example.com").status == 204)
            expectProblem(
                try await api.delete("/v1/sessions/\(session)/cookie?name=wide&domain=example.com"), status: 404, slug: "not-found")
            #expect(try await api.delete("/v1/sessions/\(session)/cookies?since=2000-01-01T00:00:00Z").status == 204)
            #expect(try Self.items(try await api.get("/v1/sessions/\(session)/cookies")).isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theAcceptPolicyAndBadInput() async throws {
        try await withTaskService { api, _ in
            let never = try await api.makeSession(["kind": "ephemeral", "httpCookieAcceptPolicy": "never"])
            let body = #"{"url": "https://example.com/", "cookies": [{"name": "a", "value": "1"}]}"#
            #expect(try Self.items(try await api.post("/v1/sessions/\(never)/cookies", json: body)).isEmpty)

            let session = try await api.makeSession(["kind": "ephemeral"])
            let thirdParty = #"""
                {"url": "https://ads.example.net/", "mainDocumentURL": "https://news.example.com/",
                 "cookies": [{"name": "t", "value": "1"}]}
                """#
            #expect(try Self.items(try await api.post("/v1/sessions/\(session)/cookies", json: thirdParty)).isEmpty)

            let noDomain = #"{"cookies": [{"name": "a", "value": "1"}]}"#
            expectProblem(
                try await api.post("/v1/sessions/\(session)/cookies", json: noDomain), status: 422, slug: "missing-field",
                field: "cookies[0].domain")
            let badName = #"{"url": "https://example.com/", "cookies": [{"name": "a;b", "value": "1"}]}"#
            expectProblem(
                try await api.post("/v1/sessions/\(session)/cookies", json: badName), status: 422, slug: "invalid-value",
                field: "cookies[0].name")
            expectProblem(
                try await api.get("/v1/sessions/\(session)/cookies?url=ftp%3A%2F%2Fx%2F"), status: 422, slug: "invalid-value", field: "url")
            expectProblem(
                try await api.delete("/v1/sessions/\(session)/cookies?since=yesterday"), status: 422, slug: "invalid-value", field: "since")
        }
    }
}
