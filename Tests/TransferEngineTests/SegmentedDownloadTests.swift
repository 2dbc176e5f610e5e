import Foundation
import TestSupport
import Testing
import TransferEngine
import TransferModels

/// Segmented downloads on a real engine against the fixture origin (ranges, `If-Range`, strong ETags).
@Suite("Segmented downloads on the engine")
struct SegmentedDownloadTests {
    static let minimum: Int64 = 64 * 1024

    static func job(_ fixture: EngineFixture, _ path: String, segments: Int, perHost: Int = 6) -> TransferJob {
        var job = fixture.job(path, kind: .download)
        job.downloadPath = fixture.directory.appending("\(job.id.taskId).part").path
        job.segments = SegmentPolicy(maximumConnections: segments, minimumPartSize: minimum)
        job.httpMaximumConnectionsPerHost = perHost
        return job
    }

    /// Sizes around the smallest that is segmented (two minimum parts), and sizes no segment count divides.
    @Test(
        .timeLimit(.minutes(2)),
        arguments: zip(
            [131_071, 131_072, 1_000_003, 3_145_728, 5_000_011, 10_000_019, 2_500_001],
            [4, 4, 3, 2, 8, 16, 7]))
    func theFileIsTheRepresentationAtEverySizeAndSegmentCount(size: Int, segments: Int) async throws {
        let fixture = try EngineFixture()
        let outcome = await fixture.run(Self.job(fixture, "/bytes/\(size)?seed=\(size % 97)", segments: segments))
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.response?.statusCode == 200)
        #expect(outcome.bodyBytes == FixtureOrigin.bytes(count: size, seed: UInt64(size % 97)))
        #expect(outcome.progress.bytesReceived == Int64(size))
        #expect(outcome.progress.bytesExpectedToReceive == Int64(size))
        let ranged = fixture.origin.requests.filter { $0.header("Range") != nil }
        if Int64(size) < 2 * Self.minimum {
            #expect(ranged.isEmpty, "too small to be segmented: \(ranged.map(\.headers))")
            #expect(outcome.transactions.count == 1)
        } else {
            #expect(!ranged.isEmpty)
            #expect(ranged.allSatisfy { $0.header("If-Range") == "\"bytes-\(size)-\(size % 97)\"" })
            #expect(outcome.transactions.count == 1 + ranged.count, "one transaction per request")
            #expect(Set(outcome.transactions.map(\.localPort)).count > 1, "more than one connection")
        }
        if case .file(let path, _) = outcome.body { #expect(!SegmentJournal.exists(partialPath: path), "the journal goes") }
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func anOriginWithoutRangesOrAStrongValidatorGetsOneConnection() async throws {
        let fixture = try EngineFixture()
        for query in ["noRanges=1", "etag=W/%22weak%22"] {
            fixture.origin.clearRequests()
            let outcome = await fixture.run(Self.job(fixture, "/bytes/2000000?seed=4&\(query)", segments: 8))
            #expect(outcome.error == nil)
            #expect(outcome.bodyBytes == FixtureOrigin.bytes(count: 2_000_000, seed: 4))
            #expect(fixture.origin.requests.count == 1, "\(query): \(fixture.origin.requests.map(\.headers))")
            #expect(fixture.origin.requests.allSatisfy { $0.header("Range") == nil })
            #expect(outcome.transactions.count == 1)
        }
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func afterRedirectsThePartsGoToTheFinalURL() async throws {
        let fixture = try EngineFixture()
        let final = "/bytes/2000003?seed=12"
        let query = final.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? final
        let outcome = await fixture.run(Self.job(fixture, "/redirect/302?to=\(query)", segments: 4))
        #expect(outcome.error == nil)
        #expect(outcome.bodyBytes == FixtureOrigin.bytes(count: 2_000_003, seed: 12))
        #expect(outcome.currentRequest.url == fixture.origin.url(final))
        #expect(outcome.response?.statusCode == 200)
        let ranged = fixture.origin.requests.filter { $0.header("Range") != nil }
        #expect(!ranged.isEmpty && ranged.allSatisfy { $0.target == final }, "\(ranged.map(\.target))")
        #expect(fixture.origin.requests(path: "/redirect/302").count == 1, "the redirect is followed once")
        #expect(outcome.transactions.first?.statusCode == 302, "the redirect is the first transaction")
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func httpMaximumConnectionsPerHostBoundsTheConnections() async throws {
        let fixture = try EngineFixture()
        let outcome = await fixture.run(Self.job(fixture, "/bytes/3000000?seed=8&rate=1000000", segments: 8, perHost: 2))
        #expect(outcome.error == nil)
        #expect(outcome.bodyBytes == FixtureOrigin.bytes(count: 3_000_000, seed: 8))
        // Requests in flight at once, from each transaction's start and total time.
        let edges = outcome.transactions.flatMap { timing -> [(Date, Int)] in
            [(timing.fetchStart, 1), (timing.fetchStart.addingTimeInterval(timing.total), -1)]
        }
        var (inFlight, most) = (0, 0)
        for edge in edges.sorted(by: { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }) {
            inFlight += edge.1
            most = max(most, inFlight)
        }
        #expect(most == 2, "\(outcome.transactions.map { ($0.fetchStart, $0.total) })")
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func aValidatorChangeMidDownloadStartsAgainFromZero() async throws {
        let fixture = try EngineFixture()
        let old = FixtureOrigin.bytes(count: 4_000_000, seed: 21)
        let new = FixtureOrigin.bytes(count: 4_000_000, seed: 22)
        fixture.origin.setResource("changing", body: old, etag: "\"a\"", lastModified: nil)
        let job = Self.job(fixture, "/resource/changing?rate=256000", segments: 4)
        fixture.engine.start(job)
        try await fixture.waitForProgress(of: job.id, atLeast: 128 * 1024)
        let changedAt = Date()
        fixture.origin.setResource("changing", body: new, etag: "\"b\"", lastModified: nil)
        let outcome = await fixture.observer.outcome(of: job.id)
        #expect(outcome.error == nil)
        #expect(outcome.bodyBytes == new, "the new representation, whole")
        #expect(fixture.observer.log(of: job.id).contains("resume 0 -1"), "\(fixture.observer.log(of: job.id))")
        let later = fixture.origin.requests.filter { $0.receivedAt > changedAt }
        let refused = try #require(later.firstIndex { $0.header("If-Range") == "\"a\"" }, "a range under the old validator")
        #expect(later[refused...].contains { $0.header("Range") == nil }, "then the whole representation again")
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func aStoppedDownloadContinuesEveryPartFromItsJournal() async throws {
        let fixture = try EngineFixture()
        let size = 6_000_000
        let first = Self.job(fixture, "/bytes/\(size)?seed=5&rate=400000", segments: 4)
        let path = try #require(first.downloadPath)
        fixture.engine.start(first)
        try await fixture.waitForProgress(of: first.id, atLeast: 600_000)
        fixture.engine.cancel(first.id)
        #expect(await fixture.observer.outcome(of: first.id).error?.code == URLErrorCode.cancelled.rawValue)
        // The last checkpoint is written off the loop thread, after the outcome.
        var journal = SegmentJournal.read(partialPath: path)
        for _ in 0..<100 where (journal?.receivedBytes ?? 0) < 600_000 {
            try await Task.sleep(for: .milliseconds(50))
            journal = SegmentJournal.read(partialPath: path)
        }
        let resume = try #require(journal)
        #expect(resume.receivedBytes >= 600_000)
        let unfinished = resume.parts.filter { $0[1] < $0[2] }
        #expect(unfinished.count > 1, "\(resume.parts)")

        fixture.origin.clearRequests()
        var second = first
        second.id = TransferID(taskId: first.id.taskId, attempt: 2)
        second.request.url = fixture.origin.url("/bytes/\(size)?seed=5")
        second.resumeSegments = resume
        let outcome = await fixture.run(second)
        #expect(outcome.error == nil)
        #expect(outcome.bodyBytes == FixtureOrigin.bytes(count: size, seed: 5))
        #expect(fixture.observer.log(of: second.id).contains("resume \(resume.receivedBytes) \(size)"))
        let ranges = fixture.origin.requests.compactMap { request in request.header("Range").flatMap(Self.range) }
        #expect(ranges.count == fixture.origin.requests.count, "every request asks for a range")
        for part in unfinished {
            #expect(ranges.contains { $0.lowerBound == part[1] }, "part \(part) continues where it stopped")
        }
        for range in ranges {
            #expect(unfinished.contains { $0[1] <= range.lowerBound && range.upperBound <= $0[2] }, "\(range) was not fetched already")
        }
        await fixture.close()
    }

    /// `bytes=a-b` as `a..<b+1`.
    static func range(_ field: String) -> Range<Int64>? {
        let bounds = field.dropFirst("bytes=".count).split(separator: "-").compactMap { Int64($0) }
        return bounds.count == 2 ? bounds[0]..<bounds[1] + 1 : nil
    }
}

extension EngineFixture {
    /// Waits (up to 20 s) until the transfer reported `bytes` received.
    func waitForProgress(of id: TransferID, atLeast bytes: Int64) async throws {
        for _ in 0..<400 {
            if (observer.progress(of: id)?.bytesReceived ?? 0) >= bytes { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("no progress to \(bytes) bytes")
    }
}
