import Foundation

/// What a transfer measures as it goes: its progress (and what of it the observer last heard), the clocks
/// its timeouts and transactions run from, and the transactions of its finished requests.
struct TransferMeter {
    var progress = TransferProgress(bytesSent: 0, bytesExpectedToSend: 0, bytesReceived: 0, bytesExpectedToReceive: -1)
    var transactions: [TransactionTiming] = []
    /// When the task's transfer started: the resource timeout's origin (a part connection's is its primary's).
    let startedAt: ContinuousClock.Instant
    /// When the current request started: its transaction's `fetchStart`.
    var requestStartedAt = Date()
    /// The last time a byte moved in either direction (or the request started): the idle timeout's origin.
    var lastActivity = ContinuousClock.now
    private var lastProgressReport = ContinuousClock.now
    private var lastReportedProgress: TransferProgress?

    init(startedAt: ContinuousClock.Instant) {
        self.startedAt = startedAt
    }

    /// The progress to tell the observer now: at most once per `interval`, and only when it moved.
    mutating func progressToReport(every interval: Duration) -> TransferProgress? {
        let now = ContinuousClock.now
        guard now - lastProgressReport >= interval, progress != lastReportedProgress else { return nil }
        lastProgressReport = now
        lastReportedProgress = progress
        return progress
    }

    /// When the transfer is idle for too long: `timeout` seconds after the last byte moved.
    func idleDeadline(timeout: TimeInterval) -> ContinuousClock.Instant {
        lastActivity + .milliseconds(Int64(timeout * 1000))
    }

    /// What is left of the task's whole allowance (`timeoutIntervalForResource`), in milliseconds (at least 1).
    func millisecondsLeft(of allowance: TimeInterval) -> Int {
        let elapsed = ContinuousClock.now - startedAt
        return max(1, Int(allowance * 1000) - Int(elapsed.components.seconds * 1000))
    }

    /// The body received so far is dropped: nothing received, nothing known of what is to come.
    mutating func restartReceiving() {
        progress.bytesReceived = 0
        progress.bytesExpectedToReceive = -1
    }
}
