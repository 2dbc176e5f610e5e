internal import CCurl
import Foundation
import TransferModels

/// One task's transfer on the engine loop: its easy handle, the request being sent, the response being
/// read, and where the body goes. Confined to the loop thread; C callbacks reach it through `Unmanaged`.
final class Transfer {
    enum Step {
        /// URLSession's rules would follow a redirect to this request.
        case redirect(OutgoingRequest)
        /// The server asks for credentials the delegate may give.
        case challenge(AuthenticationChallenge)
        case done(TransferOutcome)
    }

    /// What the transfer waits for from the delegate.
    enum Waiting {
        /// The proposed redirect; the handle is out of the multi meanwhile.
        case redirect(OutgoingRequest)
        /// The response decision; the body is paused, or the request already ended with `finished`.
        case response(finished: CURLcode?)
        /// The challenge's answer; the handle is out of the multi meanwhile.
        case challenge(AuthenticationChallenge)
    }

    let job: TransferJob
    let easy: CurlEasyHandle
    let configuration: EngineConfiguration
    let observer: any TransferObserver
    var request: OutgoingRequest
    /// Whether the idle deadline passed while transferring (the engine aborted it as `timedOut`).
    var idleDeadline: ContinuousClock.Instant {
        lastActivity + .milliseconds(Int64(job.timeoutIntervalForRequest * 1000))
    }
    var head = ResponseHead()
    /// The head of the response whose body is being delivered (not a redirect being followed).
    var deliveredHead: ResponseHead?
    /// True while the body of a response we are about to redirect away from arrives (it is dropped).
    var discardingBody = false
    var sink: BodySink
    var upload: UploadSource?
    var progress = TransferProgress(bytesSent: 0, bytesExpectedToSend: 0, bytesReceived: 0, bytesExpectedToReceive: -1)
    var transactions: [TransactionTiming] = []
    /// Set by the socket callback when the egress policy refused an address.
    var egressDenial: String?
    /// The last time a byte moved in either direction (or the request started): the idle timeout's origin.
    var lastActivity = ContinuousClock.now
    var redirects = 0
    /// Set while the delegate decides: no traffic, no idle timeout.
    var waiting: Waiting?
    /// The challenge of the 401 being read, when the delegate answers challenges.
    var pendingChallenge: AuthenticationChallenge?
    /// The credential the delegate gave, for its protection space only (never sent to another origin).
    var credential: (user: String, password: String, scheme: AuthenticationChallenge.Scheme, origin: String)?
    var challengeFailures = 0
    /// Whether the bytes kept from an earlier attempt are still wanted (until the final response says).
    var isResuming: Bool { job.resumeOffset > 0 && !resumeSettled }
    var resumeSettled = false
    let startedAt = ContinuousClock.now
    var requestStartedAt = Date()
    var lastProgressReport = ContinuousClock.now
    var lastReportedProgress: TransferProgress?

    /// The session's connection cache; kept alive here for as long as the easy handle uses it.
    let share: CurlShareHandle?

    init(job: TransferJob, configuration: EngineConfiguration, observer: any TransferObserver, share: CurlShareHandle? = nil) throws {
        self.job = job
        self.share = share
        self.configuration = configuration
        self.observer = observer
        self.request = job.request
        self.easy = try CurlEasyHandle()
        self.sink = try Self.makeSink(job, configuration)
    }

    private static func makeSink(_ job: TransferJob, _ configuration: EngineConfiguration) throws -> BodySink {
        switch job.kind {
        case .download:
            try job.resumeOffset > 0 && job.downloadPath != nil
                ? BodySink.file(path: job.downloadPath!, keeping: job.resumeOffset)
                // Creating a file per small download cost more CPU than the rest of its transfer.
                : BodySink.memory(limit: configuration.downloadMemoryLimit,
                                  spillPath: job.downloadPath ?? configuration.downloadsDirectory.appendingPathComponent("\(job.id).part").path)
        case .data, .upload:
            BodySink.memory(limit: configuration.dataBodyMemoryLimit,
                            spillPath: configuration.downloadsDirectory.appendingPathComponent("\(job.id).body").path)
        }
    }

    /// The request is sent again (with a credential): the body of the answer it got is dropped.
    func restartBody() throws {
        sink.discard()
        sink = try Self.makeSink(job, configuration)
        progress.bytesReceived = 0
        progress.bytesExpectedToReceive = -1
    }

    /// `becomeDownload`: the body (none has been kept yet: it was paused) goes to a download file.
    func becomeDownload(path: String) throws {
        sink.discard()
        sink = try BodySink.file(path: path)
    }

