import Foundation
import TransferEngine
import TransferModels
import TransferStore

/// `URLSessionTaskMetrics` from the engine's `CURLINFO_*` timings, one transaction per request sent.
enum TaskMetricsBuilder {
    static func metrics(_ outcome: TransferOutcome, task: TaskRecord, started: Date, reported: ReportedResponse? = nil) -> TaskMetrics {
        // A segmented download's range requests are parts of one body: each counts its own bytes, and the
        // last response of the task's own (after its redirects) counts the rest.
        let last = outcome.transactions.lastIndex { !$0.isSegmentRange } ?? -1
        let rangeBytes = outcome.transactions.reduce(0) { $0 + ($1.isSegmentRange ? $1.responseBodyBytes : 0) }
        let transactions = outcome.transactions.enumerated().map { index, timing -> TaskTransactionMetrics in
            let base = task.originalRequest ?? URLRequestSnapshot(url: timing.url)
            // Redacted here: the metrics are kept as encoded, for the task and its event alike.
            var metrics = TaskTransactionMetrics(request: RequestSnapshots.snapshot(of: timing.request, basedOn: base).redacted)
            metrics.response = timing.response.map {
                ReportedResponse.snapshot(of: $0, at: timing.url, reported: reported).redacted
            }
            let start = timing.fetchStart
            func at(_ seconds: Double) -> Date? { seconds > 0 ? start.addingTimeInterval(seconds) : nil }
            metrics.fetchStartDate = start
            if timing.isFromLocalCache {
                // No connection, request or bytes on the wire: the response and its body came from the cache.
                metrics.resourceFetchType = .localCache
                metrics.responseStartDate = start
                metrics.responseEndDate = start.addingTimeInterval(timing.total)
                metrics.countOfResponseBodyBytesAfterDecoding = index == last ? outcome.progress.bytesReceived : 0
                return metrics
            }
            if timing.nameLookup > 0 { metrics.domainLookupStartDate = start }
            metrics.domainLookupEndDate = at(timing.nameLookup)
            metrics.connectStartDate = timing.isReusedConnection ? nil : at(timing.nameLookup) ?? start
            metrics.connectEndDate = timing.isReusedConnection ? nil : at(max(timing.connect, timing.appConnect))
            if timing.appConnect > 0 {
                metrics.secureConnectionStartDate = at(timing.connect)
                metrics.secureConnectionEndDate = at(timing.appConnect)
            }
            metrics.requestStartDate = at(timing.preTransfer)
            metrics.requestEndDate = at(timing.preTransfer)
            metrics.responseStartDate = at(timing.startTransfer)
            metrics.responseEndDate = at(timing.total)
            metrics.networkProtocolName = protocolName(timing.httpVersion)
            metrics.isReusedConnection = timing.isReusedConnection
            metrics.countOfRequestHeaderBytesSent = timing.requestHeaderBytes
            metrics.countOfRequestBodyBytesSent = timing.requestBodyBytes
            metrics.countOfRequestBodyBytesBeforeEncoding = timing.requestBodyBytes
            metrics.countOfResponseHeaderBytesReceived = timing.responseHeaderBytes
            metrics.countOfResponseBodyBytesReceived = timing.responseBodyBytes
            metrics.countOfResponseBodyBytesAfterDecoding =
                timing.isSegmentRange ? timing.responseBodyBytes : index == last ? max(0, outcome.progress.bytesReceived - rangeBytes) : 0
            metrics.localAddress = timing.localAddress
            metrics.localPort = timing.localPort == 0 ? nil : timing.localPort
            metrics.remoteAddress = timing.remoteAddress
            metrics.remotePort = timing.remotePort == 0 ? nil : timing.remotePort
            metrics.isProxyConnection = timing.isProxyConnection
            metrics.isMultipath = timing.isMultipath
            if let path = timing.networkPath {
                (metrics.networkPath, metrics.networkInterface) = (path.name, path.interface)
                (metrics.isCellular, metrics.isExpensive, metrics.isConstrained) = (path.isCellular, path.isExpensive, path.isConstrained)
            }
            return metrics
        }
        let duration = max(0, Date().timeIntervalSince(started))
        return TaskMetrics(
            taskInterval: .init(start: started, duration: duration),
            redirectCount: max(0, outcome.transactions.count { !$0.isSegmentRange } - 1),
            transactionMetrics: transactions)
    }

    /// `CURLINFO_HTTP_VERSION` → the ALPN name URLSession reports.
    static func protocolName(_ version: Int) -> String? {
        switch version {
        case 1: "http/1.0"
        case 2: "http/1.1"
        case 3: "h2"
        case 30: "h3"
        default: nil
        }
    }
}
