import Crypto
import Foundation
import TestSupport
import Testing

/// The fixture origin itself, checked with libcurl (``HTTPClient``) and raw sockets before engine tests use it.
@Suite("Fixture origin")
struct FixtureOriginTests {
    let client = HTTPClient()

    @Test(.timeLimit(.minutes(1)))
    func bytesAreDeterministicWithValidators() async throws {
        let origin = try FixtureOrigin.start()
        // Pinned from an independent SplitMix64 (Python), so other languages can reproduce `/bytes`.
        #expect(hex(FixtureOrigin.bytes(count: 12, seed: 0)) == "afcd1d7b39a820e2f465b9a1")
        #expect(hex(FixtureOrigin.bytes(count: 12, seed: 7)) == "d70d3259e4e1cb631c663cf4")

        let response = try await client.send(.get(origin.url("/bytes/1000000?seed=42")))
        #expect(response.status == 200)
        #expect(sha256(response.body) == "7e939c70812e1755340b654f0ba2a4b7a68f7adf1b0308051dd97e68b9b2c21a")
        #expect(response.body == FixtureOrigin.bytes(count: 1_000_000, seed: 42))
        #expect(response.header("Content-Length") == "1000000")
        #expect(response.header("Content-Type") == "application/octet-stream")
        #expect(response.header("ETag") == #""bytes-1000000-42""#)
        #expect(response.header("Accept-Ranges") == "bytes")
        #expect(response.header("Last-Modified") == "Wed, 21 Oct 2015 07:28:00 GMT")

        let head = try await client.send(.head(origin.url("/bytes/100?etag=v9")))
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("Content-Length") == "100" && head.header("ETag") == #""v9""#)
        #expect(try await client.send(.get(origin.url("/nowhere"))).status == 404)
    }

