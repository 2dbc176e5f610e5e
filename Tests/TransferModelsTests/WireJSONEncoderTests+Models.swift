import Foundation
import JSONCodec
import Testing
import TransferModels

/// The project's wire types, each compared byte for byte with Foundation's encoder, and the benchmark.
@Suite("WireJSON.encode of the wire types")
struct WireJSONModelEncodingTests {
    @Test func sessions() throws {
        for configuration in WireSamples.configurations {
            try expectSame(configuration)
        }
        try expectSame(WireSamples.session)
        var withoutDelegate = WireSamples.session
        withoutDelegate.delegate = nil
        withoutDelegate.sessionDescription = nil
        try expectSame(withoutDelegate)
        try expectSame(Page(items: [WireSamples.session, withoutDelegate], nextCursor: "c/ursor=="))
        try expectSame(Page(items: [TransferSession](), nextCursor: nil))
    }

    @Test func tasks() throws {
        for task in WireSamples.tasks {
            try expectSame(task)
            try expectSame(task.summary)
            try expectSame(task.originalRequest)
            try expectSame(task.response)
            try expectSame(task.progress)
        }
        try expectSame(Page(items: WireSamples.tasks, nextCursor: nil))
        try expectSame(WireSamples.metrics)
        try expectSame(
            TaskMetrics(taskInterval: .init(start: Date(timeIntervalSince1970: 0), duration: 0), redirectCount: 0, transactionMetrics: []))
    }

