import Crypto
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Restarts on the same data directory, and graceful shutdown under load.
@Suite("Lifecycle")
struct LifecycleTests {
    @Test(.timeLimit(.minutes(1)))
    func everythingSurvivesARestart() async throws {
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-restart")
        defer { directory.remove() }
        let client = HTTPClient()
        let background = #"{"configuration":{"kind":"background","identifier":"com.example.restart"}}"#
        let keyed = [("Idempotency-Key", "restart-key")]

        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: Tokens.environment)
        let api = API(first, client)
        var ids: [String] = []
        for body in [
            #"{"sessionDescription":"plain"}"#, #"{"configuration":{"kind":"ephemeral"}}"#, background,
            #"{"delegate":{"url":"https://consumer.example/h","decisions":["dataTask.didReceiveResponse"]}}"#,
        ] {
            ids.append(try #require(try await api.createSession(json: body)["id"] as? String))
        }
        #expect(try await api.post("/v1/sessions/\(ids[0])/invalidateAndCancel").status == 200)
        let idempotent = try await api.post("/v1/sessions", json: "{}", headers: keyed)
        #expect(idempotent.status == 201)
        ids.append(try #require(try idempotent.json()["id"] as? String))
        let shared = try #require(try await api.get("/v1/sessions/shared").json()["id"] as? String)
        let bytes = BlobsAPITests.randomBytes(256 * 1024)
        let blobResponse = try await api.post("/v1/blobs", bytes: bytes, contentType: "application/octet-stream")
        #expect(blobResponse.status == 201)
        let blob = try blobResponse.json()
        let blobID = try #require(blob["id"] as? String)

        var before: [String: [String: Any]] = [:]
        for id in ids { before[id] = try await api.get("/v1/sessions/\(id)").json() }
        let listBefore = try canonical(try await api.allSessions())
        #expect(try await first.terminate() == 0)

        // A leftover upload from a crash is cleaned away at start-up; real blobs stay.
        let blobs = directory.url.appendingPathComponent("blobs")
        let stray = blobs.appendingPathComponent("upload-stray.tmp")
        #expect(FileManager.default.createFile(atPath: stray.path, contents: Data([1, 2, 3])))

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: Tokens.environment)
        let again = API(second, client)
        for id in ids {
            let read = try await again.get("/v1/sessions/\(id)")
            #expect(read.status == 200)
            expectSameJSON(try read.json(), before[id] ?? [:], "session \(id) changed across the restart:")
        }
        #expect(try canonical(try await again.allSessions()) == listBefore)
        #expect(try await again.get("/v1/sessions/shared").json()["id"] as? String == shared)
        #expect(try await again.get("/v1/sessions/\(ids[0])").json()["state"] as? String == "invalidated")

        let reattached = try await again.post("/v1/sessions", json: background)
        #expect(reattached.status == 200)
        #expect(try reattached.json()["id"] as? String == ids[2])

        let replay = try await again.post("/v1/sessions", json: "{}", headers: keyed)
        #expect(replay.status == 201)
        #expect(replay.header("Idempotent-Replayed") == "true")
        #expect(replay.body == idempotent.body)

        let readBlob = try await again.get("/v1/blobs/\(blobID)")
        #expect(readBlob.status == 200)
        expectSameJSON(try readBlob.json(), blob, "blob changed across the restart:")
        let stored = try Data(contentsOf: blobs.appendingPathComponent(blobID))
        #expect(Data(SHA256.hash(data: stored)) == Data(SHA256.hash(data: bytes)))
        #expect(!FileManager.default.fileExists(atPath: stray.path))
        #expect(try await second.terminate() == 0)
    }

    /// Counts answers as they arrive, so the test knows requests are under way before it sends SIGTERM.
    actor Tally {
        private(set) var answered = 0
        func add() { answered += 1 }
    }

    enum Outcome: Sendable {
        case answered(TestHTTPResponse)
        case unanswered(HTTPClientError)
    }

