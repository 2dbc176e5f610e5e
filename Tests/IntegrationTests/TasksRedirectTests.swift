import Foundation
import TestSupport
import Testing

/// URLSession's redirect rules, end to end: which codes are followed, how the method and body change,
/// the 16-redirect limit, `currentRequest` versus `originalRequest`, and credentials across origins.
@Suite("Tasks: redirects")
struct TasksRedirectTests {
    /// A request body the methods that carry one send, so the origin's digest shows whether it survived.
    static let body = Array("name=urlsessiond&payload=\(String(repeating: "0123456789", count: 50))".utf8)

    /// `/redirect/{code}?to=<path>` on `origin`, with `to` percent-encoded.
    static func redirect(_ origin: FixtureOrigin, code: Int, to target: String) -> String {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        return origin.url("/redirect/\(code)?to=\(encoded)")
    }

    /// The method URLSession sends after a `code` redirect of a `method` request.
    static func methodAfterRedirect(_ code: Int, _ method: String) -> String {
        switch code {
        case 301, 302: method == "POST" ? "GET" : method
        case 303: method == "HEAD" ? "HEAD" : "GET"
        default: method
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: [301, 302, 303, 307, 308])
    func methodAndBodyFollowTheRulesOfEachCode(code: Int) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            for method in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] {
                let hasBody = method != "GET" && method != "HEAD"
                let tag = "\(code)-\(method)"
                var request: [String: Any] = [
                    "url": Self.redirect(origin, code: code, to: "/echo?case=\(tag)"), "httpMethod": method,
                ]
                if hasBody {
                    request["httpBody"] = ["base64": Data(Self.body).base64EncodedString()]
                    request["allHTTPHeaderFields"] = ["Content-Type": "application/x-www-form-urlencoded"]
                }
                let task = try await api.runTask(session: session, ["kind": "data", "request": request])
                #expect(task.errorCode == nil, "\(tag): \(task)")
                #expect(task.statusCode == 200, "\(tag): \(task)")

                let expectedMethod = Self.methodAfterRedirect(code, method)
                let keepsBody = hasBody && expectedMethod == method
                let seen = origin.requests(path: "/echo").filter { $0.query == "case=\(tag)" }
                try #require(seen.count == 1, "\(tag): the origin saw \(seen.count) requests for /echo")
                #expect(seen[0].method == expectedMethod, "\(tag)")
                #expect(seen[0].bodySize == (keepsBody ? Self.body.count : 0), "\(tag)")
                #expect(seen[0].bodySHA256 == sha256Hex(keepsBody ? Self.body : []), "\(tag)")
                if !keepsBody {
                    #expect(seen[0].header("Content-Type") == nil, "\(tag): a GET without a body keeps no Content-Type")
                }
                if method != "HEAD" {
                    // The echo body is what the task delivered: the same method and digest as recorded.
                    let echo = try await api.echo(of: task.taskID)
                    #expect(echo.method == expectedMethod, "\(tag)")
                    #expect(echo.bodySHA256 == sha256Hex(keepsBody ? Self.body : []), "\(tag)")
                }
                #expect(task.responseObject?["url"] as? String == origin.url("/echo?case=\(tag)"), "\(tag)")
                #expect((task["originalRequest"] as? [String: Any])?["httpMethod"] as? String == method, "\(tag)")
            }
        }
    }

    /// 300 and 304 are answers, not redirects; 305 `Use Proxy` is deprecated (an origin must not choose the
    /// client's proxy, RFC 9110 §15.4.6) and 306 is reserved (§15.4.7): none is followed.
    @Test(.timeLimit(.minutes(2)), arguments: [300, 304, 305, 306])
    func multipleChoicesNotModifiedUseProxyAndUnusedAreNotFollowed(code: Int) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = Self.redirect(origin, code: code, to: "/echo")
            for method in ["GET", "POST"] {
                var request: [String: Any] = ["url": url, "httpMethod": method]
                if method == "POST" { request["httpBody"] = ["text": "a=1"] }
                let task = try await api.runTask(session: session, ["kind": "data", "request": request])
                #expect(task.errorCode == nil, "\(task)")
                #expect(task.statusCode == code, "\(method): \(task)")
                #expect(task.responseHeader("Location") == "/echo")
                #expect(task.currentURL == url)
                let metrics = try await api.taskMetrics(task.taskID)
                #expect(int(metrics["redirectCount"]) == 0)
                #expect((metrics["transactionMetrics"] as? [Any])?.count == 1)
            }
            #expect(origin.requests(path: "/echo").isEmpty, "a \(code) was followed")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func sixteenRedirectsAreFollowedAndTheSeventeenthFails() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let sixteen = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/16")]])
            #expect(sixteen.errorCode == nil, "\(sixteen)")
            #expect(sixteen.statusCode == 200)
            let hops = try await api.taskData(sixteen.taskID).json()
            #expect(int(hops["hops"]) == 16)
            #expect(sixteen.responseObject?["url"] as? String == origin.url("/redirect-chain/0?hops=16"))
            let metrics = try await api.taskMetrics(sixteen.taskID)
            #expect(int(metrics["redirectCount"]) == 16)
            #expect((metrics["transactionMetrics"] as? [Any])?.count == 17)

            origin.clearRequests()
            let seventeen = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": origin.url("/redirect-chain/17")]])
            #expect(seventeen.state == "completed")
            #expect(seventeen.errorCode == -1007, "\(seventeen)")
            #expect(seventeen.errorObject?["name"] as? String == "httpTooManyRedirects")
            #expect(seventeen.errorObject?["domain"] as? String == "NSURLErrorDomain")
            // The 17th redirect is refused, not requested: 17 requests reached the origin.
            #expect(origin.requests.count == 17)
            #expect(origin.requests(path: "/redirect-chain/0").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func currentRequestFollowsTheRedirectAndOriginalRequestStays() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let first = Self.redirect(origin, code: 302, to: "/redirect/307?to=%2Fecho%3Fstep%3D2")
            let task = try await api.runTask(session: session, ["kind": "data", "request": ["url": first]])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.originalURL == first)
            #expect(task.currentURL == origin.url("/echo?step=2"), "currentRequest did not follow: \(task)")
            #expect(task.responseObject?["url"] as? String == origin.url("/echo?step=2"))
            #expect(task.statusCode == 200)

            let metrics = try await api.taskMetrics(task.taskID)
            #expect(int(metrics["redirectCount"]) == 2)
            let transactions = try #require(metrics["transactionMetrics"] as? [[String: Any]])
            try #require(transactions.count == 3, "\(transactions)")
            let urls = transactions.map { ($0["request"] as? [String: Any])?["url"] as? String }
            #expect(urls == [first, origin.url("/redirect/307?to=%2Fecho%3Fstep%3D2"), origin.url("/echo?step=2")])

            // The method and body of currentRequest are the ones sent after the redirect.
            for (code, keeps) in [(303, false), (302, false), (307, true)] {
                let url = Self.redirect(origin, code: code, to: "/echo?after=\(code)")
                let post = try await api.runTask(
                    session: session,
                    [
                        "kind": "data",
                        "request": [
                            "url": url, "httpMethod": "POST",
                            "httpBody": ["base64": Data(Self.body).base64EncodedString()],
                        ],
                    ])
                #expect(post.errorCode == nil, "\(post)")
                #expect(post.originalURL == url)
                let original = try #require(post["originalRequest"] as? [String: Any])
                #expect(original["httpMethod"] as? String == "POST")
                #expect(original["httpBody"] != nil)
                let current = try #require(post["currentRequest"] as? [String: Any])
                #expect(
                    current["url"] as? String == origin.url("/echo?after=\(code)"),
                    "\(code): currentRequest did not follow")
                #expect(
                    current["httpMethod"] as? String == (keeps ? "POST" : "GET"), "\(code): currentRequest.httpMethod")
                #expect((current["httpBody"] != nil) == keeps, "\(code): currentRequest.httpBody")
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func authorizationDoesNotTravelToAnotherOrigin() async throws {
        let first = try FixtureOrigin.start()
        defer { first.stop() }
        let other = try FixtureOrigin.start()
        defer { other.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["httpAdditionalHeaders": ["X-Session-Header": "s"]])
            let url = first.url("/absolute-redirect-to-port?port=\(other.port)&path=/echo")
            let headers = ["Authorization": "Bearer origin-secret", "X-Custom": "kept"]
            let task = try await api.runTask(
                session: session, ["kind": "data", "request": ["url": url, "allHTTPHeaderFields": headers]])
            #expect(task.errorCode == nil, "\(task)")
            #expect(task.statusCode == 200)
            #expect(task.responseObject?["url"] as? String == other.url("/echo"))

            // The first origin got the credentials it was sent to.
            let sent = try #require(first.requests(path: "/absolute-redirect-to-port").first)
            #expect(sent.header("Authorization") == "Bearer origin-secret")
            // The other origin never saw them; the other fields went along.
            let received = try #require(other.requests(path: "/echo").first)
            #expect(received.header("Authorization") == nil, "Authorization leaked to \(other.baseURL)")
            #expect(received.header("X-Custom") == "kept")
            #expect(received.header("X-Session-Header") == "s")
            let echo = try await api.echo(of: task.taskID)
            #expect(echo.headers["authorization"] == nil)

            // The same through /redirect/302 with an absolute Location.
            other.clearRequests()
            let viaRedirect = try await api.runTask(
                session: session,
                [
                    "kind": "data",
                    "request": [
                        "url": Self.redirect(first, code: 302, to: other.url("/echo")),
                        "allHTTPHeaderFields": ["authorization": "Basic dXNlcjpwYXNz"],
                    ],
                ])
            #expect(viaRedirect.errorCode == nil, "\(viaRedirect)")
            let again = try #require(other.requests(path: "/echo").first)
            #expect(again.header("Authorization") == nil, "Authorization leaked to \(other.baseURL)")

            // Credentials from the session's httpAdditionalHeaders stay behind as well.
            other.clearRequests()
            let credentialed = try await api.makeSession([
                "httpAdditionalHeaders": ["Authorization": "Bearer session-secret"]
            ])
            let fromSession = try await api.runTask(session: credentialed, ["kind": "data", "request": ["url": url]])
            #expect(fromSession.errorCode == nil, "\(fromSession)")
            #expect(
                first.requests(path: "/absolute-redirect-to-port").last?.header("Authorization")
                    == "Bearer session-secret")
            let third = try #require(other.requests(path: "/echo").first)
            #expect(third.header("Authorization") == nil, "the session's Authorization leaked to \(other.baseURL)")
        }
    }
}
