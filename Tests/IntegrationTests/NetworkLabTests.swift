import Foundation
import TestSupport
import Testing

/// The network lab itself, before tests of network paths rely on it: each link reaches the origin from its
/// own address, a link taken down stops carrying traffic, a service runs inside the service namespace behind
/// its relay, and the relay carries bodies and half-closes.
@Suite(
    "Network lab",
    .enabled(
        if: NetworkLab.unavailableReason() == nil,
        Comment(rawValue: "needs network namespaces (root, ip netns, veth): \(NetworkLab.unavailableReason() ?? "")")))
struct NetworkLabTests {
    /// `curl` run inside the service namespace (no proxy, 5 s at most); its stdout. Throws when curl fails.
    static func curl(_ lab: NetworkLab, _ options: [String], _ url: String) throws -> String {
        try lab.ip(
            ["netns", "exec", lab.serviceNamespace, "/usr/bin/curl", "--silent", "--show-error", "--noproxy", "*", "--max-time", "5"]
                + options + [url],
            timeout: 15)
    }

    @Test(.timeLimit(.minutes(1)))
    func eachLinkReachesTheOriginFromItsOwnAddress() async throws {
        let lab = try await NetworkLab.start()
        defer { lab.stop() }
        let origin = try await lab.startOrigin()

        #expect(try Self.curl(lab, ["--interface", "cell0"], origin + "/whoami") == NetworkLab.cellularAddress)
        #expect(try Self.curl(lab, ["--interface", "wire0"], origin + "/whoami") == NetworkLab.wiredAddress)
        // Unbound, the lower metric wins: wire0.
        #expect(try Self.curl(lab, [], origin + "/whoami") == NetworkLab.wiredAddress)

        try lab.setLink("wire0", up: false)
        #expect(throws: NetworkLabError.self) { try Self.curl(lab, ["--interface", "wire0"], origin + "/whoami") }
        #expect(try Self.curl(lab, ["--interface", "cell0"], origin + "/whoami") == NetworkLab.cellularAddress)
        #expect(try Self.curl(lab, [], origin + "/whoami") == NetworkLab.cellularAddress)

        // Up again, wire0 has its route back.
        try lab.setLink("wire0", up: true)
        #expect(try Self.curl(lab, ["--interface", "wire0"], origin + "/whoami") == NetworkLab.wiredAddress)

        let requests = try lab.originRequests()
        #expect(
            requests.map(\.peer) == [
                NetworkLab.cellularAddress, NetworkLab.wiredAddress, NetworkLab.wiredAddress,
                NetworkLab.cellularAddress, NetworkLab.cellularAddress, NetworkLab.wiredAddress,
            ])
        #expect(requests.allSatisfy { $0.path == "/whoami" && $0.range == nil })
    }

    @Test(.timeLimit(.minutes(1)))
    func serviceRunsInTheServiceNamespaceBehindARelay() async throws {
        let lab = try await NetworkLab.start()
        defer { lab.stop() }
        let service = try await withRunningService(
            environment: ["URLSESSIOND_TOKENS": "lab-token-0123456789:tenant:admin"], networkNamespace: lab.serviceNamespace
        ) { service, client in
            let health = try await client.send(.get(service.baseURL + "/healthz"))
            #expect(health.status == 200, "\(health.text)")
            #expect(service.networkNamespace == lab.serviceNamespace)
            // The pid is the service's own (ip netns exec execs it), and it lives in the service namespace.
            let namespaces = try lab.ip(["netns", "identify", "\(service.pid)"])
            #expect(namespaces.split(whereSeparator: \.isNewline) == [Substring(lab.serviceNamespace)])
            return service
        }
        #expect(!service.isRunning)
        // The relay ended with the service: its port refuses now.
        await #expect(throws: HTTPClientError.self) {
            _ = try await HTTPClient().send(.init(method: "GET", url: service.baseURL + "/healthz", timeout: 5))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func relayCarriesRangedBodiesAndHalfCloses() async throws {
        let lab = try await NetworkLab.start()
        defer { lab.stop() }
        let origin = try #require(URLComponents(string: try await lab.startOrigin())?.port)
        let relay = try await lab.startRelay(namespace: lab.originNamespace, targetPort: origin)

        let response = try await HTTPClient().send(
            .get("http://127.0.0.1:\(relay)/bytes/100000", headers: [("Range", "bytes=1000-")]))
        #expect(response.status == 206)
        #expect(response.header("Content-Range") == "bytes 1000-99999/100000")
        #expect(response.body.count == 99_000)
        #expect(response.body == PathOriginTests.pattern(1000..<100_000))

        // The client's end of stream reaches the origin as a half-close; the answer still comes back whole.
        let started = ContinuousClock.now
        let raw = try await HTTPClient().sendRaw(
            port: relay, bytes: Array("GET /whoami HTTP/1.1\r\nHost: origin\r\n\r\n".utf8), timeout: 10, halfClose: true)
        let text = String(decoding: raw, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 "))
        #expect(text.hasSuffix("\r\n\r\n127.0.0.1"))
        #expect(ContinuousClock.now - started < .seconds(5), "the origin's close did not come through the relay")

        let requests = try lab.originRequests()
        #expect(requests.map(\.path) == ["/bytes/100000", "/whoami"])
        #expect(requests.map(\.range) == ["bytes=1000-", nil])
        #expect(requests.allSatisfy { $0.peer == "127.0.0.1" })
    }
}

/// `path_origin.py` on the test's own loopback: ranges, If-Range, pacing, the TOS a client sent, its log.
@Suite("path_origin.py")
struct PathOriginTests {
    /// Bytes `range` of every body of `/bytes/{n}`: byte i is i % 251.
    static func pattern(_ range: Range<Int>) -> [UInt8] {
        range.map { UInt8($0 % 251) }
    }

    @Test(.timeLimit(.minutes(1)))
    func rangesAndIfRange() async throws {
        let origin = try await PathOrigin.startOnLoopback()
        defer { origin.stop() }
        let client = HTTPClient()
        let url = origin.url + "/bytes/100000"

        let whole = try await client.send(.get(url))
        #expect(whole.status == 200)
        #expect(whole.body == Self.pattern(0..<100_000))
        #expect(whole.header("ETag") == #""bytes-100000""#)
        #expect(whole.header("Accept-Ranges") == "bytes")
        #expect(whole.header("Last-Modified") != nil)

        let tail = try await client.send(.get(url, headers: [("Range", "bytes=1000-")]))
        #expect(tail.status == 206)
        #expect(tail.header("Content-Range") == "bytes 1000-99999/100000")
        #expect(tail.body.count == 99_000)
        #expect(tail.body == Self.pattern(1000..<100_000))

        let middle = try await client.send(.get(url, headers: [("Range", "bytes=300-309")]))
        #expect(middle.status == 206)
        #expect(middle.body == Self.pattern(300..<310))

        let beyond = try await client.send(.get(url, headers: [("Range", "bytes=100000-")]))
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */100000")

        let current = try await client.send(.get(url, headers: [("Range", "bytes=5-"), ("If-Range", #""bytes-100000""#)]))
        #expect(current.status == 206)
        #expect(current.body == Self.pattern(5..<100_000))

        let stale = try await client.send(.get(url, headers: [("Range", "bytes=5-"), ("If-Range", #""bytes-99""#)]))
        #expect(stale.status == 200)
        #expect(stale.body.count == 100_000)

        let log = try origin.requests()
        #expect(log.map { $0["range"] as? String } == [nil, "bytes=1000-", "bytes=300-309", "bytes=100000-", "bytes=5-", "bytes=5-"])
        #expect(log.map { $0["ifRange"] as? String } == [nil, nil, nil, nil, #""bytes-100000""#, #""bytes-99""#])
        #expect(log.allSatisfy { $0["peer"] as? String == "127.0.0.1" && $0["time"] is Double })
    }

    @Test(.timeLimit(.minutes(1)))
    func rateLimitsTheBody() async throws {
        let origin = try await PathOrigin.startOnLoopback()
        defer { origin.stop() }
        let started = ContinuousClock.now
        let response = try await HTTPClient().send(.get(origin.url + "/bytes/60000?rate=150000"))
        #expect(response.status == 200)
        #expect(response.body == Self.pattern(0..<60_000))
        // 60 000 bytes at 150 000 B/s: 0.4 s at least (only a lower bound: a loaded machine is slower).
        #expect(ContinuousClock.now - started >= .milliseconds(350))
        #expect(try origin.requests().map { $0["path"] as? String } == ["/bytes/60000?rate=150000"])
    }

    @Test(.timeLimit(.minutes(1)))
    func tosIsWhatTheClientSent() async throws {
        let origin = try await PathOrigin.startOnLoopback()
        defer { origin.stop() }
        // A client that sets IP_TOS before connecting; curl has no option for it.
        let client = """
            import socket, sys
            s = socket.socket()
            s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, int(sys.argv[2]))
            s.connect(("127.0.0.1", int(sys.argv[1])))
            s.sendall(b"GET /tos HTTP/1.1\\r\\nHost: origin\\r\\nConnection: close\\r\\n\\r\\n")
            data = b""
            while chunk := s.recv(4096):
                data += chunk
            print(data.split(b"\\r\\n\\r\\n", 1)[1].decode(), end="")
            """
        for (tos, expected) in [(0x20, "32"), (0, "0")] {
            let output = try await runTool("/usr/bin/python3", ["-c", client, "\(origin.port)", "\(tos)"])
            #expect(output == expected, "TOS \(tos)")
        }
    }
}

/// Runs `tool` with `arguments` (20 s at most) and returns its stdout; a non-zero exit fails the test.
private func runTool(_ tool: String, _ arguments: [String]) async throws -> String {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
    let deadline = ContinuousClock.now + .seconds(20)
    while process.isRunning, ContinuousClock.now < deadline {  // bounded by the deadline
        try await Task.sleep(for: .milliseconds(20))
    }
    if process.isRunning {
        process.terminate()
        process.waitUntilExit()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    try #require(process.terminationStatus == 0, "\(tool) exited with \(process.terminationStatus)")
    return String(decoding: data, as: UTF8.self)
}
