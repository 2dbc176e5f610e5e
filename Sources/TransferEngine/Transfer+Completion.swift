import Curl
import Foundation
import HTTPCaching
import TransferModels

extension Transfer {
    /// How often a running transfer tells its observer about progress (the delegate coalesces further).
    static let progressReportInterval: Duration = .milliseconds(100)

    func reportProgressIfDue() {
        guard connectionNumber == 0 else { return }  // a part connection's bytes are counted by its primary
        let now = ContinuousClock.now
        guard now - lastProgressReport >= Self.progressReportInterval, progress != lastReportedProgress else { return }
        lastProgressReport = now
        lastReportedProgress = progress
        observer.transfer(job.id, didProgress: progress)
    }

    /// A complete response head: informational ones are reported (not `100 Continue`, libcurl's own
    /// business, as URLSession keeps it); a redirect we will follow has its body dropped; the final one is
    /// announced before its body.
    func responseHeadCompleted() {
        let status = head.statusCode
        guard status >= 200 else {  // 1xx: the real response follows
            if status != 100 && status != 101 { observer.transfer(job.id, didReceiveInformational: head, for: request) }
            return
        }
        if let cookies = job.cookies {  // before anything follows from this response (the next hop's request)
            let setCookies = head.fields.filter { $0.name.caseInsensitiveEquals("set-cookie") }.map(\.value)
            if !setCookies.isEmpty { cookies.received(setCookies, from: request.url) }
        }
        if segmentRequest != nil { return segmentHeadCompleted() }  // a range of a segmented download
        if RedirectPolicy.nextRequest(status: status, location: head.value("location"), request: request) != nil {
            discardingBody = true
            return
        }
        pendingChallenge = nil  // libcurl's own steps of a handshake (NTLM's type 2) came before this head
        if job.decidesChallenges || job.credentials != nil, let challenge = challenge(in: head) {
            pendingChallenge = challenge  // the body is kept: it is the response if no credential is given
            return
        }
        if status == 304, validatesStoredResponse, let stored = job.storedResponse {
            // The cache's validation came back "not modified": the stored response, updated, is the answer.
            var updated = stored.head
            updated.fields = HTTPCacheRules.merge(stored.head.fields, withNotModified: head.fields)
            deliversStoredBody = true
            deliver(updated)
        } else if beginMultipartReplace() {
            return  // each part is a response of its own, delivered (and asked about) as it arrives
        } else {
            deliver(head)
            beginSegmentsIfPossible()
        }
        if isResuming { settleResume() }
        if job.decidesResponse {
            waiting = .response(finished: nil)  // the write callback pauses the body until the answer
            observer.transfer(job.id, asksAbout: deliveredHead ?? head, for: request)
        }
    }

    /// A cache hit: the stored response is the answer, and no request is sent. With a delegate that decides
    /// about responses the transfer waits (nil) for its answer, as after a network response's head.
    func serveStoredResponse() -> Step? {
        guard let stored = job.storedResponse else { return .done(outcome(failure: nil)) }
        requestStartedAt = Date()
        head = stored.head
        deliversStoredBody = true
        deliver(head)
        if job.decidesResponse {
            waiting = .response(finished: .ok)  // nothing to pause: the "request" has ended
            observer.transfer(job.id, asksAbout: head, for: request)
            return nil
        }
        return requestEnded(result: .ok)
    }

    /// The final response of a resumed download: 206 continues after the kept bytes, anything else (200:
    /// the validator changed, or no range support) starts again from 0, as `didResumeAtOffset(0)` says.
    func settleResume() {
        resumeSettled = true
        var offset: Int64 = 0
        if head.statusCode == 206, progress.bytesExpectedToReceive >= 0 || head.value("content-range") != nil {
            offset = job.resumeOffset
            progress.bytesReceived = offset
            if progress.bytesExpectedToReceive >= 0 { progress.bytesExpectedToReceive += offset }
        } else {
            do {
                try sink.truncate()
            } catch {
                // The write callback fails on the closed sink: the task ends with -3003.
                sink.discard()
            }
        }
        observer.transfer(job.id, didResumeAtOffset: offset, expectedTotalBytes: progress.bytesExpectedToReceive)
    }

    /// `head` is the task's final response: its expected length is known and the observer hears of it.
    func deliver(_ head: ResponseHead) {
        deliveredHead = head
        let encoded = head.value("content-encoding").map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        let length = head.value("content-length").flatMap(Int64.init) ?? -1
        progress.bytesExpectedToReceive = encoded || request.method.uppercased() == "HEAD" ? -1 : length
        observer.transfer(job.id, didReceive: head, for: request)
        if let body = sink.growing {  // from now on its bytes are this response's: readers may follow them
            body.respond(contentType: head.value("content-type"), expectedLength: progress.bytesExpectedToReceive)
            observer.transfer(job.id, didBeginBody: body)
        }
    }

