import Curl
import Foundation
import TransferModels

// Segmented downloads on the scheduler: part connections open where there is room, each request's end
// hands its connection the next range (or lets the connection go), and the download ends as a whole —
// complete, failed, or started again from 0 when its representation changed.

extension TransferScheduler {
    /// A download became segmented (its first response allowed it, or a resumed one's first range came
    /// back): it may want part connections.
    func segmentsBegan(_ primary: Transfer) {
        segmentedDownloads.insert(ObjectIdentifier(primary.easy))
        needsSegmentPass = true
    }

    /// Segmented downloads that want another connection get one while their host has a connection to
    /// spare under the session's `httpMaximumConnectionsPerHost`, their tenant and the engine have a slot,
    /// and no queued job waits for that host (a part connection is extra: a job of its own goes first).
    /// A parked primary takes the work before a new connection is made.
    func openPartConnections(multi: CurlMultiHandle) {
        guard !segmentedDownloads.isEmpty else { return }
        var (perHost, perTenant) = runningCounts()
        let limit = configuration.maximumConcurrentTransfers
        for key in segmentedDownloads {
            guard let primary = running[key], let download = primary.segments.segmented else {
                segmentedDownloads.remove(key)
                continue
            }
            let host = primary.hostKey
            func hostHasRoom() -> Bool {
                perHost[host, default: 0] < primary.job.httpMaximumConnectionsPerHost && !waiting.contains(hostKey: host)
            }
            if primary.isParked, download.wantsConnection, hostHasRoom() {
                perHost[host, default: 0] += 1
                nextRange(for: primary, download, multi: multi)
            }
            while download.wantsConnection, running.count < limit, hostHasRoom(),
                perTenant[primary.job.tenant, default: 0] < configuration.tenantTransferLimit
            {
                guard openPart(of: primary, download, multi: multi) else { break }
                perHost[host, default: 0] += 1
                perTenant[primary.job.tenant, default: 0] += 1
            }
        }
    }

    private func openPart(of primary: Transfer, _ download: SegmentedDownload, multi: CurlMultiHandle) -> Bool {
        guard let part = try? Transfer.part(of: primary, download: download) else { return false }
        guard let range = download.plan.nextRequest(for: part.segments.connectionNumber, size: download.requestSize(for: part)) else {
            download.remove(part)
            return false
        }
        bandwidth.attach(part)  // one flow with its primary: the parts share the task's limit
        do {
            try part.prepareSegmentRequest(range)
        } catch {
            download.plan.release(part.segments.connectionNumber)
            download.remove(part)
            return false
        }
        running[ObjectIdentifier(part.easy)] = part
        admit(part, multi: multi)
        return true
    }

    /// A request of a segmented download ended (the primary's first response, or a range request).
    func segmentRequestEnded(_ transfer: Transfer, result: CurlResult, multi: CurlMultiHandle) {
        guard let download = transfer.segmentDownload else { return }
        let firstAnswer = transfer.segments.connectionNumber == 0 && transfer.response.deliveredHead == nil  // a resumed download's
        let verdict = transfer.segmentVerdict(result)
        if download.diskError == nil, let failure = transfer.mirrorFailure(of: verdict) {
            return connectionFailed(transfer, download, failure, multi: multi)  // its mirror is dropped
        }
        switch verdict {
        case .completed:
            download.plan.requestEnded(by: transfer.segments.connectionNumber)
            guard download.plan.isComplete else { return nextRange(for: transfer, download, multi: multi) }
            // Every byte is in: the download completes when the last request in flight has ended too, so
            // each leaves its connection reusable and its transaction in the metrics.
            stopConnection(transfer, download)
            if download.activeConnections == 0 { completeSegmented(download, multi: multi) }
        case .validatorChanged:
            startAgain(download, segmentedAgain: true, multi: multi)
        case .unexpected(let status):
            // The origin no longer serves this range as it did: on one connection, its plain answer is the
            // task's response. A part's odd answer alone is ridden out while other connections work.
            download.unexpectedAnswers += 1
            if firstAnswer || download.unexpectedAnswers > 2 || download.activeConnections <= 1 {
                return startAgain(download, segmentedAgain: false, multi: multi)
            }
            let failure = TransferFailure(
                code: URLErrorCode.badServerResponse.rawValue, curlCode: 0, message: "status \(status) for a range request")
            connectionFailed(transfer, download, failure, multi: multi)
        case .failed(let failure):
            if download.diskError != nil { return failSegmented(download, failure, multi: multi) }
            connectionFailed(transfer, download, failure, multi: multi)
        }
    }

    /// The connection's next range: the rest of its part, a part nobody fetches, or half of what another
    /// connection has not asked for yet. None, or a queued job that should have the connection: it goes.
    func nextRange(for transfer: Transfer, _ download: SegmentedDownload, multi: CurlMultiHandle) {
        guard !yields(transfer, download),
            let range = download.plan.nextRequest(for: transfer.segments.connectionNumber, size: download.requestSize(for: transfer))
        else { return stopConnection(transfer, download) }
        guard usesLiveMirror(transfer, download) else { return noMirrorLeft(transfer, download, multi: multi) }
        bandwidth.attach(transfer)
        do {
            try transfer.prepareSegmentRequest(range)
        } catch {
            return connectionFailed(transfer, download, TransferFailure(curlError: error), multi: multi)
        }
        admit(transfer, multi: multi)
    }

