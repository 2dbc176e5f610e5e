import Crypto
import Foundation
import TestSupport
import Testing

/// Segmented downloads through the service: the API (`segments` on a download or as a session default),
/// the whole file's digest, nginx as a standard origin, the fallback to one connection, and a kill -9 in
/// the middle continued part by part from the journal.
@Suite("Segmented downloads")
struct SegmentedDownloadsTests {
    static var segments: [String: Any] { ["max": 4, "minSize": 65536] }

    /// `expectedDigest` of `bytes` (RFC 9530 sha-256).
    static func digest(_ bytes: [UInt8]) -> String { "sha-256=:\(Data(SHA256.hash(data: bytes)).base64EncodedString()):" }

    @Test(.timeLimit(.minutes(1)))
    func invalidSegmentsNameTheirField() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = "http://127.0.0.1:9/bytes/10"
            let cases: [([String: Any], Int, String, String)] = [
                (["kind": "data", "segments": ["max": 4]], 422, "invalid-value", "segments"),
                (["kind": "download", "segments": ["max": 0]], 422, "invalid-value", "segments.max"),
                (["kind": "download", "segments": ["max": 17]], 422, "invalid-value", "segments.max"),
                (["kind": "download", "segments": ["max": 4, "minSize": 65535]], 422, "invalid-value", "segments.minSize"),
                (["kind": "download", "segments": ["minSize": 65536]], 422, "missing-field", "segments.max"),
                (["kind": "download", "segments": ["max": 4, "parts": 2]], 400, "unknown-field", "segments.parts"),
                (["kind": "download", "segments": ["max": "4"]], 400, "type-mismatch", "segments.max"),
            ]
            for (body, status, slug, field) in cases {
                var body = body
                body["request"] = ["url": url]
                expectProblem(try await api.postTask(session: session, body), status: status, slug: slug, field: field)
            }
            let refused = try await api.post("/v1/sessions", json: #"{"configuration": {"segments": {"max": 99}}}"#)
            expectProblem(refused, status: 422, slug: "invalid-value", field: "configuration.segments.max")
            #expect(try await api.allSessions().count == 1, "nothing was created")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theTaskShowsTheSegmentsItRunsWith() async throws {
        try await withTaskService { api, _ in
            let created = try await api.createSession(json: #"{"configuration": {"segments": {"max": 8}}}"#)
            let configuration = try #require(created["configuration"] as? [String: Any])
            #expect(configuration["segments"] as? [String: Int] == ["max": 8, "minSize": 1_048_576])
            let session = try #require(created["id"] as? String)
            let url = ["url": "http://127.0.0.1:9/bytes/10"]
            let inherited = try await api.createTask(session: session, ["kind": "download", "request": url])
            #expect(inherited["segments"] as? [String: Int] == ["max": 8, "minSize": 1_048_576])
            let own = try await api.createTask(
                session: session, ["kind": "download", "request": url, "segments": ["max": 2, "minSize": 65536]])
            #expect(own["segments"] as? [String: Int] == ["max": 2, "minSize": 65536])
            let data = try await api.createTask(session: session, ["kind": "data", "request": url])
            #expect(!data.keys.contains("segments"), "a data task is never segmented: it has no such property")
            let plain = try await api.makeSession()
            let none = try await api.createTask(session: plain, ["kind": "download", "request": url])
            #expect(none["segments"] is NSNull)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSegmentedDownloadMatchesItsDigestAndShowsEveryConnection() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let size = 3_000_017
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let digest = Self.digest(FixtureOrigin.bytes(count: size, seed: 3))
            let done = try await api.runTask(
                session: session,
                [
                    "kind": "download", "request": ["url": origin.url("/bytes/\(size)?seed=3")], "segments": Self.segments,
                    "expectedDigest": digest,
                ])
            #expect(done.errorCode == nil, "\(done)")
            #expect(done.count("countOfBytesReceived") == size)
            #expect(done.statusCode == 200, "the task's response is the first one, for the whole")
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: size, seed: 3))
            let ranges = origin.requests.filter { $0.header("Range") != nil }
            #expect(ranges.count >= 3, "\(origin.requests.map(\.headers))")
            let metrics = try await api.taskMetrics(done.taskID)
            let transactions = try #require(metrics["transactionMetrics"] as? [[String: Any]])
            #expect(transactions.count == origin.requests.count, "one transaction per request")
            #expect(int(metrics["redirectCount"]) == 0, "ranges are not redirects")
            let decoded = transactions.compactMap { int($0["countOfResponseBodyBytesAfterDecoding"]) }.reduce(0, +)
            #expect(decoded >= size, "the transactions' bodies add up to the file")
            let written = try await api.allEvents("/v1/tasks/\(done.taskID)/events").filter { $0.eventType == "downloadTask.didWriteData" }
            let totals = written.compactMap { int($0.eventData?["totalBytesWritten"]) }
            #expect(totals == totals.sorted() && totals.last == size, "progress counts every part: \(totals)")
            #expect(written.allSatisfy { int($0.eventData?["totalBytesExpectedToWrite"]) == size })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func resumeDataOfASegmentedDownloadResumesItPartByPart() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let size = 6_000_000
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["segments": Self.segments])
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/\(size)?seed=9&rate=300000")], "resume": true])
            _ = try await api.task(created.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) > 1_000_000 }, within: 30)
            let cancelled = try await api.post("/v1/tasks/\(created.taskID)/cancel", json: #"{"byProducingResumeData": true}"#)
            let token = try #require(try cancelled.json()["resumeData"] as? String, "\(cancelled.text)")

            origin.clearRequests()
            let resumed = try await api.runTask(session: session, ["kind": "download", "resumeData": token], within: 40)
            #expect(resumed.errorCode == nil, "\(resumed)")
            #expect(resumed.count("countOfBytesReceived") == size)
            #expect(sha256Hex(try await api.taskFile(resumed.taskID).body) == fixtureSHA256(count: size, seed: 9))
            let starts = origin.requests.compactMap { $0.header("Range").flatMap(Journal.range)?.lowerBound }
            #expect(starts.count == origin.requests.count, "only ranges: \(origin.requests.map(\.headers))")
            #expect(Set(starts).count > 1 && !starts.contains(0), "several parts continued, none from 0: \(starts)")
            let events = try await api.allEvents("/v1/tasks/\(resumed.taskID)/events")
            let offset = try #require(events.first { $0.eventType == "downloadTask.didResumeAtOffset" }?.eventData?["fileOffset"])
            #expect((int(offset) ?? 0) > 1_000_000)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func nginxServesTheRangesOfAStandardServer() async throws {
        let bytes = FixtureOrigin.bytes(count: 5_000_000, seed: 77)
        let nginx = try await NginxOrigin.start(tls: false, files: ["big.bin": bytes])
        defer { nginx.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["segments": ["max": 6, "minSize": 262_144]])
            let done = try await api.runTask(session: session, ["kind": "download", "request": ["url": nginx.baseURL + "/big.bin"]])
            #expect(done.errorCode == nil, "\(done)")
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == sha256Hex(bytes))
            let transactions = try #require(try await api.taskMetrics(done.taskID)["transactionMetrics"] as? [[String: Any]])
            let statuses = transactions.compactMap { ($0["response"] as? [String: Any]).flatMap { int($0["statusCode"]) } }
            #expect(statuses.first == 200 && statuses.dropFirst().contains(206), "\(statuses)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anOriginWithoutRangesFallsBackToOneConnection() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        try await withTaskService { api, _ in
            let session = try await api.makeSession(["segments": Self.segments])
            let done = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": origin.url("/bytes/2000000?seed=6&noRanges=1")]])
            #expect(done.errorCode == nil, "\(done)")
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: 2_000_000, seed: 6))
            #expect(origin.requests.count == 1)
            #expect(origin.requests.allSatisfy { $0.header("Range") == nil })
            let transactions = try #require(try await api.taskMetrics(done.taskID)["transactionMetrics"] as? [[String: Any]])
            #expect(transactions.count == 1)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func killedMidDownloadEveryPartContinuesByRange() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-segments")
        defer { directory.remove() }
        let size = 8_000_000
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "segments.test", "segments": Self.segments])
        let digest = Self.digest(FixtureOrigin.bytes(count: size, seed: 13))
        let created = try await api.createTask(
            session: session,
            [
                "kind": "download", "request": ["url": origin.url("/bytes/\(size)?seed=13&rate=400000")], "resume": true,
                "expectedDigest": digest,
            ])
        let id = created.taskID
        // A checkpoint with progress in several parts is on disk: each part has something to continue.
        let downloads = directory.url.appendingPathComponent("downloads")
        var journal: Journal?
        try await eventually(timeout: 30, interval: 0.1) {
            journal = Journal(in: downloads, task: id)
            return (journal?.parts.filter { $0.next > $0.start }.count ?? 0) >= 3
        }
        await first.kill9()
        let atKill = try #require(Journal(in: downloads, task: id), "the journal outlives the process")
        let unfinished = atKill.parts.filter { $0.next < $0.end }
        #expect(!unfinished.isEmpty)

        origin.clearRequests()
        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let done = try await again.completedTask(id, within: 60)
        #expect(done.errorCode == nil, "the digest holds: \(done)")
        #expect(done.count("countOfBytesReceived") == size)
        #expect(sha256Hex(try await again.taskFile(id).body) == fixtureSHA256(count: size, seed: 13))
        #expect(Journal(in: downloads, task: id) == nil, "the journal goes with the finished download")

        let requested = origin.requests.map { $0.header("Range").flatMap(Journal.range) }
        #expect(requested.allSatisfy { $0 != nil }, "every request after the restart asks for a range: \(requested)")
        let ranges = requested.compactMap { $0 }
        for part in unfinished {
            #expect(ranges.contains { $0.lowerBound == part.next }, "part \(part) continues where the journal says")
        }
        for range in ranges {
            #expect(unfinished.contains { $0.next <= range.lowerBound && range.upperBound <= $0.end }, "\(range) was already in the file")
        }
        let events = try await again.allEvents("/v1/sessions/\(session)/events")
        let resumed = try #require(events.first { $0.eventType == "downloadTask.didResumeAtOffset" }?.eventData)
        #expect(int(resumed["fileOffset"]) == atKill.parts.reduce(0) { $0 + $1.next - $1.start })
        #expect(int(resumed["expectedTotalBytes"]) == size)
        #expect(try await second.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func aValidatorChangedWhileKilledStartsAgainFromZero() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-segments")
        defer { directory.remove() }
        let (old, new) = (FixtureOrigin.bytes(count: 4_000_000, seed: 1), FixtureOrigin.bytes(count: 4_000_000, seed: 2))
        origin.setResource("doc", body: old, etag: "\"v1\"", lastModified: nil)
        let client = HTTPClient()
        let first = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(first, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "segments.change", "segments": Self.segments])
        let created = try await api.createTask(
            session: session, ["kind": "download", "request": ["url": origin.url("/resource/doc?rate=300000")], "resume": true])
        let downloads = directory.url.appendingPathComponent("downloads")
        try await eventually(timeout: 30, interval: 0.1) {
            (Journal(in: downloads, task: created.taskID)?.parts.reduce(0) { $0 + $1.next - $1.start } ?? 0) > 0
        }
        await first.kill9()
        origin.setResource("doc", body: new, etag: "\"v2\"", lastModified: nil)

        let second = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(second, client)
        let done = try await again.completedTask(created.taskID, within: 60)
        #expect(done.errorCode == nil, "\(done)")
        #expect(sha256Hex(try await again.taskFile(created.taskID).body) == sha256Hex(new))
        let events = try await again.allEvents("/v1/sessions/\(session)/events")
        let resumed = events.filter { $0.eventType == "downloadTask.didResumeAtOffset" }.compactMap { int($0.eventData?["fileOffset"]) }
        #expect(resumed.contains(0), "it started again from 0: \(resumed)")
        #expect(try await second.terminate() == 0)
    }
}

/// A segmented download's journal (`<partial>.segments`) as the service leaves it on disk.
struct Journal: Equatable {
    struct Part: Equatable, CustomStringConvertible {
        var start: Int
        var next: Int
        var end: Int
        var description: String { "[\(start), \(next), \(end))" }
    }

    var length: Int
    var parts: [Part]

    /// The journal of task `id`'s partial file in `downloads`; nil when there is none.
    init?(in downloads: URL, task id: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []
        guard let name = names.first(where: { $0.hasPrefix(id + ".") && $0.hasSuffix(".part.segments") }),
            let data = FileManager.default.contents(atPath: downloads.appendingPathComponent(name).path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let length = int(object["length"]), let parts = object["parts"] as? [[Any]]
        else { return nil }
        self.length = length
        self.parts = parts.compactMap { part in
            let values = part.compactMap(int)
            return values.count == 3 ? Part(start: values[0], next: values[1], end: values[2]) : nil
        }
    }

    /// `bytes=a-b` as `a..<b+1`.
    static func range(_ field: String) -> Range<Int>? {
        let bounds = field.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
        return bounds.count == 2 ? bounds[0]..<bounds[1] + 1 : nil
    }
}