    @Test(.timeLimit(.minutes(1)))
    func sigtermWithRequestsInFlightAnswersThemCompletely() async throws {
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-sigterm")
        defer { directory.remove() }
        let client = HTTPClient()
        let service = try await ServiceProcess.start(dataDirectory: directory.url, environment: Tokens.environment)
        let tally = Tally()

        // 50 clients, each creating sessions one after another until the service stops answering 201
        // (at most 40 each), so requests are certainly in flight when SIGTERM arrives.
        let (outcomes, status) = try await withThrowingTaskGroup(of: [Outcome].self) { group in
            for index in 0..<50 {
                group.addTask {
                    var outcomes: [Outcome] = []
                    for round in 0..<40 {
                        var request = TestHTTPRequest.post(
                            "\(service.baseURL)/v1/sessions", json: #"{"sessionDescription":"inflight \#(index).\#(round)"}"#,
                            token: Tokens.tenantA)
                        request.timeout = 20
                        do {
                            let response = try await client.send(request)
                            outcomes.append(.answered(response))
                            await tally.add()
                            if response.status != 201 { break }
                        } catch let error as HTTPClientError {
                            outcomes.append(.unanswered(error))
                            break
                        }
                    }
                    return outcomes
                }
            }
            try await eventually(timeout: 20, interval: 0.005) { await tally.answered >= 50 }
            let status = try await service.terminate()
            var outcomes: [Outcome] = []
            for try await some in group { outcomes += some }
            return (outcomes, status)
        }
        #expect(status == 0, "urlsessiond must exit 0 after SIGTERM")

        var created: Set<String> = []
        for outcome in outcomes {
            switch outcome {
            case .answered(let response) where response.status == 201:
                let session = try response.json()
                let id = try #require(session["id"] as? String)
                #expect(session["sessionDescription"] is String)
                #expect(response.header("Location") == "/v1/sessions/\(id)")
                created.insert(id)
            case .answered(let response) where response.status == 503:
                expectProblem(response, status: 503, slug: "shutting-down")
            case .answered(let response):
                Issue.record("unexpected answer \(response.status): \(response.text)")
            case .unanswered(let error):
                // Refused, reset or closed before any answer: never a cut-off answer (CURLE_PARTIAL_FILE etc.).
                #expect([7, 52, 55, 56].contains(error.code), "\(error)")
            }
        }
        #expect(!created.isEmpty)

        let restarted = try await ServiceProcess.start(dataDirectory: directory.url, environment: Tokens.environment)
        let ids = try await API(restarted, client).sessionIDs()
        let summary = Dictionary(
            grouping: outcomes.map { outcome -> String in
                switch outcome {
                case .answered(let response): "HTTP \(response.status)"
                case .unanswered(let error): "CURLcode \(error.code)"
                }
            }, by: { $0 }
        ).mapValues(\.count)
        #expect(ids.count == created.count, "sessions stored: \(ids.count), 201 answers: \(created.count); \(summary)")
        #expect(created.isSubset(of: Set(ids)), "sessions answered 201 but not stored")
        #expect(Set(ids).subtracting(created).isEmpty, "sessions stored but never answered with 201")
        #expect(try await restarted.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func sigintAlsoShutsDownGracefully() async throws {
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-sigint")
        defer { directory.remove() }
        let service = try await ServiceProcess.start(dataDirectory: directory.url, environment: Tokens.environment)
        let api = API(service, HTTPClient())
        let id = try #require(try await api.createSession()["id"] as? String)
        #expect(kill(service.pid, SIGINT) == 0)
        try await eventually(timeout: 20) { !service.isRunning }
        #expect(try await service.terminate() == 0)

        let restarted = try await ServiceProcess.start(dataDirectory: directory.url, environment: Tokens.environment)
        #expect(try await API(restarted, HTTPClient()).sessionIDs() == [id])
        #expect(try await restarted.terminate() == 0)
    }
}
