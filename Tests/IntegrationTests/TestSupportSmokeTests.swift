import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks TestSupport's own parts against a real loopback socket, before any test relies on them.
@Suite("TestSupport smoke tests")
struct TestSupportSmokeTests {
    @Test(.timeLimit(.minutes(1)))
    func sendReturnsStatusHeadersAndBody() async throws {
        let body = #"{"ok":true}"#
        let server = try CannedServer(
            response: "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nSet-Cookie: a=1\r\n"
                + "Set-Cookie: b=2\r\nX-Folded: one\r\n two\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)")

        let response = try await HTTPClient().send(
            .get("http://127.0.0.1:\(server.port)/hello?x=1", token: "tok", headers: [("X-Test", "yes")]))

        #expect(response.status == 201)
        #expect(response.header("content-TYPE") == "application/json")
        #expect(response.headers(named: "set-cookie") == ["a=1", "b=2"])
        #expect(response.header("x-folded") == "one two")
        #expect(response.text == body)
        #expect(try response.json()["ok"] as? Bool == true)
        let request = String(decoding: try #require(await server.firstRequest()), as: UTF8.self)
        #expect(request.hasPrefix("GET /hello?x=1 HTTP/1.1\r\n"))
        #expect(request.contains("\r\nAuthorization: Bearer tok\r\n"))
        #expect(request.contains("\r\nX-Test: yes\r\n"))
        #expect(!request.lowercased().contains("expect:"))
    }

    @Test(.timeLimit(.minutes(1)))
    func postSendsTheExactBody() async throws {
        let server = try CannedServer(response: "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        let bytes: [UInt8] = [0, 1, 2, 0xFF, 0x0D, 0x0A]

        let response = try await HTTPClient().send(
            .post("http://127.0.0.1:\(server.port)/upload", body: bytes, contentType: "application/octet-stream"))

        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        let request = try #require(await server.firstRequest())
        #expect(Array(request.suffix(bytes.count)) == bytes)
        let head = String(decoding: request.dropLast(bytes.count), as: UTF8.self)
        #expect(head.hasPrefix("POST /upload HTTP/1.1\r\n"))
        #expect(head.contains("\r\nContent-Length: 6\r\n"))
        #expect(head.contains("\r\nContent-Type: application/octet-stream\r\n"))
    }

    @Test(.timeLimit(.minutes(1)))
    func streamStopsWhenTheHandlerReturnsFalse() async throws {
        // No Content-Length and the connection stays open: only the handler can end this transfer early.
        let server = try CannedServer(
            response: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: one\n\n", holdOpen: 30)
        let started = ContinuousClock.now

        let response = try await HTTPClient().stream(.get("http://127.0.0.1:\(server.port)/events")) { chunk in
            !String(decoding: chunk, as: UTF8.self).contains("data: one")
        }

        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/event-stream")
        #expect(response.text == "data: one\n\n")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test(.timeLimit(.minutes(1)))
    func silentServerHitsTheRequestTimeout() async throws {
        let server = try CannedServer(response: "", holdOpen: 30)

        let error = await #expect(throws: HTTPClientError.self) {
            let url = "http://127.0.0.1:\(server.port)/"
            return try await HTTPClient().send(TestHTTPRequest(method: "GET", url: url, timeout: 0.5))
        }
        #expect(error?.isTimeout == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellationAbortsATransferEarly() async throws {
        let server = try CannedServer(response: "", holdOpen: 30)
        let started = ContinuousClock.now

        await #expect(throws: TimeoutError.self) {
            try await withTimeout(seconds: 0.3) {
                try await HTTPClient().send(.get("http://127.0.0.1:\(server.port)/slow"))
            }
        }
        // The server would hold the request for 30 s: ending far sooner shows the abort, on a loaded machine too.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test(.timeLimit(.minutes(1)))
    func refusedConnectionIsAnHTTPClientError() async throws {
        // Bound but not listening: the kernel refuses connections, and the port stays ours meanwhile.
        let held = try RefusingPort()
        defer { held.release() }
        let port = held.port

        let error = await #expect(throws: HTTPClientError.self) {
            try await HTTPClient().send(.get("http://127.0.0.1:\(port)/"))
        }
        #expect(error?.isConnectFailure == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func sendRawWritesBytesVerbatim() async throws {
        let server = try CannedServer(response: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
        let garbage = Array("NOT HTTP AT ALL\r\n\r\n".utf8)

        let reply = try await HTTPClient().sendRaw(port: server.port, bytes: garbage, timeout: 5)

        #expect(String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(await server.firstRequest() == garbage)
    }

    @Test(.timeLimit(.minutes(1)))
    func withTimeoutThrowsOnASlowBody() async throws {
        let error = await #expect(throws: TimeoutError.self) {
            try await withTimeout(seconds: 0.1) {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        #expect(error?.seconds == 0.1)
        #expect(try await withTimeout(seconds: 10) { 42 } == 42)
    }

    @Test(.timeLimit(.minutes(1)))
    func eventuallyPollsUntilTrueAndGivesUpAtTheDeadline() async throws {
        var calls = 0
        try await eventually(timeout: 5) {
            calls += 1
            return calls >= 3
        }
        #expect(calls == 3)
        await #expect(throws: TimeoutError.self) {
            try await eventually(timeout: 0.1) { false }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func temporaryDirectoryIsCreatedAndRemoved() throws {
        let directory = try TemporaryDirectory.make(prefix: "testsupport-smoke")
        #expect(FileManager.default.fileExists(atPath: directory.path))
        directory.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}

/// A one-shot HTTP/1.1 server on 127.0.0.1 with an OS-chosen port, built on POSIX sockets and one `Thread`.
///
/// It accepts one connection, reads one request (head plus `Content-Length` body), answers `response`
/// verbatim, then keeps the connection open up to `holdOpen` seconds or until the client closes it.
/// Every wait is bounded, so a broken test cannot leave the thread behind for long.
final class CannedServer: Sendable {
    let port: Int
    private let requests: AsyncStream<[UInt8]>

    init(response: String, holdOpen: Double = 0) throws {
        let held = try RefusingPort()
        let (listener, port) = (held.takeDescriptor(), held.port)
        guard listen(listener, 1) == 0 else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.port = port
        let (requests, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        self.requests = requests
        let answer = Array(response.utf8)
        let thread = Thread {
            defer {
                close(listener)
                continuation.finish()
            }
            guard Self.waitReadable(listener, seconds: 20) else { return }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            continuation.yield(Self.readRequest(client))
            answer.withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            let deadline = ContinuousClock.now + .milliseconds(Int64(holdOpen * 1000))
            var scratch = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < deadline {
                guard Self.waitReadable(client, seconds: 0.05) else { continue }
                // Readable means data, end of stream or an error; only data keeps the connection open.
                let count = scratch.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
            }
        }
        thread.start()
    }

    /// The bytes of the request the server received, or nil when none came.
    func firstRequest() async -> [UInt8]? {
        for await request in self.requests { return request }
        return nil
    }

    private static func waitReadable(_ fd: Int32, seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(seconds * 1000)) > 0
    }

    /// Reads until the head is complete and `Content-Length` bytes of body followed, for at most 10 s.
    private static func readRequest(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(10)
        let separator = Array("\r\n\r\n".utf8)
        while ContinuousClock.now < deadline, received.count < 1 << 20 {
            if let end = received.firstRange(of: separator)?.upperBound {
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                let field = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                let value = field?.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)
                let length = value.flatMap { Int($0) } ?? 0
                if received.count >= end + length { return received }
            }
            guard Self.waitReadable(fd, seconds: 0.05) else { continue }
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return received }
            received.append(contentsOf: scratch[0..<count])
        }
        return received
    }
}
