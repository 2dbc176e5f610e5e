import Curl
import Foundation
import HTTPCaching
import TransferModels

/// What the head of a range request said.
enum SegmentAnswer: Equatable {
    case pending
    /// 206 for the range asked, of the representation the download has been fetching.
    case accepted
    /// 200 (or a 206 under another validator): `If-Range` no longer holds, the representation changed.
    case validatorChanged
    /// Anything else (404, 416, 5xx, a 206 for another range).
    case unexpected(status: Int)
}

/// How a request of a segmented download ended.
enum SegmentVerdict {
    /// Its range is in the file (all it asked for, or what the server sent before ending well).
    case completed
    case validatorChanged
    case unexpected(status: Int)
    case failed(TransferFailure)
}

// A Transfer's side of a segmented download: whether its first response allows one, the heads of range
// requests, how each request ended, and the outcome of the whole.

extension Transfer {
    /// The segmented download this transfer works for (as its primary, or as a part connection).
    var segmentDownload: SegmentedDownload? { segmented ?? partOf }

    /// A segmented download's primary waiting for its part connections, with no connection of its own.
    var isParked: Bool { machine.isParked }

    /// At the first final response of a download: it becomes segmented when its job asks for segments and
    /// the response shows a range-capable origin (`Accept-Ranges: bytes`), a strong validator, a known
    /// length of at least two minimum parts, and no content coding (ranges count encoded bytes). The
    /// response itself goes on as the first part, cut where that part ends.
    func beginSegmentsIfPossible() {
        guard let policy = job.segments, policy.maximumConnections >= 2, validatorChanges < 2, job.kind == .download,
            job.resumeOffset == 0, segmented == nil, connectionNumber == 0, let path = job.downloadPath,
            head.statusCode == 200, request.method.uppercased() == "GET", request.body.length == 0, multipart == nil,
            !machine.becameDownload, Self.acceptsByteRanges(head), !Self.isContentEncoded(head),
            let length = head.value("content-length").flatMap(Int64.init), length >= 2 * policy.minimumPartSize,
            configuration.maximumDownloadSize <= 0 || length <= configuration.maximumDownloadSize,
            let validator = Self.strongValidator(of: head)
        else { return }
        var plan = SegmentPlan(length: length, minimumPartSize: policy.minimumPartSize, count: policy.maximumConnections)
        guard plan.parts.count >= 2 else { return }
        plan.assign(startingAt: 0, to: 0)
        do {
            let download = try SegmentedDownload(primary: self, policy: policy, validator: validator, plan: plan, path: path)
            sink.discard()  // nothing is in it yet (this is the head): the bytes go to the download's file
            segmented = download
            segmentsBegan?(self)
        } catch {
            SegmentJournal.remove(partialPath: path)  // the file stays as one connection writes it
        }
    }

    /// A job that continues a segmented download: its download is made from the journal, and the first
    /// request asks for the first part not finished. Its answer decides (`rangeAnswer(of:_:)`, then
    /// `resumeSegmentsAccepted`, or the download starts again from 0).
    func resumeSegments() {
        guard let resume = job.resumeSegments, let path = job.downloadPath else { return }
        guard var plan = resume.plan(), let first = plan.parts.first(where: { !$0.isDone }) else {
            SegmentJournal.remove(partialPath: path)
            unlink(path)  // a journal that says nothing usable: the download starts again from 0
            return
        }
        plan.assign(startingAt: first.next, to: 0)
        do {
            let download = try SegmentedDownload(
                primary: self, policy: job.segments ?? resume.policy, validator: resume.validator, plan: plan, path: path)
            segmented = download
            if let range = download.plan.nextRequest(for: 0, size: download.requestSize(for: self)) {
                _ = machine.handle(.rangeAssigned(range))
            }
        } catch {
            SegmentJournal.remove(partialPath: path)
            unlink(path)
        }
    }

    /// What the head of a range request says: 206 for the range asked, of the representation the download
    /// has been fetching; a 200 (or another validator) means `If-Range` failed.
    func rangeAnswer(of head: ResponseHead, _ download: SegmentedDownload) -> SegmentAnswer {
        guard let range = machine.range else { return .pending }
        let contentRange = Self.contentRange(head.value("content-range"))
        let etag = head.value("etag")
        let sameValidator = etag == nil || !download.validator.hasPrefix("\"") || etag == download.validator
        if head.statusCode == 206 && sameValidator && !Self.isContentEncoded(head) {
            let asked = contentRange?.start == range.lowerBound && contentRange?.length == download.length
            return asked ? .accepted : .unexpected(status: 206)
        } else if head.statusCode == 200 || head.statusCode == 206 {
            return .validatorChanged
        }
        return .unexpected(status: head.statusCode)
    }

    /// The first range of a resumed download came back as asked: it is the task's response, as a resumed
    /// single download's 206 is (a fresh one delivered its 200 already).
    func resumeSegmentsAccepted() {
        guard let download = segmentDownload else { return }
        deliver(head)
        progress.bytesReceived = download.plan.receivedBytes
        progress.bytesExpectedToReceive = download.length
        observer.transfer(job.id, didResumeAtOffset: progress.bytesReceived, expectedTotalBytes: download.length)
        segmentsBegan?(self)
    }

