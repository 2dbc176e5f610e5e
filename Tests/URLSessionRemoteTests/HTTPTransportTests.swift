import Foundation
import TestSupport
import Testing

@testable import URLSessionRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client's libcurl transport against the fixture origin: what URLSession would send and answer —
/// methods and bodies, redirects followed, idle timeouts, cancellation and failures as `URLError`s.
@Suite("URLSessionRemote: the HTTP transport")
struct HTTPTransportTests {
    let transport = HTTPTransport.shared

    private func request(_ url: String, method: String = "GET", timeout: TimeInterval = 30) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        return request
    }

    private func echoed(_ body: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    private func urlError(_ work: () async throws -> Void) async -> URLError? {
        do {
            try await work()
            return nil
        } catch {
            return error as? URLError
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aGetAnswersTheWholeBodyAndTheHead() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let (body, response) = try await transport.data(for: request(origin.url("/bytes/300000?seed=4")))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "300000")
        #expect(body == Data(FixtureOrigin.bytes(count: 300_000, seed: 4)))
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["POST", "PATCH", "PUT", "DELETE"])
    func aBodySentWithAnyMethodArrivesAsItWasWithoutLibcurlsOwnFields(method: String) async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        var call = request(origin.url("/echo"), method: method)
        call.httpBody = Data(#"{"a": 1}"#.utf8)
        call.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (body, response) = try await transport.data(for: call)
        #expect(response.statusCode == 200)
        let echo = try echoed(body)
        let headers = echo["headers"] as? [String: String] ?? [:]
        #expect(echo["method"] as? String == method)
        #expect(echo["bodySize"] as? Int == 8)
        #expect(headers["content-type"] == "application/json")
        #expect(headers["expect"] == nil, "no 100-continue round")
    }

    @Test(.timeLimit(.minutes(1)))
    func aPostWithoutBodyHasNoFormContentType() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let (body, _) = try await transport.data(for: request(origin.url("/echo"), method: "POST"))
        let echo = try echoed(body)
        #expect(echo["bodySize"] as? Int == 0)
        #expect((echo["headers"] as? [String: String])?["content-type"] == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func aFileBodyIsStreamedFromDisk() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "transport-upload")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("body")
        let bytes = Data(FixtureOrigin.bytes(count: 2_500_000, seed: 9))
        try bytes.write(to: file)
        let (body, _) = try await transport.data(for: request(origin.url("/upload"), method: "POST"), body: .file(file))
        let echo = try echoed(body)
        #expect(echo["bodySize"] as? Int == bytes.count)
        #expect(echo["bodySHA256"] as? String == sha256Hex(bytes))

        let missing = await urlError {
            _ = try await transport.data(
                for: request(origin.url("/upload"), method: "POST"), body: .file(directory.url.appendingPathComponent("none")))
        }
        #expect(missing?.code == .fileDoesNotExist)
    }

    @Test(.timeLimit(.minutes(1)))
    func aRedirectIsFollowedToTheFinalAnswer() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let (body, response) = try await transport.data(for: request(origin.url("/redirect/302?to=/bytes/10")))
        #expect(response.statusCode == 200)
        #expect(response.url?.path == "/bytes/10")
        #expect(body.count == 10)
    }

    @Test(.timeLimit(.minutes(1)))
    func aDownloadIsWrittenToTheFileAndAFailedOneLeavesNothing() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "transport-download")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("whole")
        let response = try await transport.download(for: request(origin.url("/bytes/3000000?seed=2")), to: file)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: file) == Data(FixtureOrigin.bytes(count: 3_000_000, seed: 2)))

        let cut = directory.url.appendingPathComponent("cut")
        let error = await urlError {
            _ = try await transport.download(for: request(origin.url("/truncated?length=100000&send=1000")), to: cut)
        }
        #expect(error?.code == .networkConnectionLost)
        #expect(!FileManager.default.fileExists(atPath: cut.path))
    }

    @Test(.timeLimit(.minutes(1)))
    func failuresAreURLErrorsWithTheFailingURL() async throws {
        let refusing = try RefusingPort()
        let url = "http://127.0.0.1:\(refusing.port)/x"
        let refused = await urlError { _ = try await transport.data(for: request(url)) }
        #expect(refused?.code == .cannotConnectToHost)
        #expect(refused?.failingURL?.absoluteString == url)

        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let started = ContinuousClock.now
        let idle = await urlError { _ = try await transport.data(for: request(origin.url("/stall?bytes=10&total=1000"), timeout: 1)) }
        #expect(idle?.code == .timedOut, "the request's timeoutInterval is how long it may stay idle")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingTheCallerEndsAWaitingCallAtOnce() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let waiting = Task { await urlError { _ = try await transport.data(for: request(origin.url("/stall?bytes=10&total=1000"))) } }
        for _ in 0..<100 where origin.requests(path: "/stall").isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        let started = ContinuousClock.now
        waiting.cancel()
        #expect(await waiting.value?.code == .cancelled)
        #expect(ContinuousClock.now - started < .seconds(10), "not left to the 30 s idle timeout")

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await urlError { _ = try await transport.data(for: request(origin.url("/bytes/10"))) }
        }
        #expect(await cancelledFirst.value?.code == .cancelled, "a call made by a cancelled task never starts")
    }
}
