import Curl
import Foundation
import TransferModels

/// One task's transfer on the engine loop: its easy handle, the request being sent, the response being
/// read, and where the body goes. Confined to the loop thread; C callbacks reach it through `Unmanaged`.
///
/// Which step the request is at — and so what may follow — is its `machine`'s (`TransferStateMachine`):
/// the transfer feeds it libcurl's callbacks and the decisions, and carries out the actions it returns
/// (`Transfer+Actions.swift`), handing what only the scheduler can do back as a `Step`.
final class Transfer {
    /// What the scheduler does next for the transfer, after its state machine's actions (nil: nothing —
    /// the transfer waits for a decision, or its traffic goes on).
    enum Step {
        /// Send this request with the same handle (a redirect followed).
        case follow(OutgoingRequest)
        /// The same request goes again, on the same handle (with a credential, or past a TLS decision).
        case sendAgain
        /// Hand the prepared request to libcurl (its proxied target's name was allowed).
        case admit
        /// Take the transfer out of the multi and end it with this failure.
        case abort(TransferFailure)
        case done(TransferOutcome)
    }

    let job: TransferJob
    let easy: CurlEasyHandle
    let configuration: EngineConfiguration
    let observer: any TransferObserver
    var request: OutgoingRequest {
        didSet { hostKey = TransferScheduler.hostKey(job, request.url) }
    }
    /// The unit of `httpMaximumConnectionsPerHost` for `request`, worked out once per request: the
    /// scheduler counts every running transfer's on each pass.
    private(set) var hostKey: String
    /// When the idle timeout ends the transfer (the engine aborts it as `timedOut`) unless a byte moves first.
    var idleDeadline: ContinuousClock.Instant { meter.idleDeadline(timeout: job.timeoutIntervalForRequest) }
    /// Which step the request is at (requesting, receiving, following a redirect, answering a challenge,
    /// waiting for a decision…): the `Transfer` carries out what it decides.
    var machine: TransferStateMachine
    var response = ResponseInProgress()
    var sink: BodySink
    var upload: UploadSource?
    var meter: TransferMeter
    var challenges = ChallengeState()
    var tls = TLSDecisions()
    /// The session's connection cache; kept alive here for as long as the easy handle uses it.
    let share: CurlShareHandle?
    /// Its part in a segmented download (Segments/), if it has one.
    var segments = SegmentRole()
    /// Its task's bandwidth flow (Bandwidth/), when a limit may apply to it.
    var bandwidth: BandwidthFlow?
    /// The mirror its requests go to, when its download has mirrors (Mirrors/).
    var mirrors = MirrorRole()

    init(
        job: TransferJob, configuration: EngineConfiguration, observer: any TransferObserver, share: CurlShareHandle? = nil,
        hostKey: String? = nil, startedAt: ContinuousClock.Instant = .now
    ) throws {
        self.job = job
        self.meter = TransferMeter(startedAt: startedAt)
        self.share = share
        self.configuration = configuration
        self.observer = observer
        self.request = job.request
        self.machine = TransferStateMachine(job: job)
        self.hostKey = hostKey ?? TransferScheduler.hostKey(job, job.request.url)  // the queue's, when it was queued
        self.easy = try CurlEasyHandle()
        self.sink = try Self.makeSink(job, configuration)
    }

    static func makeSink(_ job: TransferJob, _ configuration: EngineConfiguration) throws -> BodySink {
        switch job.kind {
        case .download:
            try job.resumeOffset > 0 && job.downloadPath != nil
                ? BodySink.file(path: job.downloadPath!, keeping: job.resumeOffset)
                // Creating a file per small download cost more CPU than the rest of its transfer.
                : BodySink.memory(
                    limit: configuration.downloadMemoryLimit,
                    spillPath: job.downloadPath ?? configuration.downloadsPath + "/" + job.id.taskId + ".part")
        case .data, .upload, .webSocket, .stream:  // a WebSocket or stream job never has a `Transfer`
            BodySink.memory(
                limit: configuration.dataBodyMemoryLimit,
                spillPath: configuration.downloadsPath + "/" + job.id.taskId + ".body", followed: true)
        }
    }

    /// The request is sent again (with a credential): the body of the answer it got is dropped.
    func restartBody() throws {
        sink.discard()
        sink = try Self.makeSink(job, configuration)
        meter.restartReceiving()
    }

    /// `becomeDownload`: the body (none has been kept yet: it was paused) goes to a download file.
    func becomeDownload(path: String) throws {
        sink.discard()
        sink = try BodySink.file(path: path)
    }

    /// The receive buffer its sockets get: from its flow's share (see `BandwidthFlow.receiveBufferBytes`).
    private var receiveBufferBytes: Int32? { bandwidth?.receiveBufferBytes(sockets: job.segments?.maximumConnections ?? 1) }

    /// Its flow's share was divided again: the connection of its request under way, its next socket and its
    /// next request on a pooled one take the bound that follows from it.
    func followReceiveShare() {
        easy.updateReceiveBufferLimit(receiveBufferBytes)
    }

