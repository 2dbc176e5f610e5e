import Curl
import Foundation
import Logging
import TestSupport
import Testing
import TransferEngine
import TransferModels

/// Records what the engine reports and lets a test wait for a transfer's outcome.
final class RecordingObserver: TransferObserver, @unchecked Sendable {
    // `@unchecked Sendable`: all state lives in `state`, under its lock.
    private struct State {
        var outcomes: [TransferID: TransferOutcome] = [:]
        var waiters: [TransferID: [CheckedContinuation<TransferOutcome, Never>]] = [:]
        var log: [TransferID: [String]] = [:]
        var progress: [TransferID: TransferProgress] = [:]
    }
    private let state = LockedBox(State())
    /// Answers `asksToRedirect` (asked for jobs that decide redirects, and for streamed bodies).
    let redirectAnswers = LockedBox<(@Sendable (TransferID, OutgoingRequest) -> Void)?>(nil)

    func transfer(_ id: TransferID, asksToRedirect response: ResponseHead, to request: OutgoingRequest) {
        state.withLock { $0.log[id, default: []].append("asks to redirect \(response.statusCode)") }
        redirectAnswers.withLock { $0 }?(id, request)
    }

    func transfer(_ id: TransferID, didReceive response: ResponseHead, for request: OutgoingRequest, body: GrowingBody?) {
        state.withLock { $0.log[id, default: []].append("response \(response.statusCode)") }
    }

    func transfer(_ id: TransferID, willRedirect response: ResponseHead, to request: OutgoingRequest) {
        state.withLock { $0.log[id, default: []].append("redirect \(response.statusCode) \(request.method) \(request.url)") }
    }

    func transfer(_ id: TransferID, didProgress progress: TransferProgress) {
        state.withLock { $0.progress[id] = progress }
    }

    func transfer(_ id: TransferID, didResumeAtOffset offset: Int64, expectedTotalBytes: Int64) {
        state.withLock { $0.log[id, default: []].append("resume \(offset) \(expectedTotalBytes)") }
    }

    /// The last progress reported for `id`.
    func progress(of id: TransferID) -> TransferProgress? { state.withLock { $0.progress[id] } }

