import Curl
import Foundation
import TransferModels

// Downloads with mirrors on the scheduler: a request that fails on its mirror goes on from another
// instead of failing the task — a plain download starts again there (from 0: its bytes were not
// fetched in ranges), a connection of a download fetched in ranges asks another mirror for the range
// it was fetching. Each mirror dropped is reported once (`task.didDropMirror`).

extension TransferScheduler {
    /// A mirrored download's plain request failed on its mirror: it starts again on the next one. False
    /// when it cannot (no mirrors, none left, a cancel or a disk error): the failure is the task's.
    func failOver(_ transfer: Transfer, _ failure: TransferFailure, multi: CurlMultiHandle) -> Bool {
        guard let pool = transfer.mirrors.pool, transfer.segmentDownload == nil, transfer.segments.connectionNumber == 0,
            Self.mirrorMayHaveCaused(failure)
        else { return false }
        pool.drop(transfer.mirrors.current, reason: transfer.mirrors.refusal ?? failure.message)
        guard let next = pool.pick(inUse: []) else { return false }
        let received = transfer.meter.progress.bytesReceived
        do {
            transfer.useMirror(next)
            bandwidth.attach(transfer)
            transfer.machine = TransferStateMachine(job: transfer.job, redirects: 0)
            try transfer.restartBody()
            try transfer.prepare()
        } catch {
            return false
        }
        if received > 0 { observer.transfer(transfer.job.id, didResumeAtOffset: 0, expectedTotalBytes: -1) }
        needsPass = true
        admit(transfer, multi: multi)
        return true
    }

    /// Failures a mirror can be blamed for: not a cancel, a full disk or a size limit of this service.
    static func mirrorMayHaveCaused(_ failure: TransferFailure) -> Bool {
        let ours: Set<Int> = [
            URLErrorCode.cancelled.rawValue, URLErrorCode.cannotWriteToFile.rawValue, URLErrorCode.cannotCreateFile.rawValue,
            URLErrorCode.dataLengthExceedsMaximum.rawValue,
        ]
        return !ours.contains(failure.code)
    }

    /// A connection of a download fetched in ranges failed on its mirror: the mirror is dropped and the
    /// connection asks another for its next range. False when the download has no mirrors or none is
    /// left (the connection then stops as without mirrors).
    func continuesOnAnotherMirror(
        _ transfer: Transfer, _ download: SegmentedDownload, _ failure: TransferFailure, multi: CurlMultiHandle
    ) -> Bool {
        guard let pool = transfer.mirrors.pool, !download.isClosed, download.diskError == nil,
            Self.mirrorMayHaveCaused(failure)
        else { return false }
        pool.drop(transfer.mirrors.current, reason: transfer.mirrors.refusal ?? failure.message)
        download.plan.release(transfer.segments.connectionNumber)
        guard pool.table.aliveCount > 0 else { return false }
        nextRange(for: transfer, download, multi: multi)
        return true
    }

    /// Before a connection's next range: a connection whose mirror was dropped moves to a live one. False
    /// when none is left.
    func usesLiveMirror(_ transfer: Transfer, _ download: SegmentedDownload) -> Bool {
        guard let pool = transfer.mirrors.pool else { return true }
        if pool.table.isAlive(transfer.mirrors.current) { return true }
        guard let next = pool.pick(inUse: download.mirrorsInUse) else { return false }
        transfer.useMirror(next)
        return true
    }

    /// No mirror is left for a connection with work to do: it stops, and the download fails once no
    /// connection is at work.
    func noMirrorLeft(_ transfer: Transfer, _ download: SegmentedDownload, multi: CurlMultiHandle) {
        download.plan.release(transfer.segments.connectionNumber)
        stopConnection(transfer, download)
        guard download.activeConnections == 0, !download.plan.isComplete, !download.isClosed else { return }
        let failure = TransferFailure(
            code: URLErrorCode.badServerResponse.rawValue, curlCode: 0, message: "every mirror of the download was dropped",
            reason: "mirrorRefused")
        failSegmented(download, failure, multi: multi)
    }
}