    /// Sets every option for `request` (first send, or again after a redirect).
    func prepare() throws {
        try easy.reset()
        let context = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_URL, request.url)
        if let share { try CurlError.check(ccurl_easy_setopt_share(easy.raw, share.raw)) }
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_PROTOCOLS_STR, configuration.protocols)
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, configuration.protocols)
        try easy.set(CURLOPT_FOLLOWLOCATION, false)  // URLSession's redirect rules are applied here
        try easy.set(CURLOPT_PROXY, job.proxy ?? "")  // "" = no proxy, environment variables ignored
        if let noProxy = job.noProxy { try easy.set(CURLOPT_NOPROXY, noProxy) }
        try easy.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl decodes: gzip, deflate, br, zstd
        try easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))  // HTTP/2 by ALPN over TLS
        try easy.set(CURLOPT_SSLVERSION, Self.sslVersion(minimum: job.tlsMinimumVersion, maximum: job.tlsMaximumVersion))
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        // 512 KiB reads: a sixth of the syscalls of libcurl's 16 KiB default on fast downloads (measured).
        try easy.set(CURLOPT_BUFFERSIZE, job.kind == .download ? 512 * 1024 : 64 * 1024)
        if let authorities = configuration.certificateAuthorities { try easy.set(CURLOPT_CAINFO, authorities) }
        if let credential, Self.origin(of: request.url) == credential.origin {
            try easy.set(CURLOPT_USERNAME, credential.user)
            try easy.set(CURLOPT_PASSWORD, credential.password)
            try easy.set(CURLOPT_HTTPAUTH, credential.scheme == .basic ? 1 : 2)  // CURLAUTH_BASIC, CURLAUTH_DIGEST
        }
        try applyTimeouts()
        try applyMethodAndBody()
        try easy.set(CURLOPT_HTTPHEADER, list: headerLines())
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_write_function(easy.raw, transferWriteCallback))
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_header_function(easy.raw, transferHeaderCallback))
        try easy.set(CURLOPT_XFERINFODATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_xferinfo_function(easy.raw, transferProgressCallback))
        try easy.set(CURLOPT_NOPROGRESS, false)
        try easy.set(CURLOPT_OPENSOCKETDATA, pointer: context)
        try CurlError.check(ccurl_easy_setopt_opensocket_function(easy.raw, transferOpenSocketCallback))
        lastActivity = .now
        head = ResponseHead()
        deliveredHead = nil
        discardingBody = false
        pendingChallenge = nil
        requestStartedAt = Date()
    }

    /// The idle timeout bounds connecting here; while transferring, the engine loop enforces it from
    /// `lastActivity` (libcurl's low-speed check averages over seconds, which is not "reset by every byte").
    /// The resource timeout is what is left of the task's whole allowance.
    private func applyTimeouts() throws {
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(job.timeoutIntervalForRequest * 1000)))
        let elapsed = ContinuousClock.now - startedAt
        let left = max(1, Int(job.timeoutIntervalForResource * 1000) - Int(elapsed.components.seconds * 1000))
        try easy.set(CURLOPT_TIMEOUT_MS, left)
    }

    private func applyMethodAndBody() throws {
        upload = nil
        let method = request.method.uppercased()
        switch (method, request.body) {
        case ("GET", .none):
            try easy.set(CURLOPT_HTTPGET, true)
        case ("HEAD", _):
            try easy.set(CURLOPT_NOBODY, true)
        case (_, .none):
            try easy.set(CURLOPT_CUSTOMREQUEST, method)
            if method == "POST" { try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: 0) }
        case (_, let body):
            // Every body streams through the read callback with a known length (Content-Length).
            upload = try UploadSource(body)
            let context = Unmanaged.passUnretained(self).toOpaque()
            try easy.set(CURLOPT_UPLOAD, true)
            try easy.set(CURLOPT_INFILESIZE_LARGE, offset: body.length)
            try easy.set(CURLOPT_CUSTOMREQUEST, method)
            try easy.set(CURLOPT_READDATA, pointer: context)
            try CurlError.check(ccurl_easy_setopt_read_function(easy.raw, transferReadCallback))
            try easy.set(CURLOPT_SEEKDATA, pointer: context)
            try CurlError.check(ccurl_easy_setopt_seek_function(easy.raw, transferSeekCallback))
            progress.bytesExpectedToSend = body.length
        }
    }

    /// The request's headers for libcurl, with its own defaults removed where URLSession has none.
    private func headerLines() -> [String] {
        var lines = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        let names = Set(request.headers.map { $0.name.lowercased() })
        if !names.contains("expect") { lines.append("Expect:") }  // no 100-continue round trip
        if !names.contains("user-agent") { lines.append("User-Agent: urlsessiond (libcurl)") }
        if isResuming {
            lines.append("Range: bytes=\(job.resumeOffset)-")
            if let validator = job.ifRange { lines.append("If-Range: \(validator)") }
        }
        return lines
    }

    static func sslVersion(minimum: String, maximum: String) -> Int {
        let low: [String: Int] = ["TLSv10": Int(CURL_SSLVERSION_TLSv1_0), "TLSv11": Int(CURL_SSLVERSION_TLSv1_1),
                                  "TLSv12": Int(CURL_SSLVERSION_TLSv1_2), "TLSv13": Int(CURL_SSLVERSION_TLSv1_3)]
        let high: [String: Int] = ["TLSv10": Int(CURL_SSLVERSION_MAX_TLSv1_0), "TLSv11": Int(CURL_SSLVERSION_MAX_TLSv1_1),
                                   "TLSv12": Int(CURL_SSLVERSION_MAX_TLSv1_2), "TLSv13": Int(CURL_SSLVERSION_MAX_TLSv1_3)]
        return (low[minimum] ?? Int(CURL_SSLVERSION_TLSv1_2)) | (high[maximum] ?? Int(CURL_SSLVERSION_MAX_TLSv1_3))
    }

    /// `scheme://host:port` of a URL, the unit a credential belongs to.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased()
        else { return nil }
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }
}