    /// Whether a part connection should give its slot up between two requests: a job queued for its host,
    /// or for a full engine or tenant, goes first. The primary keeps its slot (parked, it would still hold
    /// it), and the last connection always goes on.
    private func yields(_ transfer: Transfer, _ download: SegmentedDownload) -> Bool {
        guard transfer.segments.connectionNumber != 0, download.activeConnections > 1, !waiting.isEmpty else { return false }
        if waiting.contains(hostKey: transfer.hostKey) { return true }
        if running.count >= configuration.maximumConcurrentTransfers { return true }
        let tenant = transfer.job.tenant
        let ofTenant = running.values.count { $0.job.tenant == tenant }
        return ofTenant >= configuration.tenantTransferLimit && waiting.contains { $0.tenant == tenant }
    }

    /// The connection stops working for the download: a part connection leaves its slot, the primary
    /// parks (it keeps the download and reports for it).
    func stopConnection(_ transfer: Transfer, _ download: SegmentedDownload) {
        download.plan.release(transfer.segments.connectionNumber)
        if transfer.segments.connectionNumber == 0 {
            _ = transfer.machine.handle(.parked)
        } else {
            download.remove(transfer)
            running[ObjectIdentifier(transfer.easy)] = nil
        }
        needsPass = true
        needsSegmentPass = true
    }

    /// A connection failed (network, timeout, an odd answer): while other connections work, its range waits
    /// for one of them (or a new one); the last connection's failure, or too many, fail the download —
    /// unless every byte is in already (a request that failed after its last byte).
    func connectionFailed(_ transfer: Transfer, _ download: SegmentedDownload, _ failure: TransferFailure, multi: CurlMultiHandle) {
        if continuesOnAnotherMirror(transfer, download, failure, multi: multi) { return }
        download.failures += 1
        stopConnection(transfer, download)
        if download.plan.isComplete {
            if download.activeConnections == 0 { completeSegmented(download, multi: multi) }
        } else if download.activeConnections == 0 || download.failures > SegmentedDownload.failureLimit {
            failSegmented(download, failure, multi: multi)
        }
    }

    /// Every connection of the download stops; it fails with `failure`, its journal recording where it
    /// stood (a disk error leaves nothing worth continuing).
    func failSegmented(_ download: SegmentedDownload, _ failure: TransferFailure, multi: CurlMultiHandle) {
        let primary = stopAll(download, multi: multi)
        let (id, outcome) = (primary.job.id, primary.segmentedOutcome(failure: failure))
        guard download.diskError == nil else { return observer.transfer(id, didComplete: outcome) }
        // The outcome is reported once the journal's last record is on disk: resume data made from it (a
        // cancel producing resume data) reads the journal, and must not find an older record — after a
        // conversion to segments, the first one counts nothing received yet.
        download.stopped { [observer] in observer.transfer(id, didComplete: outcome) }
    }

    private func completeSegmented(_ download: SegmentedDownload, multi: CurlMultiHandle) {
        let primary = stopAll(download, multi: multi)
        download.forgetJournal()
        observer.transfer(primary.job.id, didComplete: primary.segmentedOutcome(failure: nil))
    }

    /// The representation changed (or its ranges went wrong): the parts stop and the primary starts again
    /// from 0 with its request.
    private func startAgain(_ download: SegmentedDownload, segmentedAgain: Bool, multi: CurlMultiHandle) {
        download.isClosed = true
        let primary = download.primary
        for part in download.removeAll() {
            multi.remove(part.easy)
            running[ObjectIdentifier(part.easy)] = nil
        }
        multi.remove(primary.easy)
        download.forgetJournal()
        primary.meter.transactions += download.transactions
        segmentedDownloads.remove(ObjectIdentifier(primary.easy))
        needsPass = true
        needsSegmentPass = true
        do {
            try primary.startAgainFromZero(segmentedAgain: segmentedAgain)
        } catch {
            release(primary)
            return observer.transfer(primary.job.id, didComplete: primary.outcome(failure: TransferFailure(curlError: error)))
        }
        admit(primary, multi: multi)
    }

    /// Takes every connection of the download out of the multi and the slots; returns its primary.
    private func stopAll(_ download: SegmentedDownload, multi: CurlMultiHandle) -> Transfer {
        download.isClosed = true
        let primary = download.primary
        for part in download.removeAll() {
            multi.remove(part.easy)
            running[ObjectIdentifier(part.easy)] = nil
        }
        multi.remove(primary.easy)
        segmentedDownloads.remove(ObjectIdentifier(primary.easy))
        release(primary)
        return primary
    }
}