    @Test func errorsAndEvents() throws {
        let error = WireSamples.error
        try expectSame(error)
        try expectSame(TransferError.cancelled(failingURL: nil))
        try expectSame(TransferError(.timedOut, failingURL: "http://h/"))
        let summary = WireSamples.tasks[0].summary
        try expectSame(TaskCreatedEventData(task: summary))
        try expectSame(TaskCompletedEventData(task: summary, error: nil))
        try expectSame(TaskCompletedEventData(task: summary, error: error))
        // The metrics event carries the metrics' bytes as they were encoded for the task's row: the same
        // bytes as Foundation writes for the event with the metrics value in it.
        struct MetricsEvent: Encodable {
            var task: TaskSummary
            var metrics: TaskMetrics
        }
        let metricsJSON = String(decoding: try WireJSON.encode(WireSamples.metrics), as: UTF8.self)
        #expect(
            try WireJSON.encode(TaskMetricsEventData(task: summary, metrics: EncodedJSON(metricsJSON)))
                == foundationEncode(MetricsEvent(task: summary, metrics: WireSamples.metrics)))
        let task = WireSamples.tasks[1]
        try expectSame(ResponseEventData(task: summary, response: WireSamples.response))
        try expectSame(RedirectEventData(task: summary, response: WireSamples.response, request: WireSamples.request))
        try expectSame(WriteDataEventData(task: summary, bytesWritten: 1, totalBytesWritten: 2, totalBytesExpectedToWrite: -1))
        try expectSame(SendBodyDataEventData(task: summary, bytesSent: 3, totalBytesSent: 4, totalBytesExpectedToSend: 5))
        try expectSame(ReceiveDataEventData(task: summary, length: 6, totalBytesReceived: 7, totalBytesExpectedToReceive: 8))
        try expectSame(BecomeDownloadEventData(task: summary, downloadTask: task.summary))
        try expectSame(FinishDownloadingEventData(task: task.summary, location: try #require(task.location)))
        try expectSame(CompletionHandlerEventData(task: summary, response: nil, error: nil))
        try expectSame(
            CompletionHandlerEventData(
                task: summary, response: WireSamples.response, error: error, data: Array("body ✓".utf8),
                dataLocation: "/v1/tasks/tsk_1/data"))
        try expectSame(CompletionHandlerEventData(task: task.summary, response: task.response, error: nil, location: task.location))
        try expectSame(
            Blob(id: "blob_1", size: 1 << 40, digest: "sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:", createdAt: .nowMilliseconds)
        )
        try expectSame(TaskCompletionHandler(url: "https://h/done?x=1"))
        try expectSame(TaskEventType.allCases)
        try expectSame(try JSONParser.parse(#"{"b": [1, 2.50, -0, 1e300, "x"], "a": {"é": null, "ü": true}, "": 18446744073709551615}"#))
        try expectSameError(try JSONParser.parse(#"{"a": [1e400]}"#))
    }

    /// Prints µs per encode, Foundation against `WireJSON`; run with `WIREJSON_BENCHMARK=1`, in release for real
    /// numbers (`swift test -c release --filter WireJSONModelEncodingTests`).
    ///
    /// Each encoder runs 10,000 times in 10 rounds taken in turn; the best round counts, in this thread's CPU
    /// time, so other processes of a busy machine weigh as little as possible.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["WIREJSON_BENCHMARK"] != nil))
    func benchmark() throws {
        func cpuNanoseconds() -> Int {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return now.tv_sec * 1_000_000_000 + now.tv_nsec
        }
        func measure(_ name: String, _ value: some Encodable) throws {
            let rounds = 10
            let perRound = 1_000
            var best = (foundation: Double.infinity, wire: Double.infinity)
            for _ in 0..<rounds {
                var start = cpuNanoseconds()
                for _ in 0..<perRound { _ = try foundationEncode(value) }
                best.foundation = min(best.foundation, Double(cpuNanoseconds() - start) / 1000 / Double(perRound))
                start = cpuNanoseconds()
                for _ in 0..<perRound { _ = try WireJSON.encode(value) }
                best.wire = min(best.wire, Double(cpuNanoseconds() - start) / 1000 / Double(perRound))
            }
            let size = try WireJSON.encode(value).count
            print(
                "WireJSON benchmark \(name) (\(size) bytes): Foundation \(String(format: "%.2f", best.foundation)) µs, "
                    + "WireJSON \(String(format: "%.2f", best.wire)) µs, \(String(format: "%.1f", best.foundation / best.wire))x")
        }
        try measure("TransferTask", WireSamples.tasks[1])
        try measure("TaskMetrics", WireSamples.metrics)
        try measure("SessionConfiguration", WireSamples.configurations[0])
        try measure("TransferSession", WireSamples.session)
        try measure("TaskCompletedEventData", TaskCompletedEventData(task: WireSamples.tasks[1].summary, error: WireSamples.error))
        try measure("Page<TransferTask> x20", Page(items: Array(repeating: WireSamples.tasks[1], count: 20), nextCursor: "next"))
    }
}

/// Wire values with every optional filled in (and some left out), non-ASCII and escaped text included.
enum WireSamples {
    static let configurations: [SessionConfiguration] = {
        var custom = SessionConfiguration(kind: .background, identifier: "com.example.nightly")
        custom.httpAdditionalHeaders = ["X-Trace": "a/b \"c\"", "Accept-Language": "fr-FR, é;q=0.8", "user-agent": "x"]
        custom.timeoutIntervalForRequest = 12.5
        custom.urlCache = nil
        var proxies = ProxyDictionary()
        proxies.HTTPEnable = true
        proxies.HTTPProxy = "proxy.local"
        proxies.HTTPPort = 3128
        proxies.ExceptionsList = ["*.local", "169.254/16"]
        custom.connectionProxyDictionary = proxies
        return [SessionConfiguration(kind: .default), SessionConfiguration(kind: .ephemeral), custom]
    }()

    static let session: TransferSession = {
        var delegate = DelegateConfiguration(
            url: "https://consumer.example/hooks?x=1", events: ["*", "task.didCompleteWithError"],
            decisions: [.taskWillPerformHTTPRedirection], decisionTimeout: 10, progressInterval: 0.5)
        delegate.secret = "whsec_abc/def+ghi="
        return TransferSession(
            id: "ses_01J0000000000000000000000", configuration: configurations[2], delegate: delegate,
            sessionDescription: "Nightly sync — ünïcødé ✓\n", state: .valid, createdAt: Date(timeIntervalSince1970: 1_790_000_000.123))
    }()

    static let request = URLRequestSnapshot(
        url: "https://example.com/files/report.pdf?a=1&b=%2F", httpMethod: "POST",
        allHTTPHeaderFields: ["Content-Type": "application/json", "Authorization": "Bearer x", "X-Empty": ""],
        httpBody: Data(#"{"hello": "world"}"#.utf8), timeoutInterval: 30, cachePolicy: .reloadIgnoringLocalCacheData)

    static let response = HTTPResponseSnapshot(
        url: "https://example.com/files/report.pdf", statusCode: 200,
        headerLines: [
            ("Content-Type", "application/pdf; charset=UTF-8"), ("Content-Length", "123456"),
            ("Content-Disposition", "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"), ("Set-Cookie", "a=1"),
            ("set-cookie", "b=2"), ("ETag", "\"abc\""),
        ])

    static let error = TransferError(
        .timedOut, failingURL: "https://example.com/slow", userInfo: ["reason": "idle timeout — 60 s"],
        underlying: .init(domain: "libcurl", code: 28, message: "Operation timed out after 60000 milliseconds"))

    static let tasks: [TransferTask] = {
        let created = Date(timeIntervalSince1970: 1_790_000_000.123)
        let pending = TransferTask(
            id: "tsk_1", sessionId: "ses_1", taskIdentifier: 1, kind: .data, state: .suspended, priority: 0.5,
            taskDescription: nil, earliestBeginDate: nil, originalRequest: URLRequestSnapshot(url: "http://h/"),
            currentRequest: nil, response: nil, countOfBytesSent: 0, countOfBytesExpectedToSend: 0, countOfBytesReceived: 0,
            countOfBytesExpectedToReceive: -1, progress: TaskProgress(fractionCompleted: 0), error: nil, location: nil,
            createdAt: created, startedAt: nil, completedAt: nil)
        let completed = TransferTask(
            id: "tsk_01J0000000000000000000001", sessionId: "ses_01J0000000000000000000000", taskIdentifier: 42,
            kind: .download, state: .completed, priority: 0.75, taskDescription: "Quarterly report 📄 \"Q3\"",
            earliestBeginDate: created.addingTimeInterval(5), originalRequest: request, currentRequest: request,
            response: response, countOfBytesSent: 18, countOfBytesExpectedToSend: 18, countOfBytesReceived: 123_456,
            countOfBytesExpectedToReceive: 123_456,
            progress: TaskProgress(fractionCompleted: 1, throughput: 1_234_567.891, estimatedTimeRemaining: 0.001),
            error: error, location: "/v1/tasks/tsk_01J0000000000000000000001/file", createdAt: created,
            startedAt: created.addingTimeInterval(5.5), completedAt: created.addingTimeInterval(65.25))
        return [pending, completed]
    }()

    static let metrics: TaskMetrics = {
        let start = Date(timeIntervalSince1970: 1_790_000_000.123)
        var first = TaskTransactionMetrics(request: URLRequestSnapshot(url: "http://example.com/files/report.pdf"))
        first.response = HTTPResponseSnapshot(
            url: "http://example.com/files/report.pdf", statusCode: 301,
            allHeaderFields: ["Location": "https://example.com/files/report.pdf"])
        first.fetchStartDate = start
        first.domainLookupStartDate = start.addingTimeInterval(0.001)
        first.domainLookupEndDate = start.addingTimeInterval(0.002)
        first.connectStartDate = start.addingTimeInterval(0.002)
        first.connectEndDate = start.addingTimeInterval(0.01)
        first.requestStartDate = start.addingTimeInterval(0.011)
        first.requestEndDate = start.addingTimeInterval(0.011)
        first.responseStartDate = start.addingTimeInterval(0.05)
        first.responseEndDate = start.addingTimeInterval(0.051)
        first.networkProtocolName = "http/1.1"
        first.countOfRequestHeaderBytesSent = 87
        first.countOfResponseHeaderBytesReceived = 140
        first.localAddress = "127.0.0.1"
        first.localPort = 50_123
        first.remoteAddress = "93.184.216.34"
        first.remotePort = 80
        var second = TaskTransactionMetrics(request: request)
        second.response = response
        second.fetchStartDate = start.addingTimeInterval(0.052)
        second.secureConnectionStartDate = start.addingTimeInterval(0.06)
        second.secureConnectionEndDate = start.addingTimeInterval(0.09)
        second.isReusedConnection = true
        second.negotiatedTLSProtocolVersion = .TLSv13
        second.negotiatedTLSCipherSuite = "AES_128_GCM_SHA256"
        second.countOfResponseBodyBytesReceived = 123_456
        second.countOfResponseBodyBytesAfterDecoding = 123_456
        return TaskMetrics(taskInterval: .init(start: start, duration: 0.25), redirectCount: 1, transactionMetrics: [first, second])
    }()
}