    func transfer(_ id: TransferID, didComplete outcome: TransferOutcome) {
        let waiters = state.withLock { state in
            state.outcomes[id] = outcome
            state.log[id, default: []].append("complete")
            return state.waiters.removeValue(forKey: id) ?? []
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    func outcome(of id: TransferID) async -> TransferOutcome {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> TransferOutcome? in
                if let outcome = state.outcomes[id] { return outcome }
                state.waiters[id, default: []].append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    func log(of id: TransferID) -> [String] { state.withLock { $0.log[id] ?? [] } }
}

/// An engine allowed to reach loopback (where the fixture origin lives), its observer and the origin.
struct EngineFixture {
    let engine: TransferEngine
    let observer = RecordingObserver()
    let origin: FixtureOrigin
    let directory: TemporaryDirectory

    init(allowLoopback: Bool = true, maximumConcurrentTransfers: Int? = nil) throws {
        origin = try FixtureOrigin.start()
        directory = try TemporaryDirectory.make(prefix: "engine-test")
        var configuration = EngineConfiguration()
        if let maximumConcurrentTransfers { configuration.maximumConcurrentTransfers = maximumConcurrentTransfers }
        configuration.downloadsDirectory = directory.url
        if allowLoopback { configuration.egress = EgressPolicy(allowed: try EgressPolicy.parseAllowList("127.0.0.0/8,::1").get()) }
        engine = try TransferEngine(configuration: configuration, observer: observer, logger: Logger(label: "engine-test"))
    }

    func run(_ job: TransferJob) async -> TransferOutcome {
        engine.start(job)
        return await observer.outcome(of: job.id)
    }

    func job(_ path: String, method: String = "GET", body: OutgoingRequest.Body = .none, kind: TransferJob.Kind = .data) -> TransferJob {
        TransferJob(
            id: TransferID(taskId: ResourceID.make(prefix: "tsk"), attempt: 1), sessionId: "ses_test", kind: kind,
            request: OutgoingRequest(url: origin.url(path), method: method, body: body))
    }

    func close() async {
        await engine.shutdown()
        origin.stop()
        directory.remove()
    }
}

extension TransferOutcome {
    var bodyBytes: [UInt8] {
        switch body {
        case .bytes(let bytes): bytes
        case .file(let path, _): (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
        case .none: []
        }
    }
}

@Suite("Transfer engine against the fixture origin")
struct TransferEngineTests {
    @Test(.timeLimit(.minutes(1)))
    func dataTaskReceivesTheBody() async throws {
        let fixture = try EngineFixture()
        let outcome = await fixture.run(fixture.job("/bytes/100000?seed=3"))
        #expect(outcome.error == nil)
        #expect(outcome.response?.statusCode == 200)
        #expect(outcome.bodyBytes == FixtureOrigin.bytes(count: 100_000, seed: 3))
        #expect(outcome.progress.bytesReceived == 100_000)
        #expect(outcome.progress.bytesExpectedToReceive == 100_000)
        #expect(outcome.transactions.count == 1)
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func serverErrorsAreResponsesNotErrors() async throws {
        let fixture = try EngineFixture()
        let outcome = await fixture.run(fixture.job("/status/404"))
        #expect(outcome.error == nil)
        #expect(outcome.response?.statusCode == 404)
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func followsSixteenRedirectsAndFailsOnTheSeventeenth() async throws {
        let fixture = try EngineFixture()
        let sixteen = await fixture.run(fixture.job("/redirect-chain/16"))
        #expect(sixteen.error == nil)
        #expect(sixteen.response?.statusCode == 200)
        #expect(sixteen.transactions.count == 17)
        let seventeen = await fixture.run(fixture.job("/redirect-chain/17"))
        #expect(seventeen.error?.code == URLErrorCode.httpTooManyRedirects.rawValue)
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func redirectTurnsPostIntoGetAndKeepsItFor307() async throws {
        let fixture = try EngineFixture()
        let body = OutgoingRequest.Body.bytes(Array("a=1".utf8))
        let see = await fixture.run(fixture.job("/redirect/303?to=/echo", method: "POST", body: body))
        #expect(see.currentRequest.method == "GET")
        #expect(String(decoding: see.bodyBytes, as: UTF8.self).contains(#""method":"GET""#))
        let temporary = await fixture.run(fixture.job("/redirect/307?to=/echo", method: "POST", body: body))
        #expect(temporary.currentRequest.method == "POST")
        #expect(String(decoding: temporary.bodyBytes, as: UTF8.self).contains(#""bodySize":3"#))
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func loopbackIsRefusedByDefaultWithoutConnecting() async throws {
        let fixture = try EngineFixture(allowLoopback: false)
        let outcome = await fixture.run(fixture.job("/bytes/10"))
        #expect(outcome.error?.code == URLErrorCode.cannotConnectToHost.rawValue)
        #expect(outcome.error?.reason == "egressPolicy")
        #expect(fixture.origin.acceptedConnections == 0)
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func transportFailuresMapToURLErrors() async throws {
        let fixture = try EngineFixture()
        var stalled = fixture.job("/stall?bytes=10&total=100")
        stalled.timeoutIntervalForRequest = 1
        #expect(await fixture.run(stalled).error?.code == URLErrorCode.timedOut.rawValue)
        #expect(
            await fixture.run(fixture.job("/truncated?length=100&send=10")).error?.code
                == URLErrorCode.networkConnectionLost.rawValue)
        var closedPort = fixture.job("/")
        closedPort.request.url = "http://127.0.0.1:1/"
        #expect(await fixture.run(closedPort).error?.code == URLErrorCode.cannotConnectToHost.rawValue)
        var badHost = fixture.job("/")
        badHost.request.url = "http://nonexistent.invalid/"
        #expect(await fixture.run(badHost).error?.code == URLErrorCode.cannotFindHost.rawValue)
        var ftp = fixture.job("/")
        ftp.request.url = "ftp://127.0.0.1/x"
        #expect(await fixture.run(ftp).error?.code == URLErrorCode.unsupportedURL.rawValue)
        await fixture.close()
    }

    /// Past `WritebackPacer.slice`, the writeback of what was written starts while the body arrives,
    /// from the start and from a resumed download's kept bytes; the file is the same.
    @Test(.timeLimit(.minutes(1)))
    func downloadsOfSeveralWritebackSlicesKeepEveryByte() async throws {
        let fixture = try EngineFixture()
        let count = 20 << 20
        let expected = FixtureOrigin.bytes(count: count, seed: 12)
        var whole = fixture.job("/bytes/\(count)?seed=12", kind: .download)
        whole.downloadPath = fixture.directory.appending("whole.part").path
        let downloaded = await fixture.run(whole)
        #expect(downloaded.error == nil)
        #expect(downloaded.bodyBytes == expected)

        let kept = 9 << 20
        let partial = fixture.directory.appending("resumed.part")
        try Data(expected[..<kept]).write(to: partial)
        var resumed = fixture.job("/bytes/\(count)?seed=12", kind: .download)
        resumed.downloadPath = partial.path
        resumed.resumeOffset = Int64(kept)
        let continued = await fixture.run(resumed)
        #expect(continued.error == nil)
        #expect(continued.bodyBytes == expected)
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func downloadWritesItsFileAndUploadStreamsAFile() async throws {
        let fixture = try EngineFixture()
        var download = fixture.job("/bytes/3000000?seed=9", kind: .download)
        download.downloadPath = fixture.directory.appending("download.part").path
        let downloaded = await fixture.run(download)
        #expect(downloaded.error == nil)
        #expect(downloaded.bodyBytes == FixtureOrigin.bytes(count: 3_000_000, seed: 9))

        let source = fixture.directory.appending("upload.bin")
        try Data(FixtureOrigin.bytes(count: 2_000_000, seed: 4)).write(to: source)
        let upload = await fixture.run(
            fixture.job("/upload", method: "PUT", body: .file(path: source.path, length: 2_000_000), kind: .upload))
        #expect(upload.error == nil)
        #expect(upload.progress.bytesSent == 2_000_000)
        #expect(String(decoding: upload.bodyBytes, as: UTF8.self).contains(#""bodySize":2000000"#))
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingEndsWithCancelled() async throws {
        let fixture = try EngineFixture()
        let job = fixture.job("/drip?bytes=100&interval=0.2")
        fixture.engine.start(job)
        try await Task.sleep(for: .milliseconds(300))
        fixture.engine.cancel(job.id)
        #expect(await fixture.observer.outcome(of: job.id).error?.code == URLErrorCode.cancelled.rawValue)
        await fixture.close()
    }
}

@Suite("Connections belong to their session")
struct ConnectionSharingTests {
    @Test(.timeLimit(.minutes(1)))
    func connectionsAreReusedWithinASessionOnly() async throws {
        let fixture = try EngineFixture()
        var first = fixture.job("/bytes/10")
        first.sessionId = "ses_a"
        _ = await fixture.run(first)
        var second = fixture.job("/bytes/10")
        second.sessionId = "ses_a"
        let reused = await fixture.run(second)
        #expect(reused.transactions.first?.isReusedConnection == true)
        #expect(fixture.origin.acceptedConnections == 1)
        var other = fixture.job("/bytes/10")
        other.sessionId = "ses_b"
        let fresh = await fixture.run(other)
        #expect(fresh.transactions.first?.isReusedConnection == false)
        #expect(fixture.origin.acceptedConnections == 2)
        await fixture.close()
    }

    /// Connections stay pooled whatever the limits, and each request brings its own receive bound to the
    /// connection it takes: a limited request locks the socket's buffer small (a quarter second of its
    /// limit), the unlimited request after it on the same connection clears the lock (so the kernel grows
    /// the buffer again), and so on. Before, the small locked buffer stayed for every later request.
    @Test(.timeLimit(.minutes(1)))
    func aPooledConnectionTakesEachRequestsOwnReceiveBound() async throws {
        let fixture = try EngineFixture()
        func run(limited: Bool) async -> TransferOutcome {
            var job = fixture.job("/bytes/100000")
            job.sessionId = "ses_a"
            if limited { job.rateLimit = RateLimit(receiveBytesPerSecond: 1_000_000) }
            return await fixture.run(job)
        }
        var buffers: [ReceiveBuffer?] = []
        var outcomes: [TransferOutcome] = []
        for limited in [true, false, true, false] {
            let outcome = await run(limited: limited)
            outcomes.append(outcome)
            buffers.append(outcome.transactions.last.flatMap(ReceiveBuffer.init(ofClientSocketOf:)))
        }
        #expect(outcomes.allSatisfy { $0.error == nil && $0.bodyBytes.count == 100_000 })
        #expect(outcomes.dropFirst().allSatisfy { $0.transactions.first?.isReusedConnection == true })
        #expect(fixture.origin.acceptedConnections == 1)
        // A quarter second of 1 MB/s, doubled by the kernel for its bookkeeping, and locked.
        #expect(buffers[0] == ReceiveBuffer(bytes: 500_000, isLocked: true))
        #expect(buffers[1]?.isLocked == false)
        #expect(buffers[2] == ReceiveBuffer(bytes: 500_000, isLocked: true))
        #expect(buffers[3]?.isLocked == false)
        await fixture.close()
    }

    /// A limit set on a running transfer (`PATCH`) reaches its live connection's receive buffer at once, not
    /// only its next request's: the socket of an unlimited transfer gets the bound when it is limited, and
    /// loses it again when the limit is lifted.
    @Test(.timeLimit(.minutes(1)))
    func aLimitSetWhileRunningBoundsTheLiveConnection() async throws {
        let fixture = try EngineFixture()
        let job = fixture.job("/drip?bytes=100&interval=0.05")
        fixture.engine.start(job)
        func buffer() async throws -> ReceiveBuffer? {
            for _ in 0..<100 {  // until the request has its connection
                if let found = ReceiveBuffer(ofClientSocketTo: fixture.origin.port) { return found }
                try await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
        func buffer(becomes expected: (ReceiveBuffer) -> Bool) async throws -> ReceiveBuffer? {
            var last: ReceiveBuffer?
            for _ in 0..<100 {  // the loop takes the limit at its next turn
                last = try await buffer()
                if let last, expected(last) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            return last
        }
        #expect(try await buffer()?.isLocked == false)
        fixture.engine.setRateLimit(job.id, RateLimit(receiveBytesPerSecond: 1_000_000))
        #expect(try await buffer { $0.isLocked } == ReceiveBuffer(bytes: 500_000, isLocked: true))
        fixture.engine.setRateLimit(job.id, nil)
        #expect(try await buffer { !$0.isLocked }?.isLocked == false)
        #expect(await fixture.observer.outcome(of: job.id).error == nil)
        await fixture.close()
    }

    @Test(.timeLimit(.minutes(1)))
    func perHostLimitQueuesTheRest() async throws {
        let fixture = try EngineFixture()
        let jobs = (0..<3).map { _ in
            var job = fixture.job("/drip?bytes=3&interval=0.1")
            job.httpMaximumConnectionsPerHost = 1
            return job
        }
        for job in jobs { fixture.engine.start(job) }
        var maximumOpen = 0
        for _ in 0..<100 {
            maximumOpen = max(maximumOpen, fixture.origin.openConnections)
            if fixture.origin.requests(path: "/drip").count == 3 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        for job in jobs { #expect(await fixture.observer.outcome(of: job.id).error == nil) }
        #expect(maximumOpen <= 1)
        await fixture.close()
    }

    /// A finished transfer's slot goes to the next queued one at once. (The loop used to sleep in its poll,
    /// up to a second, before starting the next: a backlog drained at one slot-full per second.)
    @Test(.timeLimit(.minutes(1)))
    func aFreedSlotStartsTheNextQueuedTransferAtOnce() async throws {
        let fixture = try EngineFixture(maximumConcurrentTransfers: 1)
        let jobs = (0..<30).map { index in fixture.job("/bytes/1024?seed=\(index)", kind: index.isMultiple(of: 2) ? .data : .download) }
        let started = ContinuousClock.now
        for job in jobs { fixture.engine.start(job) }
        for job in jobs { #expect(await fixture.observer.outcome(of: job.id).error == nil) }
        // Thirty sleeps of up to a second before; a few milliseconds each now. 10 s leaves room for a slow machine.
        #expect(ContinuousClock.now - started < .seconds(10))
        await fixture.close()
    }
}

@Suite("TLS against nginx with a self-signed certificate")
struct TLSTests {
    private func engine(trusting certificate: String?) throws -> (TransferEngine, RecordingObserver) {
        var configuration = EngineConfiguration()
        configuration.egress = EgressPolicy(allowed: try EgressPolicy.parseAllowList("127.0.0.0/8").get())
        configuration.certificateAuthorities = certificate
        configuration.downloadsDirectory = FileManager.default.temporaryDirectory
        let observer = RecordingObserver()
        return (try TransferEngine(configuration: configuration, observer: observer, logger: Logger(label: "tls-test")), observer)
    }

    @Test(.timeLimit(.minutes(1)))
    func selfSignedCertificateFailsAsACertificateError() async throws {
        let origin = try await NginxOrigin.start(tls: true, files: ["a.txt": Array("hello".utf8)])
        defer { origin.stop() }
        let (engine, observer) = try engine(trusting: nil)
        let job = TransferJob(
            id: TransferID(taskId: "tsk_tls1", attempt: 1), sessionId: "ses_tls", kind: .data,
            request: OutgoingRequest(url: origin.url("/a.txt"), method: "GET"))
        engine.start(job)
        let outcome = await observer.outcome(of: job.id)
        let code = try #require(outcome.error?.code)
        #expect((-1206 ... -1200).contains(code), "got \(code)")
        #expect(outcome.error?.code == URLErrorCode.serverCertificateUntrusted.rawValue)
        await engine.shutdown()
    }

    @Test(.timeLimit(.minutes(1)))
    func trustedOriginNegotiatesHTTP2ByALPN() async throws {
        let body = FixtureOrigin.bytes(count: 200_000, seed: 5)
        let origin = try await NginxOrigin.start(tls: true, files: ["b.bin": body])
        defer { origin.stop() }
        let (engine, observer) = try engine(trusting: origin.certificatePath)
        let job = TransferJob(
            id: TransferID(taskId: "tsk_tls2", attempt: 1), sessionId: "ses_tls", kind: .data,
            request: OutgoingRequest(url: origin.url("/b.bin"), method: "GET"))
        engine.start(job)
        let outcome = await observer.outcome(of: job.id)
        #expect(outcome.error == nil)
        #expect(outcome.bodyBytes == body)
        #expect(outcome.response?.httpVersion == "HTTP/2")
        #expect(outcome.transactions.first?.httpVersion == 3)  // CURL_HTTP_VERSION_2_0
        await engine.shutdown()
    }
}

/// A client socket's receive buffer as the kernel reports it (`SO_RCVBUF`, `SO_BUF_LOCK`), found in this
/// process by the ends a transaction's metrics name (the pooled connection stays open after it).
struct ReceiveBuffer: Equatable {
    var bytes: Int32
    var isLocked: Bool
    /// `SO_BUF_LOCK` and its `SOCK_RCVBUF_LOCK` bit (<asm-generic/socket.h>, <net/sock.h>).
    private static let bufferLockOption: Int32 = 72
    private static let receiveBufferLocked: Int32 = 2

    init(bytes: Int32, isLocked: Bool) {
        (self.bytes, self.isLocked) = (bytes, isLocked)
    }

    init?(ofClientSocketOf transaction: TransactionTiming) {
        self.init { local, remote in local == transaction.localPort && remote == transaction.remotePort }
    }

    /// The one client connection to `port` of this process (the origin's own sockets have it as their
    /// local port).
    init?(ofClientSocketTo port: Int) {
        self.init { _, remote in remote == port }
    }

    private init?(where matches: (_ localPort: Int?, _ remotePort: Int?) -> Bool) {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for socket in descriptors.compactMap(Int32.init) {
            guard matches(Self.port(of: socket, getsockname), Self.port(of: socket, getpeername)) else { continue }
            var bytes: Int32 = 0
            var lock: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(socket, SOL_SOCKET, SO_RCVBUF, &bytes, &size) == 0 else { return nil }
            size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(socket, SOL_SOCKET, Self.bufferLockOption, &lock, &size) == 0 else { return nil }
            self.init(bytes: bytes, isLocked: lock & Self.receiveBufferLocked != 0)
            return
        }
        return nil
    }

    private static func port(
        of socket: Int32, _ name: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name(socket, $0, &length) }
        }
        guard named == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
