import Foundation
import TestSupport
import Testing

/// Cookies through transfers: kept from every response of a task (a 302 included) and sent with the
/// next request, per storage scope, tenant and policy. Against the real binary and the fixture origin.
@Suite("Cookies")
struct CookiesTests {
    /// The cookies the origin received, from a task that fetched `/cookies`.
    static func received(_ api: API, _ task: [String: Any]) async throws -> [String: String] {
        #expect(task.errorCode == nil, "\(task)")
        let data = try await api.taskData(task.taskID)
        return try #require(try data.json()["cookies"] as? [String: String], "\(data.text)")
    }

    static func fetch(_ api: API, _ session: String, _ url: String, _ request: [String: Any] = [:]) async throws -> [String: Any] {
        var request = request
        request["url"] = url
        return try await api.runTask(session: session, ["kind": "data", "request": request])
    }

    @Test(.timeLimit(.minutes(1)))
    func aCookieSetOnARedirectGoesWithTheNextHop() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let cookie = "hop=1; Path=/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let task = try await Self.fetch(api, session, origin.url("/redirect/302?to=/cookies&cookie=\(cookie)"))
            #expect(try await Self.received(api, task) == ["hop": "1"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func sharedStorageIsTheTenantsAndPrivateStorageTheSessions() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, service in
            let first = try await api.makeSession()
            _ = try await Self.fetch(api, first, origin.url("/cookies/set?a=1"))
            let second = try await api.makeSession()  // default: the tenant's shared storage
            #expect(try await Self.received(api, try await Self.fetch(api, second, origin.url("/cookies"))) == ["a": "1"])

            let ephemeral = try await api.makeSession(["kind": "ephemeral"])
            #expect(try await Self.received(api, try await Self.fetch(api, ephemeral, origin.url("/cookies"))) == [:])
            _ = try await Self.fetch(api, ephemeral, origin.url("/cookies/set?e=1"))
            #expect(try await Self.received(api, try await Self.fetch(api, ephemeral, origin.url("/cookies"))) == ["e": "1"])
            let otherEphemeral = try await api.makeSession(["kind": "ephemeral"])
            #expect(try await Self.received(api, try await Self.fetch(api, otherEphemeral, origin.url("/cookies"))) == [:])
            #expect(try await Self.received(api, try await Self.fetch(api, second, origin.url("/cookies"))) == ["a": "1"])

            let tenantB = API(service, api.client, token: Tokens.tenantB)
            let theirs = try await tenantB.makeSession()
            #expect(try await Self.received(tenantB, try await Self.fetch(tenantB, theirs, origin.url("/cookies"))) == [:])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func withoutHandlingCookiesNoneIsSentOrKept() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let shared = try await api.makeSession()
            _ = try await Self.fetch(api, shared, origin.url("/cookies/set?a=1"))

            let off = try await api.makeSession(["httpShouldSetCookies": false])
            #expect(try await Self.received(api, try await Self.fetch(api, off, origin.url("/cookies"))) == [:])
            _ = try await Self.fetch(api, off, origin.url("/cookies/set?b=2"))
            let unhandled = try await Self.fetch(api, shared, origin.url("/cookies"), ["httpShouldHandleCookies": false])
            #expect(try await Self.received(api, unhandled) == [:], "the request's own switch")
            #expect(try await Self.received(api, try await Self.fetch(api, shared, origin.url("/cookies"))) == ["a": "1"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func acceptPolicyNeverKeepsNoneButSendsWhatIsStored() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let shared = try await api.makeSession()
            _ = try await Self.fetch(api, shared, origin.url("/cookies/set?a=1"))
            let never = try await api.makeSession(["httpCookieAcceptPolicy": "never"])
            _ = try await Self.fetch(api, never, origin.url("/cookies/set?b=2"))
            #expect(try await Self.received(api, try await Self.fetch(api, never, origin.url("/cookies"))) == ["a": "1"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCookieHeaderTheRequestSetsGoesAsGiven() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            _ = try await Self.fetch(api, session, origin.url("/cookies/set?a=1"))
            let task = try await Self.fetch(
                api, session, origin.url("/cookies"), ["allHTTPHeaderFields": ["Cookie": "mine=9"]])
            #expect(try await Self.received(api, task) == ["mine": "9"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func maxAgeZeroDeletesAndPathsAreMatched() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "ephemeral"])
            _ = try await Self.fetch(api, session, origin.url("/cookies/set?a=1&b=2"))
            _ = try await Self.fetch(api, session, origin.url("/cookies/delete?a"))
            #expect(try await Self.received(api, try await Self.fetch(api, session, origin.url("/cookies"))) == ["b": "2"])
            let scoped = "p=1; Path=/cookies/deeper".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await Self.fetch(api, session, origin.url("/redirect/302?to=/echo&cookie=\(scoped)"))
            #expect(try await Self.received(api, try await Self.fetch(api, session, origin.url("/cookies"))) == ["b": "2"])
        }
    }
}