    /// The handle finished one request: a redirect to follow, or the outcome.
    func requestEnded(result: CurlResult) -> Step {
        // The connection was stopped before the request left: a TLS challenge, or its refusal.
        if let step = pendingConnectionStep {
            pendingConnectionStep = nil
            return step
        }
        let servedLocally = job.storedResponse?.isServed == true
        transactions.append(servedLocally ? localTiming() : timing())
        if result.isSuccess, deliversStoredBody, let failure = readStoredBody() { return .done(outcome(failure: failure)) }
        if result.isSuccess, discardingBody,
            let next = RedirectPolicy.nextRequest(status: head.statusCode, location: head.value("location"), request: request)
        {
            redirects += 1
            guard redirects <= RedirectPolicy.maximumRedirects else {
                return .done(
                    outcome(
                        failure: TransferFailure(
                            code: URLErrorCode.httpTooManyRedirects.rawValue, curlCode: 47,
                            message: "more than \(RedirectPolicy.maximumRedirects) redirects")))
            }
            return .redirect(next)
        }
        guard result.isSuccess else {
            let failure = failure(for: result)
            return tlsStep(after: failure) ?? .done(outcome(failure: failure))
        }
        if let challenge = pendingChallenge { return .challenge(challenge) }
        if let failure = finishMultipartReplace() { return .done(outcome(failure: failure)) }
        return finishBody()
    }