    /// Sets every option for `request` (first send, or again after a redirect).
    func prepare() throws {
        try easy.reset()
        try Self.applyConnectionOptions(to: easy, job: job, url: request.url, configuration: configuration)
        try easy.setShare(share)
        try easy.setReceiveBufferLimit(receiveBufferBytes)
        // Every encoding libcurl decodes (gzip, deflate, br, zstd); a range is of the identity encoding's bytes.
        if machine.range == nil { try easy.set(.acceptEncoding, "") }
        try easy.preferHTTP2OverTLS()
        try tls.apply(to: easy, url: request.url, job: job)
        // 512 KiB reads: a sixth of the syscalls of libcurl's 16 KiB default on fast downloads (measured).
        try easy.set(.bufferSize, job.kind == .download ? 512 * 1024 : 64 * 1024)
        if configuration.maximumDownloadSize > 0 && !machine.isResuming {
            // An announced length fails before any byte is kept. A resumed download's 206 announces only the
            // rest (its 200 the whole): the write callback bounds those.
            try easy.set(.maximumFileSize, configuration.maximumDownloadSize)
        }
        try challenges.apply(to: easy, url: request.url, proxied: job.proxy != nil)
        try applyTimeouts()
        try applyMethodAndBody()
        try easy.setHeaders(headerLines())
        easy.delegate = self
        let bodyCallbacks: CurlCallbacks = upload == nil ? [.response, .progress] : [.response, .requestBody, .progress]
        try easy.installCallbacks(bodyCallbacks.union(tls.callbacks(for: request.url, of: job)))
        meter.lastActivity = .now
        response = ResponseInProgress()  // its undecoded body too: `reset()` turned decoding back on
        tls.sawCertificateRequest = false
        _ = machine.handle(.requestPrepared)
        meter.requestStartedAt = Date()
    }

    /// The idle timeout bounds connecting here; while transferring, the engine loop enforces it from
    /// `lastActivity` (libcurl's low-speed check averages over seconds, which is not "reset by every byte").
    /// The resource timeout is what is left of the task's whole allowance.
    private func applyTimeouts() throws {
        try easy.set(.connectTimeoutMilliseconds, max(1, Int(job.timeoutIntervalForRequest * 1000)))
        try easy.set(.timeoutMilliseconds, meter.millisecondsLeft(of: job.timeoutIntervalForResource))
    }

    private func applyMethodAndBody() throws {
        upload = nil
        let method = request.method.uppercased()
        switch (method, request.body) {
        case ("GET", .none):
            try easy.set(.httpGet, true)
        case ("HEAD", _):
            try easy.set(.noBody, true)
        case (_, .none):
            try easy.set(.customRequest, method)
            if method == "POST" { try easy.set(.postFieldSize, 0) }
        case (_, let body):
            // Every body streams through the read callback, with its length (Content-Length) when known;
            // a streamed body of unknown length goes chunked.
            upload = try UploadSource(body)
            try easy.set(.upload, true)
            try easy.set(.uploadBufferSize, Self.uploadBufferSize(for: body))
            if body.length >= 0 { try easy.set(.uploadSize, body.length) }
            try easy.set(.customRequest, method)
            meter.progress.bytesExpectedToSend = body.length
        }
    }

    /// The request's headers for libcurl, with its own defaults removed where URLSession has none.
    private func headerLines() -> [String] {
        // A range request sets its own `Range`, `If-Range`, and no `Accept-Encoding`.
        let own: Set<String> = machine.range == nil ? [] : ["range", "if-range", "accept-encoding"]
        var lines = request.headers.filter { !own.contains($0.name.lowercased()) }.map {
            $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)"
        }
        let names = Set(request.headers.map { $0.name.lowercased() })
        if !names.contains("expect") { lines.append("Expect:") }  // no 100-continue round trip
        if !names.contains("user-agent") { lines.append("User-Agent: urlsessiond (libcurl)") }
        // URLSession's type for a body that has none of its own.
        if upload != nil, !names.contains("content-type") { lines.append("Content-Type: application/x-www-form-urlencoded") }
        // A `Cookie` header the request sets itself goes as given, as URLSession sends it.
        if !names.contains("cookie"), let cookies = job.cookies?.cookieHeader(for: request.url) {
            lines.append("Cookie: \(cookies)")
        }
        if machine.validatesStoredResponse {
            for field in job.storedResponse?.conditionalFields ?? [] { lines.append("\(field.name): \(field.value)") }
        }
        if let range = machine.range, let download = segmentDownload {
            lines.append("Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)")
            if let validator = ifRangeValidator(download) { lines.append("If-Range: \(validator)") }
        } else if machine.isResuming {
            lines.append("Range: bytes=\(job.resumeOffset)-")
            if let validator = job.ifRange { lines.append("If-Range: \(validator)") }
        }
        return lines
    }
}