    /// Sets up a range request for `range` on this handle (a part connection's, or the primary's after its
    /// first response).
    func prepareSegmentRequest(_ range: Range<Int64>) throws {
        _ = machine.handle(.rangeAssigned(range))
        segmentBytes = 0
        let delivered = deliveredHead  // the task's response stays the first one
        try prepare()
        deliveredHead = delivered
    }

    /// How the request that just ended went; its transaction is recorded and its rate kept for the next.
    func segmentVerdict(_ result: CurlResult) -> SegmentVerdict {
        var timing = timing()
        timing.isSegmentRange = machine.range != nil
        transactions.append(timing)
        let seconds = Date().timeIntervalSince(requestStartedAt)
        if segmentBytes > 0, seconds > 0 { segmentRate = Double(segmentBytes) / seconds }
        // From the request leaving to the first byte of the answer: the round trip a request costs.
        if timing.startTransfer > timing.preTransfer { segmentRoundTrip = timing.startTransfer - timing.preTransfer }
        if let error = segmentDownload?.diskError {
            return .failed(TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)"))
        }
        guard case .segmentEnded(let end)? = machine.handle(.segmentRequestEnded(result)).first else {
            return result.isSuccess ? .completed : .failed(failure(for: result))
        }
        switch end {
        case .connectionStopped(.failure(let failure)): return .failed(failure)
        case .connectionStopped(.challenge):  // a TLS question a part cannot ask: the connection is not used
            return .failed(
                TransferFailure(
                    code: URLErrorCode.secureConnectionFailed.rawValue, curlCode: 35, message: "a new connection needs a TLS decision"))
        case .completed: return .completed
        case .validatorChanged: return .validatorChanged
        case .unexpected(let status): return .unexpected(status: status)
        case .failed(let result): return .failed(failure(for: result))
        }
    }

    /// The outcome of a segmented download: its file when it succeeded, every connection's transactions.
    func segmentedOutcome(failure: TransferFailure?) -> TransferOutcome {
        let download = segmented
        let all = (transactions + (download?.transactions ?? [])).sorted { $0.fetchStart < $1.fetchStart }
        let body: TransferBody = failure == nil && download != nil ? .file(path: download!.file.path, length: download!.length) : .none
        return TransferOutcome(
            response: deliveredHead ?? (head.statusCode >= 200 ? head : nil), currentRequest: request, error: failure,
            progress: progress, body: body, transactions: all)
    }

    /// The representation changed under the download (or its parts kept failing): it starts again from 0
    /// with its request, as a new download (`didResumeAtOffset(0)` says so); segmented again only after a
    /// first change of validator, so an origin whose representation keeps changing gets one connection.
    func startAgainFromZero(segmentedAgain: Bool) throws {
        if let path = segmented?.file.path { unlink(path) }
        segmented = nil
        _ = machine.handle(.startedAgainFromZero)
        validatorChanges = segmentedAgain ? validatorChanges + 1 : 2
        try restartBody()
        observer.transfer(job.id, didResumeAtOffset: 0, expectedTotalBytes: -1)
        try prepare()
    }

    /// A part connection of `primary`'s download: the same job, sent to the final URL with what the
    /// primary settled on its way there (credentials, TLS decisions), on the same share.
    static func part(of primary: Transfer, download: SegmentedDownload) throws -> Transfer {
        var job = primary.job
        (job.resumeOffset, job.ifRange, job.resumeSegments, job.storedResponse, job.downloadPath) = (0, nil, nil, nil, nil)
        let part = try Transfer(
            job: job, configuration: primary.configuration, observer: primary.observer, share: primary.share,
            startedAt: primary.startedAt)
        part.request = primary.request
        part.machine = TransferStateMachine(job: job, redirects: primary.machine.redirects)
        part.challenges = primary.challenges.credentialsOnly
        part.tls = primary.tls
        part.partOf = download
        part.connectionNumber = download.add(part)
        return part
    }

    // MARK: What a response says about ranges

    /// `Accept-Ranges` lists `bytes` (RFC 9110 §14.3).
    static func acceptsByteRanges(_ head: ResponseHead) -> Bool {
        head.value("accept-ranges")?.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "bytes" }
            ?? false
    }

    static func isContentEncoded(_ head: ResponseHead) -> Bool {
        head.value("content-encoding").map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
    }

    /// The validator ranges can be combined under (RFC 9110 §13.1.5): a strong entity tag, else a
    /// `Last-Modified` that is strong — at least a second before the response's `Date` (§8.8.2.2).
    static func strongValidator(of head: ResponseHead) -> String? {
        if let etag = head.value("etag") { return etag.hasPrefix("W/") ? nil : etag }
        guard let modified = head.value("last-modified"), let modifiedDate = HTTPDate.parse(modified),
            let date = head.value("date").flatMap(HTTPDate.parse), date.timeIntervalSince(modifiedDate) >= 1
        else { return nil }
        return modified
    }

    /// `bytes first-last/length` (RFC 9110 §14.4); nil for anything else (`*`, another unit).
    static func contentRange(_ value: String?) -> (start: Int64, end: Int64, length: Int64)? {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2, let length = Int64(halves[1]) else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last, last < length else { return nil }
        return (first, last + 1, length)
    }
}