    /// The body is complete: close it and report success (or the disk error).
    func finishBody() -> Step {
        do {
            try sink.finish()
        } catch {
            return .done(
                outcome(
                    failure: TransferFailure(
                        code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)")))
        }
        return .done(outcome(failure: nil))
    }

    /// The delegate rejected the redirect: its response is the final one (its body was not kept).
    func rejectRedirect() -> Step {
        discardingBody = false
        deliver(head)
        return finishBody()
    }

    func failure(for result: CurlResult) -> TransferFailure {
        if exceededMaximumSize {
            return TransferFailure(
                code: URLErrorCode.dataLengthExceedsMaximum.rawValue, curlCode: result.code,
                message: "the response body is longer than the maximum download size (\(configuration.maximumDownloadSize) bytes)")
        }
        if streamFailed {
            return TransferFailure(
                code: URLErrorCode.requestBodyStreamExhausted.rawValue, curlCode: result.code,
                message: "the client stopped sending the streamed body before its end", reason: "bodyStreamFailed")
        }
        if let denial = easy.egressDenial, result == .couldNotConnect {
            return TransferFailure(
                code: URLErrorCode.cannotConnectToHost.rawValue, curlCode: result.code,
                message: denial, reason: "egressPolicy")
        }
        let message = easy.errorMessage(for: result)
        let context = URLErrorMapping.Context(
            sslVerifyResult: easy.info(.sslVerifyResult), isDownload: job.kind == .download, message: message)
        let code = URLErrorMapping.code(forCurlCode: result.code, context: context)
        return TransferFailure(code: code.rawValue, curlCode: result.code, message: message)
    }

    /// How the transfer ended. A failed data body is dropped; a failed download keeps its partial file
    /// (closed) for its owner to continue (resume data, the next start) or remove.
    func outcome(failure: TransferFailure?) -> TransferOutcome {
        if let failure {
            // A body past the maximum size is not kept to be continued: its bytes go at once.
            let keepsPartial = job.kind == .download && failure.code != URLErrorCode.dataLengthExceedsMaximum.rawValue
            if keepsPartial { try? sink.finish() } else { sink.discard() }
        }
        return TransferOutcome(
            response: deliveredHead ?? (head.statusCode >= 200 ? head : nil), currentRequest: request, error: failure,
            progress: progress, body: failure == nil ? sink.body : .none, transactions: transactions)
    }

    /// The stored body into the sink (a failure to read or write it fails the task).
    private func readStoredBody() -> TransferFailure? {
        guard let body = job.storedResponse?.body else { return nil }
        do {
            switch body {
            case .bytes(let bytes): try bytes.withUnsafeBytes { try sink.append($0) }
            case .file(let file): try file.read { try sink.append($0) }
            }
            progress.bytesReceived += body.length
            return nil
        } catch {
            return TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)")
        }
    }

    /// The transaction of a response served from the cache: no connection, no bytes on the wire.
    private func localTiming() -> TransactionTiming {
        var timing = TransactionTiming(
            request: request, response: head, url: request.url, method: request.method, statusCode: head.statusCode,
            fetchStart: requestStartedAt, nameLookup: 0, connect: 0, appConnect: 0, preTransfer: 0, startTransfer: 0,
            total: max(0, Date().timeIntervalSince(requestStartedAt)), httpVersion: 0, remoteAddress: nil, remotePort: 0,
            localAddress: nil, localPort: 0, requestHeaderBytes: 0, requestBodyBytes: 0, responseHeaderBytes: 0,
            responseBodyBytes: 0, isReusedConnection: false)
        timing.isFromLocalCache = true
        return timing
    }

    /// `CURLINFO_*` of the request that just ended, as transaction metrics material.
    func timing() -> TransactionTiming {
        func seconds(_ item: CurlOffsetInfo) -> Double { Double(max(0, easy.info(item))) / 1_000_000 }
        var timing = TransactionTiming(
            request: request, response: head.statusCode >= 200 ? head : nil, url: request.url, method: request.method,
            statusCode: easy.info(.responseCode), fetchStart: requestStartedAt, nameLookup: seconds(.nameLookupTime),
            connect: seconds(.connectTime), appConnect: seconds(.appConnectTime), preTransfer: seconds(.preTransferTime),
            startTransfer: seconds(.startTransferTime), total: seconds(.totalTime), httpVersion: easy.info(.httpVersion),
            remoteAddress: easy.info(.remoteAddress), remotePort: easy.info(.remotePort),
            localAddress: easy.info(.localAddress), localPort: easy.info(.localPort),
            requestHeaderBytes: Int64(easy.info(.requestHeaderBytes)), requestBodyBytes: max(0, easy.info(.bodyBytesSent)),
            responseHeaderBytes: Int64(easy.info(.responseHeaderBytes)),
            responseBodyBytes: max(0, easy.info(.bodyBytesReceived)), isReusedConnection: easy.info(.newConnections) == 0)
        timing.networkPath = job.networkPath
        let host = URLComponents(string: request.url)?.host ?? ""
        timing.isProxyConnection = job.proxy != nil && !ProxyExceptions.exempts(host, list: job.noProxy)
        return timing
    }

    /// The outcome of a job cancelled before it ever started.
    static func cancelledBeforeStart(_ job: TransferJob) -> TransferOutcome {
        if case .stream(let stream) = job.request.body { stream.abandon() }  // its producer stops
        return failedToStart(job, failure: TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled"))
    }

    /// The outcome of a job whose handle could not be set up (bad option, no file).
    static func failedToStart(_ job: TransferJob, error: any Error) -> TransferOutcome {
        let failure: TransferFailure
        if let curl = error as? CurlError {
            failure = TransferFailure(curlError: curl)
        } else {
            failure = TransferFailure(code: URLErrorCode.cannotCreateFile.rawValue, curlCode: 0, message: "\(error)")
        }
        return failedToStart(job, failure: failure)
    }

    /// Why URLSession would fail `job` before sending anything: a GET with a body is -1103
    /// `dataLengthExceedsMaximum` (Apple's URLSession and swift-corelibs-foundation alike).
    static func refusal(of job: TransferJob) -> TransferFailure? {
        guard job.request.method.uppercased() == "GET", job.request.body != .none, job.request.body.length != 0 else { return nil }
        return TransferFailure(
            code: URLErrorCode.dataLengthExceedsMaximum.rawValue, curlCode: 0,
            message: "a GET request cannot have a body: URLSession fails it before sending anything")
    }

    /// The outcome of a job that ended with `failure` before sending anything.
    static func failedToStart(_ job: TransferJob, failure: TransferFailure) -> TransferOutcome {
        TransferOutcome(
            response: nil, currentRequest: job.request, error: failure,
            progress: TransferProgress(bytesSent: 0, bytesExpectedToSend: 0, bytesReceived: 0, bytesExpectedToReceive: -1),
            body: .none, transactions: [])
    }
}

extension TransferFailure {
    init(curlError: any Error) {
        if let curl = curlError as? CurlError, curl.interface == "easy" {
            let code = URLErrorMapping.code(forCurlCode: curl.code)
            self.init(code: code.rawValue, curlCode: curl.code, message: curl.message)
        } else {
            self.init(code: URLErrorCode.unknown.rawValue, curlCode: 0, message: "\(curlError)")
        }
    }
}
