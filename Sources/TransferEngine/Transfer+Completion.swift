import Curl
import Foundation
import HTTPCaching
import TransferModels

extension Transfer {
    /// How often a running transfer tells its observer about progress (the delegate coalesces further).
    static let progressReportInterval: Duration = .milliseconds(100)

    func reportProgressIfDue() {
        guard segments.connectionNumber == 0 else { return }  // a part connection's bytes are counted by its primary
        guard let progress = meter.progressToReport(every: Self.progressReportInterval) else { return }
        observer.transfer(job.id, didProgress: progress)
    }

    /// A complete response head: the state machine decides what it is (an informational one, a range's
    /// answer, a redirect to follow, a challenge, the final response) from what the head says.
    func responseHeadCompleted() {
        _ = perform(machine.handle(.headComplete(facts(of: response.head))))
    }

    /// What `head` says, worked out only as far as the machine can need it: a range request's answer for a
    /// range request; else a redirect URLSession's rules follow, a challenge to answer, multipart parts.
    func facts(of head: ResponseHead) -> TransferStateMachine.ResponseFacts {
        var facts = TransferStateMachine.ResponseFacts(status: head.statusCode)
        guard head.statusCode >= 200 else { return facts }
        if machine.range != nil {
            if let download = segmentDownload {
                facts.rangeAnswer = rangeAnswer(of: head, download)
                facts.isFirstAnswerOfResumedSegments = segments.connectionNumber == 0 && response.deliveredHead == nil
            }
            return facts
        }
        facts.redirect = RedirectPolicy.nextRequest(status: head.statusCode, location: head.value("location"), request: request)
        guard facts.redirect == nil else { return facts }
        if job.decidesChallenges || job.credentials != nil { facts.challenge = challenge(in: head) }
        guard facts.challenge == nil else { return facts }
        facts.isMultipart = multipartParser(for: head) != nil
        return facts
    }

    /// Hands the response's `Set-Cookie` fields to the job's cookies, before anything follows from it (the
    /// next hop's request).
    func storeCookies() {
        guard let cookies = job.cookies else { return }
        let setCookies = response.head.fields.filter { $0.name.caseInsensitiveEquals("set-cookie") }.map(\.value)
        if !setCookies.isEmpty { cookies.received(setCookies, from: request.url) }
    }

    /// The cache's validation came back "not modified": the stored response, updated, is the answer.
    func deliverNotModified() {
        guard let stored = job.storedResponse else { return }
        var updated = stored.head
        updated.fields = HTTPCacheRules.merge(stored.head.fields, withNotModified: response.head.fields)
        deliver(updated)
    }

    /// A cache hit: the stored response is the answer, and no request is sent. With a delegate that decides
    /// about responses the transfer waits (nil) for its answer, as after a network response's head.
    func serveStoredResponse() -> Step? {
        guard let stored = job.storedResponse else { return .done(outcome(failure: nil)) }
        meter.requestStartedAt = Date()
        response.head = stored.head
        return perform(machine.handle(.storedResponseServed))
    }

    /// The final response of a resumed download: 206 continues after the kept bytes, anything else (200:
    /// the validator changed, or no range support) starts again from 0, as `didResumeAtOffset(0)` says.
    func settleResume() {
        var offset: Int64 = 0
        let head = response.head
        if head.statusCode == 206, meter.progress.bytesExpectedToReceive >= 0 || head.value("content-range") != nil {
            offset = job.resumeOffset
            meter.progress.bytesReceived = offset
            if meter.progress.bytesExpectedToReceive >= 0 { meter.progress.bytesExpectedToReceive += offset }
        } else {
            do {
                try sink.truncate()
            } catch {
                // The write callback fails on the closed sink: the task ends with -3003.
                sink.discard()
            }
        }
        observer.transfer(job.id, didResumeAtOffset: offset, expectedTotalBytes: meter.progress.bytesExpectedToReceive)
    }

    /// `head` is the task's final response: its expected length is known and the observer hears of it.
    func deliver(_ head: ResponseHead) {
        response.deliveredHead = head
        let length = head.value("content-length").flatMap(Int64.init) ?? -1
        meter.progress.bytesExpectedToReceive = head.isContentEncoded || request.method.uppercased() == "HEAD" ? -1 : length
        let body = sink.growing  // from now on its bytes are this response's: readers may follow them
        body?.respond(contentType: head.value("content-type"), expectedLength: meter.progress.bytesExpectedToReceive)
        observer.transfer(job.id, didReceive: head, for: request, body: body)
    }

    /// The handle finished one request: what the scheduler does next (nil: the transfer waits).
    func requestEnded(result: CurlResult) -> Step? {
        perform(machine.handle(.requestEnded(result)))
    }

    /// The transaction of the request that just ended.
    func recordTransaction() {
        let servedFromCache = job.storedResponse?.isServed == true
        meter.transactions.append(
            servedFromCache
                ? .servedFromCache(request: request, head: response.head, fetchStart: meter.requestStartedAt) : timing())
    }

    /// The body is complete: close it and report success (or the disk error).
    func finishBody() -> TransferOutcome {
        do {
            try sink.finish()
        } catch {
            return outcome(
                failure: TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)"))
        }
        return outcome(failure: nil)
    }

    func failure(for result: CurlResult) -> TransferFailure {
        if machine.refusal == .tooLarge {
            return TransferFailure(
                code: URLErrorCode.dataLengthExceedsMaximum.rawValue, curlCode: result.code,
                message: "the response body is longer than the maximum download size (\(configuration.maximumDownloadSize) bytes)")
        }
        if machine.refusal == .uploadStreamFailed {
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
            response: response.finalHead, currentRequest: request, error: failure, progress: meter.progress,
            body: failure == nil ? sink.body : .none, transactions: meter.transactions)
    }

    /// The stored body into the sink (a failure to read or write it fails the task).
    func readStoredBody() -> TransferFailure? {
        guard let body = job.storedResponse?.body else { return nil }
        do {
            switch body {
            case .bytes(let bytes): try bytes.withUnsafeBytes { try sink.append($0) }
            case .file(let file): try file.read { try sink.append($0) }
            }
            meter.progress.bytesReceived += body.length
            return nil
        } catch {
            return TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)")
        }
    }

    /// `CURLINFO_*` of the request that just ended, as transaction metrics material.
    func timing() -> TransactionTiming {
        var timing = TransactionTiming(of: easy, request: request, head: response.head, fetchStart: meter.requestStartedAt)
        timing.networkPath = job.networkPath
        if job.proxy != nil {  // the URL is parsed only when there is a proxy to be exempted from
            timing.isProxyConnection = !ProxyExceptions.exempts(URLComponents(string: request.url)?.host ?? "", list: job.noProxy)
        }
        timing.isMultipath = job.multipathServiceType != .none && (easy.multipathSubflows ?? 0) > 0
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
