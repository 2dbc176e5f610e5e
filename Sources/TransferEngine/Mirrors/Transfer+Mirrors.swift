import Foundation
import TransferModels

// A Transfer's side of its download's mirrors (`MirrorPool`): which mirror its request goes to, and
// whether an answer shows that mirror cannot serve the file (an error status, another length, not the
// range asked for). The scheduler's side — failing over, switching a connection — is
// `TransferScheduler+Mirrors`.

extension Transfer {
    /// A mirrored download without `segments` is fetched in ranges on one connection.
    static let mirroredPolicy = SegmentPolicy(maximumConnections: 1, minimumPartSize: 1 << 20)

    /// The job's own transfer of a download with mirrors gets its pool (part connections share it).
    func adoptMirrors() {
        guard job.kind == .download, let sources = job.mirrors, !sources.urls.isEmpty else { return }
        mirrors = MirrorRole(pool: MirrorPool(id: job.id, sources: sources, observer: observer), current: 0)
    }

    /// The next request goes to mirror `index`.
    func useMirror(_ index: Int) {
        guard let pool = mirrors.pool else { return }
        mirrors.current = index
        mirrors.refusal = nil
        request.url = pool.table.url(index)
    }

    /// At the final response of a mirrored download's plain request: a mirror whose answer cannot be the
    /// file (an error status, a length other than `expectedLength`) is refused — the request stops with
    /// -1011 and the download goes on from another mirror. True when refused (the head is not delivered).
    func refusesMirrorHead() -> Bool {
        guard let pool = mirrors.pool, machine.range == nil, segments.connectionNumber == 0 else { return false }
        let head = response.head
        var reason: String?
        if head.statusCode != 200 && !(head.statusCode == 206 && job.resumeOffset > 0) {
            reason = "status \(head.statusCode)"
        } else if pool.expectedLength != nil, !head.isContentEncoded, head.statusCode == 200 {
            reason = pool.disagreement(length: head.value("content-length").flatMap(Int64.init), fileLength: nil)
        }
        guard let reason else { return false }
        mirrors.refusal = reason
        let failure = TransferFailure(
            code: URLErrorCode.badServerResponse.rawValue, curlCode: 0, message: "mirror \(request.url): \(reason)",
            reason: "mirrorRefused")
        _ = machine.handle(.connectionStopped(.failure(failure)))
        return true
    }

    /// What the head of a range request to a mirror says: 206 for the range asked, of the download's
    /// length; the entity tag is compared only on the mirror that gave the validator.
    func mirroredRangeAnswer(of head: ResponseHead, _ download: SegmentedDownload, range: Range<Int64>) -> SegmentAnswer {
        let pool = mirrors.pool
        if head.statusCode == 206, !head.isContentEncoded, let answered = head.contentRange {
            if answered.length != download.length {
                mirrors.refusal = "length \(answered.length), other mirrors \(download.length)"
            } else if answered.start != range.lowerBound {
                mirrors.refusal = "answered bytes \(answered.start)- to a request for \(range.lowerBound)-"
            } else if mirrors.current == pool?.validatorMirror, let etag = head.value("etag"), download.validator.hasPrefix("\""),
                etag != download.validator
            {
                mirrors.refusal = "its entity tag changed"
            } else {
                return .accepted
            }
            return .unexpected(status: 206)
        }
        mirrors.refusal =
            head.statusCode == 200 ? "answered a range request with the whole file" : "status \(head.statusCode) for a range request"
        return .unexpected(status: head.statusCode)
    }

    /// The `If-Range` of a range request: the download's validator, sent only to the mirror that gave it.
    func ifRangeValidator(_ download: SegmentedDownload) -> String? {
        guard !download.validator.isEmpty else { return nil }
        guard let pool = mirrors.pool else { return download.validator }
        return pool.validatorMirror == mirrors.current ? download.validator : nil
    }

    /// A mirrored download's request that ended badly: the failure to drop its mirror for (nil when the
    /// verdict is a success, or the download has no mirrors).
    func mirrorFailure(of verdict: SegmentVerdict) -> TransferFailure? {
        guard mirrors.pool != nil else { return nil }
        let message = "mirror \(request.url): \(mirrors.refusal ?? "unusable answer")"
        switch verdict {
        case .completed: return nil
        case .validatorChanged, .unexpected:
            return TransferFailure(code: URLErrorCode.badServerResponse.rawValue, curlCode: 0, message: message, reason: "mirrorRefused")
        case .failed(let failure): return failure
        }
    }

    /// A part connection joining `download`: the mirror the fewest connections use (thrown when none is
    /// left), set before the part counts as one of the download's.
    func joinMirrors(of primary: Transfer, _ download: SegmentedDownload) throws {
        guard let pool = primary.mirrors.pool else { return }
        guard let index = pool.pick(inUse: download.mirrorsInUse) else { throw NoMirrorLeft() }
        mirrors = MirrorRole(pool: pool, current: index)
        request.url = pool.table.url(index)
    }

    struct NoMirrorLeft: Error {}
}

extension SegmentedDownload {
    /// The mirror of each connection at work.
    var mirrorsInUse: [Int] {
        parts.values.map(\.mirrors.current) + (primary.machine.isWaiting ? [] : [primary.mirrors.current])
    }

    /// `range` was written from `transfer`'s mirror: pieces it completed are hashed, and those that failed
    /// are fetched again (their bytes leave the plan and the count). False when the transfer's mirror was
    /// dropped for it: its request stops there.
    func verifyPieces(_ range: Range<Int64>, from transfer: Transfer) -> Bool {
        guard let pool = primary.mirrors.pool, !range.isEmpty else { return true }
        for failed in pool.written(range, from: transfer.mirrors.current, in: file) {
            plan.reopen(failed)
            primary.meter.progress.bytesReceived -= Int64(failed.count)
        }
        return pool.table.isAlive(transfer.mirrors.current)
    }
}
