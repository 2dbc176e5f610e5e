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
// requests, how each request ended, and the outcome of the whole. Its part in the download is its
// `SegmentRole`.

extension Transfer {
    /// The segmented download this transfer works for (as its primary, or as a part connection).
    var segmentDownload: SegmentedDownload? { segments.download }

    /// A segmented download's primary waiting for its part connections, with no connection of its own.
    var isParked: Bool { machine.isParked }

    /// At the first final response of a download: it becomes segmented when its job asks for segments and
    /// the response shows a range-capable origin (`Accept-Ranges: bytes`), a strong validator, a known
    /// length of at least two minimum parts, and no content coding (ranges count encoded bytes). The
    /// response itself goes on as the first part, cut where that part ends.
    func beginSegmentsIfPossible() {
        let head = response.head
        // With mirrors, a download is fetched in ranges even on one connection (a failing mirror's range
        // goes on from another), with or without a strong validator (mirrors agree on length and hashes).
        let mirrored = mirrors.pool != nil && mirrors.refusal == nil
        guard !awaitsMetalink, let policy = job.segments ?? (mirrored ? Self.mirroredPolicy : nil),
            policy.maximumConnections >= 2 || mirrored, segments.validatorChanges < 2, job.kind == .download,
            job.resumeOffset == 0, segments.segmented == nil, segments.connectionNumber == 0, let path = job.downloadPath,
            head.statusCode == 200, request.method.uppercased() == "GET", request.body.length == 0, response.multipart == nil,
            !machine.becameDownload, head.acceptsByteRanges, !head.isContentEncoded,
            let length = head.value("content-length").flatMap(Int64.init),
            length >= 2 * policy.minimumPartSize || (mirrored && length > 0),
            configuration.maximumDownloadSize <= 0 || length <= configuration.maximumDownloadSize,
            let validator = head.strongValidator ?? (mirrored ? "" : nil)
        else { return }
        var plan = SegmentPlan(
            length: length, minimumPartSize: policy.minimumPartSize, count: policy.maximumConnections,
            alignment: mirrors.pool?.pieces?.length ?? 1)
        guard plan.parts.count >= 2 || mirrored else { return }
        plan.assign(startingAt: 0, to: 0)
        do {
            let download = try SegmentedDownload(primary: self, policy: policy, validator: validator, plan: plan, path: path)
            sink.discard()  // nothing is in it yet (this is the head): the bytes go to the download's file
            segments.segmented = download
            mirrors.pool?.validatorMirror = validator.isEmpty ? nil : mirrors.current
            mirrors.pool?.beginPieces(length: length)
            segments.began?(self)
        } catch {
            SegmentJournal.remove(partialPath: path)  // the file stays as one connection writes it
        }
    }

    /// A job that continues a segmented download: its download is made from the journal, and the first
    /// request asks for the first part not finished. Its answer decides (`SegmentedDownload.answer`, then
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
            segments.segmented = download
            mirrors.pool?.beginPieces(length: plan.length, received: resume.parts.map { $0[0]..<$0[1] })
            if let range = download.plan.nextRequest(for: 0, size: download.requestSize(for: self)) {
                _ = machine.handle(.rangeAssigned(range))
            }
        } catch {
            SegmentJournal.remove(partialPath: path)
            unlink(path)
        }
    }

    /// What the head of this transfer's range request says of its download.
    func rangeAnswer(of head: ResponseHead, _ download: SegmentedDownload) -> SegmentAnswer {
        guard let range = machine.range else { return .pending }
        if mirrors.pool != nil { return mirroredRangeAnswer(of: head, download, range: range) }
        return download.answer(head, to: range)
    }

    /// The first range of a resumed download came back as asked: it is the task's response, as a resumed
    /// single download's 206 is (a fresh one delivered its 200 already).
    func resumeSegmentsAccepted() {
        guard let download = segmentDownload else { return }
        deliver(response.head)
        meter.progress.bytesReceived = download.plan.receivedBytes
        meter.progress.bytesExpectedToReceive = download.length
        observer.transfer(job.id, didResumeAtOffset: meter.progress.bytesReceived, expectedTotalBytes: download.length)
        segments.began?(self)
    }

    /// Sets up a range request for `range` on this handle (a part connection's, or the primary's after its
    /// first response).
    func prepareSegmentRequest(_ range: Range<Int64>) throws {
        _ = machine.handle(.rangeAssigned(range))
        segments.requestBytes = 0
        let delivered = response.deliveredHead  // the task's response stays the first one
        try prepare()
        response.deliveredHead = delivered
    }

    /// How the request that just ended went; its transaction is recorded and its rate kept for the next.
    func segmentVerdict(_ result: CurlResult) -> SegmentVerdict {
        var timing = timing()
        timing.isSegmentRange = machine.range != nil
        meter.transactions.append(timing)
        segments.requestEnded(timing, seconds: Date().timeIntervalSince(meter.requestStartedAt))
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
        let download = segments.segmented
        let all = (meter.transactions + (download?.transactions ?? [])).sorted { $0.fetchStart < $1.fetchStart }
        let body: TransferBody = failure == nil && download != nil ? .file(path: download!.file.path, length: download!.length) : .none
        return TransferOutcome(
            response: response.finalHead, currentRequest: request, error: failure, progress: meter.progress, body: body,
            transactions: all)
    }

    /// The representation changed under the download (or its parts kept failing): it starts again from 0
    /// with its request, as a new download (`didResumeAtOffset(0)` says so).
    func startAgainFromZero(segmentedAgain: Bool) throws {
        if let path = segments.segmented?.file.path { unlink(path) }
        segments.startAgainFromZero(segmentedAgain: segmentedAgain)
        _ = machine.handle(.startedAgainFromZero)
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
            startedAt: primary.meter.startedAt)
        part.request = primary.request
        part.machine = TransferStateMachine(job: job, redirects: primary.machine.redirects)
        part.challenges = primary.challenges.credentialsOnly
        part.tls = primary.tls
        try part.joinMirrors(of: primary, download)
        part.segments = SegmentRole(partOf: download, number: download.add(part))
        return part
    }
}