    @Test(.timeLimit(.minutes(1)))
    func rangesIfRangeAndUnsatisfiable() async throws {
        let origin = try FixtureOrigin.start()
        let url = origin.url("/bytes/1000?seed=3")
        let all = FixtureOrigin.bytes(count: 1000, seed: 3)
        let get = { (headers: [(String, String)]) in try await client.send(.get(url, headers: headers)) }

        let middle = try await get([("Range", "bytes=10-19")])
        #expect(middle.status == 206 && middle.header("Content-Range") == "bytes 10-19/1000")
        #expect(middle.body == Array(all[10..<20]))
        #expect(try await get([("Range", "bytes=990-")]).body == Array(all[990...]))
        #expect(try await get([("Range", "bytes=-5")]).body == Array(all[995...]))
        let matching = try await get([("Range", "bytes=500-"), ("If-Range", #""bytes-1000-3""#)])
        #expect(matching.status == 206 && matching.body == Array(all[500...]))
        let stale = try await get([("Range", "bytes=500-"), ("If-Range", #""other""#)])
        #expect(stale.status == 200 && stale.body == all)
        let oldDate = try await get([("Range", "bytes=500-"), ("If-Range", "Thu, 01 Jan 2015 00:00:00 GMT")])
        #expect(oldDate.status == 200 && oldDate.body.count == 1000)
        let beyond = try await get([("Range", "bytes=1000-")])
        #expect(beyond.status == 416 && beyond.header("Content-Range") == "bytes */1000")
        let ignored = try await client.send(.get(url + "&noRanges=1", headers: [("Range", "bytes=0-9")]))
        #expect(ignored.status == 200 && ignored.body == all && ignored.header("Accept-Ranges") == nil)
        #expect(try await get([("If-None-Match", #""bytes-1000-3""#)]).status == 304)
    }

    @Test(.timeLimit(.minutes(1)))
    func mutableResourceChangesItsValidator() async throws {
        let origin = try FixtureOrigin.start()
        origin.setResource("doc", body: Array("version one".utf8), etag: #""v1""#, lastModified: nil)
        let resume = [("Range", "bytes=8-"), ("If-Range", #""v1""#)]
        let partial = try await client.send(.get(origin.url("/resource/doc"), headers: resume))
        #expect(partial.status == 206 && partial.text == "one")

        origin.setResource("doc", body: Array("version two!".utf8), etag: #""v2""#, lastModified: nil)
        let whole = try await client.send(.get(origin.url("/resource/doc"), headers: resume))
        #expect(whole.status == 200 && whole.text == "version two!" && whole.header("ETag") == #""v2""#)
        #expect(try await client.send(.get(origin.url("/resource/missing"))).status == 404)
    }

    @Test(.timeLimit(.minutes(1)))
    func chunkedAndThrottledBodies() async throws {
        let origin = try FixtureOrigin.start()
        let chunked = try await client.send(.get(origin.url("/bytes/50000?seed=1&chunked=1")))
        #expect(chunked.header("Transfer-Encoding") == "chunked" && chunked.header("Content-Length") == nil)
        #expect(chunked.body == FixtureOrigin.bytes(count: 50000, seed: 1))

        // 40,000 bytes at 100,000 B/s are due over 0.4 s (the first tenth goes at once).
        let started = ContinuousClock.now
        let throttled = try await client.send(.get(origin.url("/bytes/40000?rate=100000")))
        let elapsed = ContinuousClock.now - started
        #expect(throttled.body == FixtureOrigin.bytes(count: 40000, seed: 0))
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(20), "took \(elapsed)")
    }

    @Test(.timeLimit(.minutes(1)))
    func statusesAndRedirects() async throws {
        let origin = try FixtureOrigin.start()
        let other = try FixtureOrigin.start()
        let failure = try await client.send(.delete(origin.url("/status/503")))
        #expect(failure.status == 503 && failure.text == "503")
        #expect(try await client.send(.get(origin.url("/status/204"))).body.isEmpty)
        let challenge = try await client.send(.get(origin.url("/status/401")))
        #expect(challenge.header("WWW-Authenticate") == #"Basic realm="fixture""#)

        let redirect = try await client.send(.get(origin.url("/redirect/307?to=%2Fbytes%2F10")))
        #expect(redirect.status == 307 && redirect.header("Location") == "/bytes/10")
        var next = "/redirect-chain/3"
        var hops = 0
        while hops < 10 {
            let response = try await client.send(.get(origin.url(next)))
            guard response.status == 302, let location = response.header("Location") else { break }
            next = location
            hops += 1
        }
        #expect(hops == 3 && next == "/redirect-chain/0?hops=3")
        #expect(try await client.send(.get(origin.url(next))).json()["hops"] as? Int == 3)
        let cross = try await client.send(.get(origin.url("/absolute-redirect-to-port?port=\(other.port)&path=/e")))
        #expect(cross.status == 302 && cross.header("Location") == other.url("/e"))
    }

    @Test(.timeLimit(.minutes(1)))
    func echoAndUploadDigestBodies() async throws {
        let origin = try FixtureOrigin.start()
        let small = FixtureOrigin.bytes(count: 1000, seed: 5)
        let echoed = try await client.send(
            .post(origin.url("/echo?a=1"), body: small, contentType: "application/x-test", headers: [("X-One", "1")]))
        let json = try echoed.json()
        #expect(json["method"] as? String == "POST" && json["path"] as? String == "/echo")
        #expect(json["query"] as? String == "a=1" && json["bodySize"] as? Int == 1000)
        #expect(json["bodySHA256"] as? String == sha256(small))
        #expect((json["bodyBase64"] as? String).flatMap { Data(base64Encoded: $0) } == Data(small))
        let headers = try #require(json["headers"] as? [String: String])
        #expect(headers["content-type"] == "application/x-test" && headers["x-one"] == "1")

        let large = FixtureOrigin.bytes(count: 3 << 20, seed: 6)
        let uploaded = try await client.send(.put(origin.url("/upload"), body: large, contentType: "x/y")).json()
        #expect(uploaded["bodySize"] as? Int == large.count && uploaded["bodySHA256"] as? String == sha256(large))
        #expect(uploaded["bodyBase64"] == nil)
        #expect(origin.requests(path: "/upload").first?.bodySHA256 == sha256(large))

        // Chunked framing and `Expect: 100-continue`, which curl would hide.
        let chunked =
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n"
            + "Connection: close\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
        let reply = try await raw(Array(chunked.utf8), to: origin)
        #expect(reply.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"))
        #expect(reply.contains(#""bodySize":11"#) && reply.contains(sha256(Array("hello world".utf8))))
        // A rejected upload is answered before its body, instead of 100 Continue.
        let rejected = "PUT /status/413 HTTP/1.1\r\nHost: x\r\nContent-Length: 99999\r\nExpect: 100-continue\r\n\r\n"
        let refusal = try await raw(Array(rejected.utf8), to: origin)
        #expect(refusal.hasPrefix("HTTP/1.1 413 ") && !refusal.contains("100 Continue"))
        #expect(origin.requests(path: "/status/413").first?.bodyComplete == false)
    }

    @Test(.timeLimit(.minutes(1)))
    func slowStalledAndBrokenResponses() async throws {
        let origin = try FixtureOrigin.start()
        var started = ContinuousClock.now
        let drip = try await client.send(.get(origin.url("/drip?bytes=5&interval=0.1")))
        #expect(drip.text == "*****" && ContinuousClock.now - started >= .milliseconds(400))
        started = ContinuousClock.now
        #expect(try await client.send(.get(origin.url("/slow-headers?delay=0.5"))).text == "ok\n")
        #expect(ContinuousClock.now - started >= .milliseconds(450))

        let stall = TestHTTPRequest(method: "GET", url: origin.url("/stall?bytes=100&total=1000"), timeout: 0.5)
        await #expect(throws: HTTPClientError.self) { try await client.send(stall) }
        #expect(try await curlCode(origin.url("/stall?bytes=100"), timeout: 0.5) == 28)
        #expect(try await curlCode(origin.url("/truncated?length=1000&send=400")) == 18)
        #expect(try await curlCode(origin.url("/truncated?length=1000&send=400&chunked=1")) == 18)
        #expect(try await curlCode(origin.url("/close")) == 52)
        #expect(try await [52, 56].contains(curlCode(origin.url("/reset"))))
        #expect(try await curlCode(origin.url("/garbage")) != nil)
        // The stalled connections end once their clients give up.
        try await eventually(timeout: 10) { origin.openConnections == 0 }
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["gzip", "deflate", "br", "zstd"])
    func contentCodingsDecodeToTheAdvertisedText(coding: String) async throws {
        let origin = try FixtureOrigin.start()
        let response = try await client.send(.get(origin.url("/encoded/\(coding)?size=20000")))
        try #require(response.status == 200, "\(response.text)")
        let text = FixtureOrigin.text(count: 20000)
        #expect(response.header("Content-Encoding") == coding)
        #expect(response.header("X-Decoded-Length") == "20000")
        #expect(response.header("X-Decoded-SHA256") == sha256(text))
        #expect(response.body.count < text.count / 4, "lorem ipsum compresses well")
        #expect(try decode(response.body, coding: coding) == text)
    }

    @Test(.timeLimit(.minutes(1)))
    func cookiesAuthenticationCacheAndHeads() async throws {
        let origin = try FixtureOrigin.start()
        let set = try await client.send(.get(origin.url("/cookies/set?a=1&b=two")))
        #expect(set.headers(named: "Set-Cookie") == ["a=1; Path=/", "b=two; Path=/"])
        let sent = try await client.send(.get(origin.url("/cookies"), headers: [("Cookie", "a=1; b=two")])).json()
        #expect(sent["cookies"] as? [String: String] == ["a": "1", "b": "two"])

        let anonymous = try await client.send(.get(origin.url("/basic-auth/alice/secret")))
        #expect(anonymous.status == 401 && anonymous.header("WWW-Authenticate") == #"Basic realm="fixture""#)
        let wrong = [("Authorization", "Basic " + Data("alice:nope".utf8).base64EncodedString())]
        #expect(try await client.send(.get(origin.url("/basic-auth/alice/secret"), headers: wrong)).status == 401)
        let right = [("Authorization", "Basic " + Data("alice:secret".utf8).base64EncodedString())]
        let granted = try await client.send(.get(origin.url("/basic-auth/alice/secret"), headers: right)).json()
        #expect(granted["authenticated"] as? Bool == true && granted["user"] as? String == "alice")

        let fresh = try await client.send(.get(origin.url("/cache/60")))
        #expect(fresh.status == 200 && fresh.header("Cache-Control") == "max-age=60")
        let etag = try #require(fresh.header("ETag"))
        let revalidated = try await client.send(.get(origin.url("/cache/60"), headers: [("If-None-Match", etag)]))
        #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.header("ETag") == etag)

        let big = try await client.sendRaw(port: origin.port, bytes: rawGET("/headers-size/20000"))
        let headSize = try #require(big.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
        #expect((19_900...20_200).contains(headSize), "head was \(headSize) bytes")
        let hints = try await raw(rawGET("/informational"), to: origin)
        #expect(hints.hasPrefix("HTTP/1.1 103 Early Hints\r\nLink: </style.css>"))
        #expect(try await client.send(.get(origin.url("/informational"))).status == 200)
    }

    @Test(.timeLimit(.minutes(1)))
    func recordsRequestsAndConnections() async throws {
        let origin = try FixtureOrigin.start()
        #expect(origin.acceptedConnections == 0 && origin.requests.isEmpty)

        // Two pipelined requests on one connection: keep-alive, one connection ID.
        let pipelined =
            "GET /bytes/3?seed=1 HTTP/1.1\r\nHost: x\r\nX-Tag: first\r\n\r\n"
            + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"
        let reply = try await raw(Array(pipelined.utf8), to: origin)
        #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
        #expect(origin.acceptedConnections == 1)
        let recorded = origin.requests
        #expect(recorded.map(\.target) == ["/bytes/3?seed=1", "/echo"])
        #expect(recorded.map(\.connectionID) == [1, 1])
        #expect(recorded[0].header("x-tag") == "first" && recorded[0].query == "seed=1")
        #expect(recorded[1].method == "POST" && recorded[1].bodySHA256 == sha256(Array("hi".utf8)))

        _ = try await client.send(.get(origin.url("/status/200")))
        #expect(origin.acceptedConnections == 2 && origin.requests(path: "/status/200").count == 1)
        #expect(try await raw(Array("NONSENSE\r\n\r\n".utf8), to: origin).hasPrefix("HTTP/1.1 400 "))
        let huge = Array("GET / HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 70_000))\r\n\r\n".utf8)
        #expect(try await raw(huge, to: origin).hasPrefix("HTTP/1.1 431 "))
    }

    @Test(.timeLimit(.minutes(1)))
    func stopEndsOpenConnectionsPromptly() async throws {
        let origin = try FixtureOrigin.start()
        async let stalled = curlCode(origin.url("/stall?bytes=10&total=100"), timeout: 30)
        try await eventually(timeout: 10) { origin.requests(path: "/stall").count == 1 }

        let started = ContinuousClock.now
        origin.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(origin.openConnections == 0)
        // Closed, not timed out: 18 once the head was out (the usual case), 52 if stop() came first.
        #expect(try await [18, 52].contains(stalled), "the origin closed the stalled connection")
        #expect(try await curlCode(origin.url("/echo")) == 7, "nothing listens any more")
    }

    // MARK: - Helpers

    /// The CURLcode a GET ends with, or nil when it succeeds.
    private func curlCode(_ url: String, timeout: Double = 10) async throws -> Int? {
        do {
            _ = try await client.send(TestHTTPRequest(method: "GET", url: url, timeout: timeout))
            return nil
        } catch let error as HTTPClientError {
            return error.code
        }
    }

    /// Decodes with the same kind of independent tool a reader would use: the CLIs, and Python's zlib.
    private func decode(_ bytes: [UInt8], coding: String) throws -> [UInt8] {
        let inflate = "import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))"
        let arguments: [String: [String]] = [
            "gzip": ["gzip", "-dc"], "br": ["brotli", "-dc"], "zstd": ["zstd", "-dcq"],
            "deflate": ["python3", "-c", inflate],
        ]
        let directory = try TemporaryDirectory.make(prefix: "fixture-origin-test")
        defer { directory.remove() }
        try Data(bytes).write(to: directory.appending("in"))
        _ = FileManager.default.createFile(atPath: directory.appending("out").path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments[coding]
        process.standardInput = try FileHandle(forReadingFrom: directory.appending("in"))
        process.standardOutput = try FileHandle(forWritingTo: directory.appending("out"))
        try process.run()
        process.waitUntilExit()
        return try [UInt8](Data(contentsOf: directory.appending("out")))
    }

    /// Sends `bytes` on a fresh connection and returns the reply as text.
    private func raw(_ bytes: [UInt8], to origin: FixtureOrigin) async throws -> String {
        String(decoding: try await client.sendRaw(port: origin.port, bytes: bytes), as: UTF8.self)
    }

    private func rawGET(_ target: String) -> [UInt8] {
        Array("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
    }
}

private func sha256(_ bytes: [UInt8]) -> String {
    hex(Array(SHA256.hash(data: bytes)))
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
