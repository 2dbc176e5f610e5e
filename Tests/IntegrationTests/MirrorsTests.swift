import Crypto
import Foundation
import TestSupport
import Testing

/// Downloads from several mirrors (`mirrors`, a Metalink document): failover, ranges spread over the
/// mirrors that agree, piece hashes, and the events that say which mirror was dropped and why.
@Suite("Mirrors and Metalink")
struct MirrorsTests {
    static var segments: [String: Any] { ["max": 4, "minSize": 65536] }

    static func digest(_ bytes: [UInt8]) -> String { "sha-256=:\(Data(SHA256.hash(data: bytes)).base64EncodedString()):" }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { sha256Hex(bytes) }

    /// The task's events of `type`, their `data`.
    static func events(_ api: API, _ taskID: String, _ type: String) async throws -> [[String: Any]] {
        try await api.allEvents("/v1/tasks/\(taskID)/events").filter { $0.eventType == type }.compactMap(\.eventData)
    }

    @Test(.timeLimit(.minutes(1)))
    func aSegmentedDownloadUsesTheMirrorsThatAgreeAndDropsTheOthers() async throws {
        let (good, other, different) = (try FixtureOrigin.start(), try FixtureOrigin.start(), try FixtureOrigin.start())
        defer { for origin in [good, other, different] { origin.stop() } }
        let down = try RefusingPort()
        defer { down.release() }
        let size = 3_000_017
        let first = good.url("/bytes/\(size)?seed=5&etag=first")
        let mirrors = [
            first, "http://127.0.0.1:\(down.port)/bytes/\(size)?seed=5", different.url("/bytes/\(size + 1)?seed=5"),
            other.url("/bytes/\(size)?seed=5&etag=second"),  // the same bytes under another entity tag
        ]
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session,
                [
                    "kind": "download", "request": ["url": first], "mirrors": mirrors, "segments": Self.segments,
                    "expectedDigest": Self.digest(FixtureOrigin.bytes(count: size, seed: 5)),
                ])
            #expect(done.errorCode == nil, "\(done)")
            #expect(done.count("countOfBytesReceived") == size)
            #expect(done["mirrors"] as? [String] == mirrors)
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: size, seed: 5))
            let rangesFromGood = good.requests.filter { $0.header("Range") != nil }
            let rangesFromOther = other.requests.filter { $0.header("Range") != nil }
            #expect(!rangesFromOther.isEmpty, "the second good mirror served ranges: \(other.requests.map(\.headers))")
            #expect(
                rangesFromOther.allSatisfy { $0.header("If-Range") == nil }, "another server's entity tag is never sent to it")
            #expect(good.requests.count >= 1 && rangesFromGood.allSatisfy { $0.header("If-Range") == #""first""# })
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            let reasons = Dictionary(dropped.map { ($0["url"] as? String ?? "?", $0["reason"] as? String ?? "?") }) { a, _ in a }
            #expect(Set(reasons.keys) == [mirrors[1], mirrors[2]], "\(dropped)")
            #expect(reasons[mirrors[2]]?.contains("length \(size + 1)") == true, "\(reasons)")
            #expect(dropped.allSatisfy { ($0["task"] as? [String: Any])?["id"] as? String == done.taskID })
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aMetalinkBlobsPieceHashesCatchACorruptingMirror() async throws {
        let (good, corrupting) = (try FixtureOrigin.start(), try FixtureOrigin.start())
        defer { for origin in [good, corrupting] { origin.stop() } }
        let size = 2_097_152 + 1000
        let pieceLength = 262_144
        let bytes = FixtureOrigin.bytes(count: size, seed: 7)
        let pieces = stride(from: 0, to: size, by: pieceLength).map { Self.hex(bytes[$0..<min(size, $0 + pieceLength)]) }
        // The second part (from 1 MiB, its own first piece: index 4) is the corrupting mirror's.
        let corruptURL = corrupting.url("/bytes/\(size)?seed=7&corrupt=1100000-1100099")
        // Throttled, so that the first part is still coming when the second part's connection opens.
        let goodURL = good.url("/bytes/\(size)?seed=7&rate=4000000")
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink">
              <file name="file.bin">
                <size>\(size)</size>
                <hash type="sha-256">\(Self.hex(bytes))</hash>
                <pieces length="\(pieceLength)" type="sha-256">\(pieces.map { "<hash>\($0)</hash>" }.joined())</pieces>
                <url priority="2">\(corruptURL.replacingOccurrences(of: "&", with: "&amp;"))</url>
                <url priority="1" location="xx">\(goodURL.replacingOccurrences(of: "&", with: "&amp;"))</url>
              </file>
            </metalink>
            """
        try await withTaskService { api, _ in
            let blob = try await api.makeBlob(Array(document.utf8))
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session,
                ["kind": "download", "metalink": ["blobId": blob], "segments": ["max": 2, "minSize": 65536]])
            #expect(done.errorCode == nil, "\(done)")
            #expect(done["mirrors"] as? [String] == [goodURL, corruptURL], "best priority first")
            #expect((done["originalRequest"] as? [String: Any])?["url"] as? String == goodURL)
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == Self.hex(bytes))
            #expect(done.count("countOfBytesReceived") == size)
            let rejected = try await Self.events(api, done.taskID, "task.didRejectPiece")
            #expect(rejected.map { int($0["index"]) } == [4], "\(rejected) \(corrupting.requests.map(\.headers))")
            #expect(rejected.first?["mirror"] as? String == corruptURL)
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["url"] as? String } == [corruptURL], "\(dropped)")
            #expect((dropped.first?["reason"] as? String)?.contains("piece 4") == true)
            let refetched = good.requests.compactMap { $0.header("Range") }.filter { $0.hasPrefix("bytes=1048576-") }
            #expect(!refetched.isEmpty, "the bad piece came again from the good mirror: \(good.requests.map(\.headers))")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aMetalinkURLIsFetchedThenItsMirrorsAndItsHashIsChecked() async throws {
        let (origin, mirror) = (try FixtureOrigin.start(), try FixtureOrigin.start())
        defer { for server in [origin, mirror] { server.stop() } }
        let size = 300_000
        let bytes = FixtureOrigin.bytes(count: size, seed: 4)
        let urls = [origin.url("/status/404"), mirror.url("/bytes/\(size)?seed=4")]
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="f"><size>\(size)</size>
            <hash type="sha-256">\(Self.hex(bytes))</hash>
            <url priority="1">\(urls[0])</url><url priority="5">\(urls[1])</url></file></metalink>
            """
        origin.setResource("file.meta4", body: Array(document.utf8), etag: nil, lastModified: nil)
        origin.setResource("bad.meta4", body: Array("<metalink/>".utf8), etag: nil, lastModified: nil)
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session, ["kind": "download", "metalink": ["url": origin.url("/resource/file.meta4")]])
            #expect(done.errorCode == nil, "\(done)")
            #expect(done["metalink"] as? [String: String] == ["url": origin.url("/resource/file.meta4")])
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == Self.hex(bytes))
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["url"] as? String } == [urls[0]], "\(dropped)")

            // The document's hash is the one checked: a mirror serving other bytes of the same length fails it.
            let other = """
                <?xml version="1.0"?><metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="f">
                <hash type="sha-256">\(Self.hex(bytes))</hash><url>\(mirror.url("/bytes/\(size)?seed=5"))</url></file></metalink>
                """
            origin.setResource("other.meta4", body: Array(other.utf8), etag: nil, lastModified: nil)
            let mismatch = try await api.runTask(
                session: session, ["kind": "download", "metalink": ["url": origin.url("/resource/other.meta4")]])
            #expect(mismatch.errorCode == -1011, "\(mismatch)")

            for path in ["/resource/bad.meta4", "/status/404"] {
                let bad = try await api.runTask(session: session, ["kind": "download", "metalink": ["url": origin.url(path)]])
                #expect(bad.errorCode == -1017, "\(path): \(bad)")
                #expect(
                    ((bad["error"] as? [String: Any])?["userInfo"] as? [String: Any])?["reason"] as? String == "metalinkInvalid", "\(bad)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPlainDownloadFailsOverToTheNextMirror() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let size = 200_000
        // Neither mirror is fetched in ranges (`noRanges`): the download starts again on the next one.
        let mirrors = [
            origin.url("/status/503"), origin.url("/truncated?length=\(size)&send=5000"), origin.url("/bytes/\(size)?seed=2&noRanges=1"),
        ]
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session,
                [
                    "kind": "download", "request": ["url": mirrors[0]], "mirrors": mirrors, "expectedLength": size,
                    "expectedDigest": Self.digest(FixtureOrigin.bytes(count: size, seed: 2)),
                ])
            #expect(done.errorCode == nil, "\(done)")
            #expect(done.statusCode == 200)
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: size, seed: 2))
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["url"] as? String } == [mirrors[0], mirrors[1]], "\(dropped)")
            #expect(dropped.first?["reason"] as? String == "status 503")
        }
    }

    /// The first mirror answers 200 with another length than `expectedLength` (and ranges, a strong entity
    /// tag): refused at its head, it is not the task's response, and the download fetched in ranges begins
    /// on the next mirror's head — not on the refused one's length.
    @Test(.timeLimit(.minutes(1)))
    func aSegmentedDownloadDoesNotBeginOnARefusedMirrorsHead() async throws {
        let (wrong, good) = (try FixtureOrigin.start(), try FixtureOrigin.start())
        defer { for origin in [wrong, good] { origin.stop() } }
        let size = 1_000_003
        let mirrors = [wrong.url("/bytes/\(size + 500)?seed=7"), good.url("/bytes/\(size)?seed=7")]
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session,
                [
                    "kind": "download", "request": ["url": mirrors[0]], "mirrors": mirrors, "segments": Self.segments,
                    "expectedLength": size, "expectedDigest": Self.digest(FixtureOrigin.bytes(count: size, seed: 7)),
                ])
            #expect(done.errorCode == nil, "\(done)")
            #expect(int((done["response"] as? [String: Any])?["expectedContentLength"]) == size, "the good mirror's head: \(done)")
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: size, seed: 7))
            #expect(wrong.requests.filter { $0.header("Range") != nil }.isEmpty, "no range asked of the refused mirror")
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["url"] as? String } == [mirrors[0]], "\(dropped)")
            let responses = try await api.allEvents("/v1/tasks/\(done.taskID)/events").filter {
                $0.eventType == "task.didReceiveResponse" || $0.eventType == "dataTask.didReceiveResponse"
            }
            #expect(responses.count <= 1, "the refused head is no response of the task: \(responses.compactMap(\.eventData))")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aMirrorFailingMidFileCostsOnlyTheRestWhichTheNextServesByRange() async throws {
        let (failing, next) = (try FixtureOrigin.start(), try FixtureOrigin.start())
        defer { for origin in [failing, next] { origin.stop() } }
        let size = 1_000_000
        let mirrors = [failing.url("/gate/cut?bytes=300000&total=\(size)&seed=3&fail=1&ranges=1"), next.url("/bytes/\(size)?seed=3")]
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let created = try await api.createTask(
                session: session, ["kind": "download", "request": ["url": mirrors[0]], "mirrors": mirrors, "resume": true])
            _ = try await api.task(created.taskID, until: { ($0.count("countOfBytesReceived") ?? 0) >= 300_000 }, within: 20)
            failing.openGate("cut")
            let done = try await api.completedTask(created.taskID)
            #expect(done.errorCode == nil, "\(done)")
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: size, seed: 3))
            #expect(next.requests.map { $0.header("Range") } == ["bytes=300000-999999"], "only the rest, by range")
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["url"] as? String } == [mirrors[0]], "\(dropped)")
            let restarts = try await Self.events(api, done.taskID, "downloadTask.didResumeAtOffset")
            #expect(restarts.isEmpty, "nothing started again from 0: \(restarts)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func everyMirrorAndMetalinkURLIsJudgedByTheEgressPolicy() async throws {
        let allowed = try FixtureOrigin.start()
        let forbidden = try FixtureOrigin.start(host: "127.0.0.2")
        defer { for origin in [allowed, forbidden] { origin.stop() } }
        let environment = Tokens.environment.merging(["URLSESSIOND_EGRESS_ALLOW": "127.0.0.1/32"]) { $1 }
        let size = 100_000
        let denied = "http://127.0.0.2:\(forbidden.port)/bytes/\(size)?seed=8"
        let mirrors = [allowed.url("/status/500"), denied, allowed.url("/bytes/\(size)?seed=8")]
        forbidden.setResource("f.meta4", body: Array("<metalink/>".utf8), etag: nil, lastModified: nil)
        try await withTaskService(environment: environment) { api, _ in
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": mirrors[0]], "mirrors": mirrors])
            #expect(done.errorCode == nil, "\(done)")
            #expect(sha256Hex(try await api.taskFile(done.taskID).body) == fixtureSHA256(count: size, seed: 8))
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["url"] as? String } == [mirrors[0], denied], "\(dropped)")
            #expect(forbidden.acceptedConnections == 0, "the denied mirror was never reached")

            let metalink = try await api.runTask(
                session: session, ["kind": "download", "metalink": ["url": "http://127.0.0.2:\(forbidden.port)/resource/f.meta4"]])
            #expect(metalink.errorCode == -1004, "\(metalink)")
            #expect(metalink.errorReason == "egressPolicy")
            #expect(forbidden.acceptedConnections == 0)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func killedMidDownloadItContinuesByRangeFromTheMirrorsStillUp() async throws {
        let (first, second) = (try FixtureOrigin.start(), try FixtureOrigin.start())
        defer { for origin in [first, second] { origin.stop() } }
        let directory = try TemporaryDirectory.make(prefix: "urlsessiond-mirrors")
        defer { directory.remove() }
        let size = 6_000_000
        let mirrors = [first.url("/bytes/\(size)?seed=14&rate=400000"), second.url("/bytes/\(size)?seed=14&rate=400000&etag=other")]
        let client = HTTPClient()
        let running = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let api = API(running, client)
        let session = try await api.makeSession(["kind": "background", "identifier": "mirrors.test"])
        let created = try await api.createTask(
            session: session,
            [
                "kind": "download", "request": ["url": mirrors[0]], "mirrors": mirrors, "segments": ["max": 2, "minSize": 65536],
                "expectedDigest": Self.digest(FixtureOrigin.bytes(count: size, seed: 14)), "resume": true,
            ])
        let id = created.taskID
        let downloads = directory.url.appendingPathComponent("downloads")
        try await eventually(timeout: 30, interval: 0.1) {
            (Journal(in: downloads, task: id)?.parts.filter { $0.next > $0.start }.count ?? 0) >= 2
        }
        await running.kill9()
        first.stop()  // the preferred mirror is down when the service comes back
        second.clearRequests()
        let restarted = try await ServiceProcess.start(dataDirectory: directory.url, environment: TaskEnvironment.loopback)
        let again = API(restarted, client)
        let done = try await again.completedTask(id, within: 60)
        #expect(done.errorCode == nil, "\(done)")
        #expect(sha256Hex(try await again.taskFile(id).body) == fixtureSHA256(count: size, seed: 14))
        #expect(second.requests.allSatisfy { ($0.header("Range") ?? "").hasPrefix("bytes=") }, "only ranges after the restart")
        #expect(!second.requests.contains { $0.header("Range")?.hasPrefix("bytes=0-") == true }, "nothing fetched twice from 0")
        let dropped = try await Self.events(again, id, "task.didDropMirror")
        #expect(dropped.map { $0["url"] as? String } == [mirrors[0]], "\(dropped)")
        #expect(try await restarted.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func whenEveryMirrorFailsTheTaskFailsWithTheLastCause() async throws {
        let origin = try FixtureOrigin.start()
        defer { origin.stop() }
        let mirrors = [origin.url("/status/503"), origin.url("/bytes/1000?seed=1")]
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let done = try await api.runTask(
                session: session, ["kind": "download", "request": ["url": mirrors[0]], "mirrors": mirrors, "expectedLength": 999])
            #expect(done.errorCode == -1011, "\(done)")
            #expect(((done["error"] as? [String: Any])?["userInfo"] as? [String: Any])?["reason"] as? String == "mirrorRefused")
            let dropped = try await Self.events(api, done.taskID, "task.didDropMirror")
            #expect(dropped.map { $0["reason"] as? String } == ["status 503", "length 1000, expected 999"])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func invalidMirrorsAndMetalinksNameTheirField() async throws {
        try await withTaskService { api, _ in
            let session = try await api.makeSession()
            let url = "http://127.0.0.1:9/bytes/10"
            let notMetalink = try await api.makeBlob(Array("<html/>".utf8))
            let cases: [([String: Any], Int, String)] = [
                (["kind": "data", "request": ["url": url], "mirrors": [url]], 422, "mirrors"),
                (["kind": "download", "request": ["url": url], "mirrors": ["http://127.0.0.1:9/other"]], 422, "mirrors[0]"),
                (["kind": "download", "request": ["url": url], "mirrors": [url, "ftp://a/b"]], 422, "mirrors[1]"),
                (["kind": "download", "request": ["url": url], "mirrors": [url, url]], 422, "mirrors[1]"),
                (["kind": "download", "request": ["url": url], "mirrors": [String]()], 422, "mirrors"),
                (["kind": "download", "request": ["url": url], "mirrors": (0...16).map { "\(url)?\($0)" }], 422, "mirrors"),
                (["kind": "download", "request": ["url": url], "expectedLength": 10], 422, "expectedLength"),
                (["kind": "download", "request": ["url": url], "mirrors": [url], "expectedLength": -1], 422, "expectedLength"),
                (["kind": "download", "metalink": [String: String]()], 422, "metalink"),
                (["kind": "download", "metalink": ["url": "file:///etc/passwd"]], 422, "metalink.url"),
                (["kind": "download", "metalink": ["blobId": "blb_nope"]], 422, "metalink.blobId"),
                (["kind": "download", "metalink": ["blobId": notMetalink]], 422, "metalink.blobId"),
                (["kind": "download", "metalink": ["url": url], "request": ["url": url]], 422, "request.url"),
                (["kind": "download", "metalink": ["url": url], "mirrors": [url]], 422, "mirrors"),
                (["kind": "data", "metalink": ["url": url]], 422, "metalink"),
            ]
            for (body, status, field) in cases {
                expectProblem(try await api.postTask(session: session, body), status: status, slug: "invalid-value", field: field)
            }
            let missing = try await api.postTask(
                session: session, ["kind": "download", "metalink": ["blobId": "blb_" + String(repeating: "a", count: 22)]])
            expectProblem(missing, status: 404, slug: "not-found", field: "metalink.blobId")
        }
    }
}
