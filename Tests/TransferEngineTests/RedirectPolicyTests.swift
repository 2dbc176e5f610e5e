import Testing
import TransferEngine

@Suite("URLSession's redirect rules")
struct RedirectPolicyTests {
    private func request(_ method: String, body: Bool = true) -> OutgoingRequest {
        OutgoingRequest(
            url: "https://a.example/start?x=1", method: method,
            headers: [("Authorization", "Bearer s"), ("Content-Type", "application/json"), ("X-Keep", "1")],
            body: body ? .bytes(Array("{}".utf8)) : .none)
    }

    @Test(arguments: [
        (301, "POST", "GET"), (302, "POST", "GET"), (303, "POST", "GET"), (307, "POST", "POST"), (308, "POST", "POST"),
        (301, "PUT", "PUT"), (302, "PUT", "PUT"), (303, "PUT", "GET"), (307, "PUT", "PUT"), (308, "PUT", "PUT"),
        (301, "GET", "GET"), (303, "HEAD", "HEAD"), (303, "DELETE", "GET"), (308, "DELETE", "DELETE"),
        (302, "PATCH", "PATCH"), (303, "PATCH", "GET"),
    ])
    func methodRules(status: Int, method: String, expected: String) throws {
        let next = try #require(RedirectPolicy.nextRequest(status: status, location: "/next", request: request(method)))
        #expect(next.method == expected)
        #expect(next.url == "https://a.example/next")
        if expected == "GET" && method != "GET" {
            #expect(next.body == .none)
            #expect(!next.headers.contains { $0.name == "Content-Type" })
        } else {
            #expect(next.body == request(method).body)
        }
    }

    @Test(arguments: [300, 304, 200, 404, 305, 306])
    func notFollowed(status: Int) {
        #expect(RedirectPolicy.nextRequest(status: status, location: "/next", request: request("GET")) == nil)
    }

    @Test func noLocationOrUnfollowableLocation() {
        #expect(RedirectPolicy.nextRequest(status: 302, location: nil, request: request("GET")) == nil)
        #expect(RedirectPolicy.nextRequest(status: 302, location: "ftp://a.example/x", request: request("GET")) == nil)
        #expect(RedirectPolicy.nextRequest(status: 302, location: "file:///etc/passwd", request: request("GET")) == nil)
    }

    @Test func credentialsNeverCrossOrigins() throws {
        let same = try #require(RedirectPolicy.nextRequest(status: 302, location: "https://a.example:443/x", request: request("GET")))
        #expect(same.headers.contains { $0.name == "Authorization" })
        for target in ["https://b.example/x", "http://a.example/x", "https://a.example:8443/x"] {
            let other = try #require(RedirectPolicy.nextRequest(status: 307, location: target, request: request("GET")))
            #expect(!other.headers.contains { $0.name == "Authorization" }, "leaked to \(target)")
            #expect(other.headers.contains { $0.name == "X-Keep" })
        }
    }

    @Test func parsesResponseHeadsLineByLine() {
        var head = ResponseHead()
        for line in [
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/2 200\r\n", "Content-Type: text/plain\r\n",
            "Set-Cookie: a=1\r\n", "set-cookie: b=2\r\n", "X-Folded: one\r\n", " two\r\n",
        ] {
            _ = head.consume(line: line)
        }
        let ended = head.consume(line: "\r\n")
        #expect(ended)
        #expect(head.statusCode == 200)
        #expect(head.httpVersion == "HTTP/2")
        #expect(head.value("content-type") == "text/plain")
        #expect(head.allHeaderFields["Set-Cookie"] == "a=1, b=2")
        #expect(head.allHeaderFields["X-Folded"] == "one two")
    }
}
