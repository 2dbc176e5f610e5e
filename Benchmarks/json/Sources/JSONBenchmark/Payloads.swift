import Foundation
import JSONCodec
import TransferModels

/// Request bodies and event payloads as the service handles them: what a client posts to
/// `POST /v1/sessions/{id}/tasks`, and what a running transfer reports to its delegate.
enum Payloads {
    // MARK: Task-create bodies (decoded by `HTTPRequest.decodeJSON`)

    /// The smallest useful body: one download, started at once (what `Benchmarks/transfers.sh` posts).
    static let smallTaskBody = Array(
        #"{"kind":"download","request":{"url":"https://cdn.example.com/releases/app-2.4.1.tar.gz"},"resume":true}"#.utf8)

    /// Most members a client sets: headers, an inline JSON body, a description, a start date, a digest,
    /// a completion handler.
    static let fullTaskBody = Array(
        """
        {
          "kind": "data",
          "request": {
            "url": "https://api.example.com/v2/orders/8d1f5c2e/export?format=csv&since=2026-01-01",
            "httpMethod": "POST",
            "allHTTPHeaderFields": {
              "Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
              "Accept": "text/csv",
              "X-Request-Id": "6f1c2a7e-93d4-4b8e-9a51-0c2d7e8f1b34",
              "User-Agent": "nightly-export/1.4"
            },
            "httpBody": {"json": {"columns": ["id", "total", "currency"], "limit": 5000, "includeArchived": false}},
            "timeoutInterval": 30,
            "cachePolicy": "reloadIgnoringLocalCacheData",
            "allowsCellularAccess": false
          },
          "taskDescription": "Nightly export of the orders of tenant 8d1f5c2e",
          "priority": 0.75,
          "earliestBeginDate": "2026-11-22T03:00:00Z",
          "countOfBytesClientExpectsToReceive": 1048576,
          "expectedDigest": "sha-256=:\(String(repeating: "A", count: 43))=:",
          "completion": {"url": "https://consumer.example/hooks/export-done"},
          "resume": true
        }
        """.utf8)

    // MARK: Delegate event payloads (encoded by `WireJSON.encode` in `DelegateEvent`)

    static let created = Date(timeIntervalSince1970: 1_790_000_000.123)

    static let summary = TaskSummary(
        id: "tsk_01J0000000000000000000001", taskIdentifier: 42, kind: .download, state: .running,
        taskDescription: "Nightly export of the orders of tenant 8d1f5c2e")

    /// `dataTask.didReceiveData` and `downloadTask.didWriteData` are the events a transfer sends most.
    static let receiveData = ReceiveDataEventData(
        task: summary, length: 65_536, totalBytesReceived: 3_211_264, totalBytesExpectedToReceive: 10_485_760)

    static let request = URLRequestSnapshot(
        url: "https://cdn.example.com/releases/app-2.4.1.tar.gz", httpMethod: "GET",
        allHTTPHeaderFields: ["Accept": "*/*", "X-Request-Id": "6f1c2a7e-93d4-4b8e-9a51-0c2d7e8f1b34"],
        timeoutInterval: 30)

    static let response = HTTPResponseSnapshot(
        url: "https://cdn.example.com/releases/app-2.4.1.tar.gz", statusCode: 200,
        headerLines: [
            ("Server", "nginx/1.22.1"), ("Date", "Sun, 22 Nov 2026 03:00:01 GMT"),
            ("Content-Type", "application/gzip"), ("Content-Length", "10485760"),
            ("Last-Modified", "Fri, 20 Nov 2026 17:42:10 GMT"), ("Connection", "keep-alive"),
            ("ETag", "\"6735f1a2-a00000\""), ("Accept-Ranges", "bytes"),
            ("Cache-Control", "public, max-age=86400"),
            ("Content-Disposition", "attachment; filename=\"app-2.4.1.tar.gz\""),
        ])

    /// `dataTask.didReceiveResponse`: the summary and a response with ten header fields.
    static let responseEvent = ResponseEventData(task: summary, response: response)

    /// `task.didFinishCollectingMetrics`: the largest event, one transaction with every date.
    static let metricsEvent: MetricsEvent = {
        var transaction = TaskTransactionMetrics(request: request)
        transaction.response = response
        transaction.fetchStartDate = created
        transaction.domainLookupStartDate = created.addingTimeInterval(0.001)
        transaction.domainLookupEndDate = created.addingTimeInterval(0.002)
        transaction.connectStartDate = created.addingTimeInterval(0.002)
        transaction.secureConnectionStartDate = created.addingTimeInterval(0.01)
        transaction.secureConnectionEndDate = created.addingTimeInterval(0.04)
        transaction.connectEndDate = created.addingTimeInterval(0.04)
        transaction.requestStartDate = created.addingTimeInterval(0.041)
        transaction.requestEndDate = created.addingTimeInterval(0.041)
        transaction.responseStartDate = created.addingTimeInterval(0.09)
        transaction.responseEndDate = created.addingTimeInterval(1.7)
        transaction.networkProtocolName = "http/1.1"
        transaction.negotiatedTLSProtocolVersion = .TLSv13
        transaction.negotiatedTLSCipherSuite = "AES_128_GCM_SHA256"
        transaction.countOfRequestHeaderBytesSent = 87
        transaction.countOfResponseHeaderBytesReceived = 412
        transaction.countOfResponseBodyBytesReceived = 10_485_760
        transaction.countOfResponseBodyBytesAfterDecoding = 10_485_760
        transaction.localAddress = "10.0.0.12"
        transaction.localPort = 50_123
        transaction.remoteAddress = "93.184.216.34"
        transaction.remotePort = 443
        let metrics = TaskMetrics(
            taskInterval: .init(start: created, duration: 1.7), redirectCount: 0, transactionMetrics: [transaction])
        return MetricsEvent(task: summary, metrics: metrics)
    }()

    /// The task object (`GET /v1/tasks/{id}`, the `task` of stored records): a completed download.
    static let task = TransferTask(
        id: summary.id, sessionId: "ses_01J0000000000000000000000", taskIdentifier: 42, kind: .download,
        state: .completed, priority: 0.5, taskDescription: summary.taskDescription, earliestBeginDate: nil,
        originalRequest: request, currentRequest: request, response: response, countOfBytesSent: 0,
        countOfBytesExpectedToSend: 0, countOfBytesReceived: 10_485_760, countOfBytesExpectedToReceive: 10_485_760,
        progress: TaskProgress(fractionCompleted: 1, throughput: 6_168_094.1, estimatedTimeRemaining: nil), error: nil,
        location: "/v1/tasks/tsk_01J0000000000000000000001/file", createdAt: created,
        startedAt: created.addingTimeInterval(0.5), completedAt: created.addingTimeInterval(2.2))
}

/// `task.didFinishCollectingMetrics`'s shape with the metrics as a value: the service encodes the metrics
/// once (for the task's row) and embeds those bytes in the event, so this is what that costs.
struct MetricsEvent: Encodable, Sendable {
    var task: TaskSummary
    var metrics: TaskMetrics
}
