import Curl
import Foundation
import TransferModels

/// A download fetched over several connections into one file: its plan, its file and journal, and the
/// connections at work. The primary `Transfer` (the job's own, which sent the first request and reports
/// for all) owns it; each part connection is another `Transfer` of the same job, sent to the final URL
/// with the primary's credentials and TLS decisions, asking for ranges with `If-Range`.
///
/// Confined to the engine's loop thread, as its transfers are.
final class SegmentedDownload {
    unowned let primary: Transfer
    let policy: SegmentPolicy
    let validator: String
    let file: SegmentFile
    let journal: SegmentJournalWriter
    var plan: SegmentPlan
    /// The part connections at work, by number (the primary is 0 and not listed).
    private(set) var parts: [Int: Transfer] = [:]
    private var lastNumber = 0
    /// The transactions of part connections that stopped (the primary keeps its own).
    var transactions: [TransactionTiming] = []
    /// Requests that failed on the network so far, and answers that were not the range asked for.
    var failures = 0
    var unexpectedAnswers = 0
    /// Writing the file failed: the download fails with -3003.
    var diskError: (any Error)?
    /// The download ended (complete, failed, or started again on its primary): no connection joins it.
    var isClosed = false
    private var lastCheckpoint = ContinuousClock.now

    /// Checkpoints are at most this often: a crash re-fetches at most about this much of each part.
    static let checkpointInterval: Duration = .seconds(1)
    /// Failed requests a download rides out (other connections take their ranges) before it fails.
    static let failureLimit = 8

    /// Opens the file at `path`, writes the first journal (before any byte of the file), then makes the
    /// file `plan.length` long.
    init(primary: Transfer, policy: SegmentPolicy, validator: String, plan: SegmentPlan, path: String) throws {
        self.primary = primary
        self.policy = policy
        self.validator = validator
        self.plan = plan
        self.file = try SegmentFile(path: path)
        let resume = SegmentedResume(length: plan.length, validator: validator, policy: policy, parts: Self.ranges(plan))
        self.journal = try SegmentJournalWriter(file: file, first: resume)
        try file.reserve(plan.length)
    }

    var length: Int64 { plan.length }

    /// Connections fetching at the moment (the primary counts while it has a request of its own).
    var activeConnections: Int { parts.count + (primary.machine.isWaiting ? 0 : 1) }

    /// Whether one more connection would find work and the policy allows it.
    var wantsConnection: Bool {
        !isClosed && diskError == nil && activeConnections < policy.maximumConnections && plan.hasWorkForAnotherConnection
    }

    /// A number for a new part connection.
    func add(_ part: Transfer) -> Int {
        lastNumber += 1
        parts[lastNumber] = part
        return lastNumber
    }

    /// A part connection stops: its transactions stay with the download.
    func remove(_ part: Transfer) {
        guard parts.removeValue(forKey: part.segments.connectionNumber) != nil else { return }
        transactions += part.meter.transactions
        part.segments.partOf = nil
    }

    /// Every part connection, taken out of the download (it is aborted or finished).
    func removeAll() -> [Transfer] {
        let all = Array(parts.values)
        for part in all { remove(part) }
        return all
    }

    /// The size of `transfer`'s next request, from the rate and round trip of its last one.
    func requestSize(for transfer: Transfer) -> Int64 {
        policy.requestSize(rate: transfer.segments.rate, roundTrip: transfer.segments.roundTrip)
    }

    /// What the head of a request for `range` says: 206 for the range asked, of the representation the
    /// download has been fetching; a 200 (or another validator) means `If-Range` failed.
    func answer(_ head: ResponseHead, to range: Range<Int64>) -> SegmentAnswer {
        let contentRange = head.contentRange
        let etag = head.value("etag")
        let sameValidator = etag == nil || !validator.hasPrefix("\"") || etag == validator
        if head.statusCode == 206 && sameValidator && !head.isContentEncoded {
            let asked = contentRange?.start == range.lowerBound && contentRange?.length == length
            return asked ? .accepted : .unexpected(status: 206)
        } else if head.statusCode == 200 || head.statusCode == 206 {
            return .validatorChanged
        }
        return .unexpected(status: head.statusCode)
    }

    /// Bytes of `transfer`'s response: into the file where its part stands. The bytes past its part's end
    /// belong to another connection's part: the response is cut there (the first response, which runs to
    /// the end of the representation, always is, unless its part is the last).
    func receive(_ bytes: UnsafeRawBufferPointer, from transfer: Transfer) -> CurlBodyVerdict {
        guard diskError == nil, let part = plan.part(of: transfer.segments.connectionNumber) else {
            _ = transfer.machine.handle(.cutAtPartEnd)
            return .failed
        }
        let kept = Int(min(Int64(bytes.count), part.remaining))
        do {
            if kept > 0 { try file.write(UnsafeRawBufferPointer(rebasing: bytes[0..<kept]), at: part.next) }
        } catch {
            diskError = error
            return .failed
        }
        let partIsDone = plan.receive(Int64(kept), by: transfer.segments.connectionNumber)?.partIsDone ?? true
        transfer.segments.requestBytes += Int64(kept)
        primary.meter.progress.bytesReceived += Int64(kept)
        if !verifyPieces(part.next..<part.next + Int64(kept), from: transfer) {
            // Its mirror was dropped for a bad piece: the request ends here, the next goes to another.
            _ = transfer.machine.handle(.cutAtPartEnd)
            return .failed
        }
        primary.reportProgressIfDue()
        checkpointIfDue()
        let responseGoesOn = transfer.machine.range == nil ? part.end < length : false
        if kept < bytes.count || (partIsDone && responseGoesOn) {
            _ = transfer.machine.handle(.cutAtPartEnd)  // the rest is another part's: the request ends here, as a success
            return .failed
        }
        return .accepted
    }

    /// Where the download stands, as its journal records it.
    var resume: SegmentedResume {
        SegmentedResume(length: length, validator: validator, policy: policy, parts: Self.ranges(plan))
    }

    private func checkpointIfDue() {
        let now = ContinuousClock.now
        guard now - lastCheckpoint >= Self.checkpointInterval else { return }
        lastCheckpoint = now
        journal.checkpoint(resume)
    }

    /// The download stopped (failed or cancelled): its journal records where, for the next attempt;
    /// `then` runs once that record is on disk.
    func stopped(then: @escaping @Sendable () -> Void) {
        journal.checkpoint(resume, final: true, then: then)
    }

    /// The download is complete, or starts again from 0: its journal goes.
    func forgetJournal() {
        SegmentJournal.remove(partialPath: file.path)
    }

    private static func ranges(_ plan: SegmentPlan) -> [[Int64]] {
        plan.journalRanges.map { [$0.start, $0.next, $0.end] }
    }
}
