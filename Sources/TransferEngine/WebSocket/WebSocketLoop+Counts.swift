import Foundation
import TransferModels

// The byte counts of open WebSocket and stream connections while they last: URLSession's tasks show
// `countOfBytesSent` and `countOfBytesReceived` moving, not only at the end.
extension WebSocketLoop {
    static let countsInterval = Duration.milliseconds(250)

    /// Reports each connection whose counts changed since the last report, at most every `countsInterval`
    /// (the loop wakes at least once a second, so counts that changed are never older than that).
    func reportCounts() {
        let now = ContinuousClock.now
        guard now - countsReportedAt >= Self.countsInterval else { return }
        countsReportedAt = now
        var current: [TransferID: (sent: Int64, received: Int64)] = [:]
        for link in links.values { current[link.job.id] = (link.bytesSent, link.bytesReceived) }
        for link in streams.values { current[link.job.id] = (link.bytesSent, link.bytesReceived) }
        for (id, counts) in current where counts != reportedCounts[id] ?? (0, 0) { report(counts, of: id) }
        reportedCounts = current
    }

    private func report(_ counts: (sent: Int64, received: Int64), of id: TransferID) {
        observer.transfer(
            id,
            didCount: TransferProgress(
                bytesSent: counts.sent, bytesExpectedToSend: 0, bytesReceived: counts.received, bytesExpectedToReceive: -1))
    }
}
