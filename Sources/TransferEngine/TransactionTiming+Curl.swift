import Curl
import Foundation

extension TransactionTiming {
    /// `CURLINFO_*` of the request that just ended on `easy`, as transaction metrics material.
    init(of easy: CurlEasyHandle, request: OutgoingRequest, head: ResponseHead, fetchStart: Date) {
        func seconds(_ item: CurlOffsetInfo) -> Double { Double(max(0, easy.info(item))) / 1_000_000 }
        self.init(
            request: request, response: head.statusCode >= 200 ? head : nil, url: request.url, method: request.method,
            statusCode: easy.info(.responseCode), fetchStart: fetchStart, nameLookup: seconds(.nameLookupTime),
            connect: seconds(.connectTime), appConnect: seconds(.appConnectTime), preTransfer: seconds(.preTransferTime),
            startTransfer: seconds(.startTransferTime), total: seconds(.totalTime), httpVersion: easy.info(.httpVersion),
            remoteAddress: easy.info(.remoteAddress), remotePort: easy.info(.remotePort),
            localAddress: easy.info(.localAddress), localPort: easy.info(.localPort),
            requestHeaderBytes: Int64(easy.info(.requestHeaderBytes)), requestBodyBytes: max(0, easy.info(.bodyBytesSent)),
            responseHeaderBytes: Int64(easy.info(.responseHeaderBytes)),
            responseBodyBytes: max(0, easy.info(.bodyBytesReceived)), isReusedConnection: easy.info(.newConnections) == 0)
    }

    /// The transaction of a response served from the cache: no connection, no bytes on the wire.
    static func servedFromCache(request: OutgoingRequest, head: ResponseHead, fetchStart: Date) -> TransactionTiming {
        var timing = TransactionTiming(
            request: request, response: head, url: request.url, method: request.method, statusCode: head.statusCode,
            fetchStart: fetchStart, nameLookup: 0, connect: 0, appConnect: 0, preTransfer: 0, startTransfer: 0,
            total: max(0, Date().timeIntervalSince(fetchStart)), httpVersion: 0, remoteAddress: nil, remotePort: 0,
            localAddress: nil, localPort: 0, requestHeaderBytes: 0, requestBodyBytes: 0, responseHeaderBytes: 0,
            responseBodyBytes: 0, isReusedConnection: false)
        timing.isFromLocalCache = true
        return timing
    }
}