extension CookiesTests {
    @Test(.timeLimit(.minutes(1)))
    func resetEmptiesTheSessionsStorage() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "ephemeral"])
            _ = try await Self.fetch(api, session, origin.url("/cookies/set?a=1"))
            #expect(try await api.post("/v1/sessions/\(session)/reset").status == 204)
            #expect(try await Self.received(api, try await Self.fetch(api, session, origin.url("/cookies"))) == [:])
        }
    }
}

extension CookiesTests {
    @Test(.timeLimit(.minutes(1)))
    func anInvalidatedSessionsPrivateStorageGoesAndTheSharedOneStays() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let shared = try await api.makeSession()
            _ = try await Self.fetch(api, shared, origin.url("/cookies/set?a=1"))
            #expect(try await api.post("/v1/sessions/\(shared)/finishTasksAndInvalidate").status == 200)
            let later = try await api.makeSession()
            #expect(try await Self.received(api, try await Self.fetch(api, later, origin.url("/cookies"))) == ["a": "1"])
        }
    }
}

extension CookiesTests {
    /// `onlyFromMainDocumentDomain` (the default policy): a response of another site than the request's
    /// `mainDocumentURL` sets no cookie; one of the same site does.
    @Test(.timeLimit(.minutes(1)))
    func onlyFromMainDocumentDomainKeepsTheMainDocumentsSiteOnly() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "ephemeral"])
            let thirdParty = try await Self.fetch(
                api, session, origin.url("/cookies/set?tracker=1"), ["mainDocumentURL": "https://news.example.com/article"])
            #expect((thirdParty["originalRequest"] as? [String: Any])?["mainDocumentURL"] as? String == "https://news.example.com/article")
            _ = try await Self.fetch(api, session, origin.url("/cookies/set?own=1"), ["mainDocumentURL": origin.url("/page")])
            #expect(try await Self.received(api, try await Self.fetch(api, session, origin.url("/cookies"))) == ["own": "1"])

            let always = try await api.makeSession(["kind": "ephemeral", "httpCookieAcceptPolicy": "always"])
            _ = try await Self.fetch(
                api, always, origin.url("/cookies/set?any=1"), ["mainDocumentURL": "https://news.example.com/article"])
            #expect(try await Self.received(api, try await Self.fetch(api, always, origin.url("/cookies"))) == ["any": "1"])

            let refused = try await api.postTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/cookies"), "mainDocumentURL": "not a url"]])
            expectProblem(refused, status: 422, slug: "invalid-value", field: "request.mainDocumentURL")
        }
    }
}

extension CookiesTests {
    /// RFC 6265bis §5.6 (§5.7 in later drafts) step 1: a Set-Cookie line holding a control character is
    /// ignored, and only it: the response completes with its header fields, and its other cookies are kept.
    /// (Not a NUL: libcurl fails a response with one in any header field, -1011, as RFC 9110 §5.5 allows.)
    @Test(.timeLimit(.minutes(1)))
    func aSetCookieLineWithAControlCharacterIsIgnoredAlone() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "ephemeral"])
            let task = try await Self.fetch(api, session, origin.url("/cookies/set?good=1&bell=x%07y&delete=x%7Fy&after=2"))
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.statusCode == 200)
            let fields = try #require(task.responseObject?["allHeaderFields"] as? [String: Any])
            #expect((fields["Set-Cookie"] as? String)?.contains("bell=x\u{07}y") == true, "\(fields)")
            let sent = try await Self.received(api, try await Self.fetch(api, session, origin.url("/cookies")))
            #expect(sent == ["good": "1", "after": "2"])
        }
    }
}

extension CookiesTests {
    /// RFC 6265 §5.1.4: the request-path is the path sent. libcurl sends `/cookies/../echo` as `/echo`, so
    /// a cookie for `/echo` goes with it.
    @Test(.timeLimit(.minutes(1)))
    func aCookieMatchesThePathAsSentWithoutItsDotSegments() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["kind": "ephemeral"])
            let cookie = "c=1; Path=/echo".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await Self.fetch(api, session, origin.url("/redirect/302?to=/status/204&cookie=\(cookie)"))
            let task = try await Self.fetch(api, session, origin.url("/cookies/../echo"))
            #expect(task.errorCode == nil, "\(task)")
            let echo = try await api.taskData(task.taskID).json()
            #expect(echo["path"] as? String == "/echo")
            #expect((echo["headers"] as? [String: Any])?["cookie"] as? String == "c=1")
        }
    }
}
