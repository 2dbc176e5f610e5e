import Foundation
import JSONCodec
import Testing
import TransferModels

@Suite("Task create requests: defaults from the session, every invalid field named")
struct TaskRequestTests {
    private let blobID = "blb_0123456789ABCDEFGHIJKL"

    private func validate(
        _ json: String, session: SessionConfiguration = SessionConfiguration(kind: .default),
        schemes: Set<String> = URLRequestInput.webSchemes
    ) throws(RequestDecodingError) -> ValidatedTaskRequest {
        try StrictJSONDecoder().decode(TaskCreateRequest.self, from: Array(json.utf8))
            .validated(session: session, allowedSchemes: schemes)
    }

    @Test func requestFieldsDefaultToTheSessionConfiguration() throws {
        var session = SessionConfiguration(kind: .default)
        session.timeoutIntervalForRequest = 12
        session.requestCachePolicy = .reloadIgnoringLocalCacheData
        session.httpShouldSetCookies = false
        session.allowsCellularAccess = false
        session.httpAdditionalHeaders = ["X-Session": "s"]
        let task = try validate(#"{"kind": "data", "request": {"url": "https://origin.example/a"}}"#, session: session)
        let request = try #require(task.request)
        #expect(request.httpMethod == "GET")
        #expect(request.timeoutInterval == 12)
        #expect(request.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(request.httpShouldHandleCookies == false)
        #expect(request.allowsCellularAccess == false)
        #expect(request.allowsExpensiveNetworkAccess && request.allowsConstrainedNetworkAccess)
        #expect(request.allHTTPHeaderFields.isEmpty, "session headers are merged by the engine at send time")
        #expect(request.httpBody == nil)
        #expect(task.priority == 0.5 && !task.resume)
        #expect(task.countOfBytesClientExpectsToSend == -1 && task.countOfBytesClientExpectsToReceive == -1)
        #expect(task.uploadBody == nil && task.resumeData == nil && task.completion == nil)
    }

    @Test func requestFieldsOverrideTheSessionAndFlagsCombineWithIt() throws {
        var session = SessionConfiguration(kind: .default)
        session.allowsExpensiveNetworkAccess = false
        let task = try validate(
            #"""
            {"kind": "download", "request": {"url": "http://h/x", "httpMethod": "PUT", "timeoutInterval": 2.5,
             "cachePolicy": "returnCacheDataElseLoad", "httpShouldHandleCookies": false,
             "allowsCellularAccess": false, "allowsExpensiveNetworkAccess": true,
             "allHTTPHeaderFields": {"Accept": "*/*"}},
             "priority": 0.75, "taskDescription": "nightly", "resume": true,
             "earliestBeginDate": "2026-11-22T03:00:00Z", "expectedDigest": "sha-256=:\#(String(repeating: "A", count: 43))=:"}
            """#, session: session)
        let request = try #require(task.request)
        #expect(request.httpMethod == "PUT" && request.timeoutInterval == 2.5)
        #expect(request.cachePolicy == .returnCacheDataElseLoad && !request.httpShouldHandleCookies)
        #expect(!request.allowsCellularAccess)
        #expect(!request.allowsExpensiveNetworkAccess, "the request cannot allow what the session forbids")
        #expect(request.allHTTPHeaderFields == ["Accept": "*/*"])
        #expect(task.priority == 0.75 && task.taskDescription == "nightly" && task.resume)
        #expect(task.earliestBeginDate == Date(timeIntervalSince1970: 1_795_316_400))
        #expect(task.expectedDigest?.hasPrefix("sha-256=:") == true)
    }

    @Test func bodiesDecodeToBytesAndJSONKeepsItsText() throws {
        let text = try validate(#"{"kind": "data", "request": {"url": "http://h/", "httpMethod": "POST", "httpBody": {"text": "a=1"}}}"#)
        #expect(text.request?.httpBody == Data("a=1".utf8))
        #expect(text.request?.allHTTPHeaderFields == [:], "URLSession's default type is added at send time")
        #expect(text.countOfBytesClientExpectsToSend == -1)

        let base64 = try validate(#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"base64": "AAEC"}}}"#)
        #expect(base64.request?.httpBody == Data([0, 1, 2]))

        let json = try validate(#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"json": {"b": 1.50, "a": [true, null]}}}}"#)
        #expect(json.request?.httpBody == Data(#"{"b":1.50,"a":[true,null]}"#.utf8))
        #expect(json.request?.allHTTPHeaderFields == ["Content-Type": "application/json"])

        let typed = try validate(
            #"{"kind": "data", "request": {"url": "http://h/", "allHTTPHeaderFields": {"content-type": "text/x"}, "httpBody": {"json": null}}}"#
        )
        #expect(typed.request?.httpBody == Data("null".utf8))
        #expect(typed.request?.allHTTPHeaderFields == ["content-type": "text/x"], "the client's own type wins")
    }

    @Test func uploadsDefaultToPOSTAndTakeTheirBodyFromTheSource() throws {
        let blob = try validate(#"{"kind": "upload", "request": {"url": "http://h/u"}, "uploadSource": {"blob": "\#(blobID)"}}"#)
        #expect(blob.request?.httpMethod == "POST")
        #expect(blob.uploadBody == .blob(id: blobID))

        let inline = try validate(
            #"{"kind": "upload", "request": {"url": "http://h/u", "httpMethod": "PUT"}, "uploadSource": {"data": {"json": [1]}}}"#)
        #expect(inline.request?.httpMethod == "PUT")
        #expect(inline.uploadBody == .data(Data("[1]".utf8)))
        #expect(inline.request?.value(forHTTPHeaderField: "content-type") == "application/json")
    }

    @Test func downloadsResumeFromResumeDataWithoutARequest() throws {
        let task = try validate(#"{"kind": "download", "resumeData": "opaque"}"#)
        #expect(task.request == nil && task.resumeData == "opaque")
    }

    @Test func completionHandlerKeepsItsSecretApart() throws {
        let secret = WebhookSecret.generate()
        let task = try validate(
            #"{"kind": "data", "request": {"url": "http://h/"}, "completion": {"url": "https://c/done", "secret": "\#(secret)"}}"#)
        #expect(task.completion == TaskCompletionHandler(url: "https://c/done"))
        #expect(task.completionSecret == secret)
    }

    @Test func otherSchemesOnlyWhenAllowed() throws {
        let ftp = #"{"kind": "download", "request": {"url": "ftp://files.example/a.bin"}}"#
        #expect(throws: RequestDecodingError.self) { try validate(ftp) }
        let allowed = try validate(ftp, schemes: ["http", "https", "ftp"])
        #expect(allowed.request?.url == "ftp://files.example/a.bin")
    }

    @Test(arguments: [
        (#"{"request": {"url": "http://h/"}}"#, "kind"),
        (#"{"kind": "stream", "request": {"url": "http://h/"}}"#, "request"),
        (#"{"kind": "stream", "hostName": "h", "port": 70000}"#, "port"),
        (#"{"kind": "stream", "hostName": "h_h", "port": 7}"#, "hostName"),
        (#"{"kind": "data"}"#, "request"),
        (#"{"kind": "data", "colour": 1, "request": {"url": "http://h/"}}"#, "colour"),
        (#"{"kind": "data", "request": {}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "ftp://h/x"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "file:///etc/passwd"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "data:text/plain,hi"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "/relative"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "http://h/a b"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "http://[::1/"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "http://h:abc/"}}"#, "request.url"),
        (#"{"kind": "data", "request": {"url": "http://h/", "httpMethod": "GE T"}}"#, "request.httpMethod"),
        (#"{"kind": "data", "request": {"url": "http://h/", "httpMethod": ""}}"#, "request.httpMethod"),
        (
            #"{"kind": "data", "request": {"url": "http://h/", "allHTTPHeaderFields": {"X": "a\r\nB: c"}}}"#,
            "request.allHTTPHeaderFields.X"
        ),
        (
            #"{"kind": "data", "request": {"url": "http://h/", "allHTTPHeaderFields": {"Bad Name": "v"}}}"#,
            "request.allHTTPHeaderFields.Bad Name"
        ),
        (
            #"{"kind": "data", "request": {"url": "http://h/", "allHTTPHeaderFields": {"Accept": "a", "accept": "b"}}}"#,
            "request.allHTTPHeaderFields.accept"
        ),
        (
            #"{"kind": "data", "request": {"url": "http://h/", "allHTTPHeaderFields": {"X": 1}}}"#,
            "request.allHTTPHeaderFields.X"
        ),
        (#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {}}}"#, "request.httpBody"),
        (
            #"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"text": "a", "base64": "AA=="}}}"#,
            "request.httpBody"
        ),
        (#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"base64": "A A="}}}"#, "request.httpBody.base64"),
        (#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"base64": "AAE"}}}"#, "request.httpBody.base64"),
        (#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"xml": "<a/>"}}}"#, "request.httpBody.xml"),
        (#"{"kind": "data", "request": {"url": "http://h/", "timeoutInterval": 0}}"#, "request.timeoutInterval"),
        (#"{"kind": "data", "request": {"url": "http://h/", "timeoutInterval": 604801}}"#, "request.timeoutInterval"),
        (#"{"kind": "data", "request": {"url": "http://h/", "cachePolicy": "sometimes"}}"#, "request.cachePolicy"),
        (#"{"kind": "data", "request": {"url": "http://h/", "allowsCellularAccess": "yes"}}"#, "request.allowsCellularAccess"),
        (#"{"kind": "upload", "request": {"url": "http://h/"}}"#, "uploadSource"),
        (
            #"{"kind": "data", "request": {"url": "http://h/"}, "uploadSource": {"blob": "blb_0123456789ABCDEFGHIJKL"}}"#,
            "uploadSource"
        ),
        (#"{"kind": "upload", "request": {"url": "http://h/"}, "uploadSource": {}}"#, "uploadSource"),
        (#"{"kind": "upload", "request": {"url": "http://h/"}, "uploadSource": {"blob": "nope"}}"#, "uploadSource.blob"),
        (
            #"{"kind": "upload", "request": {"url": "http://h/"}, "uploadSource": {"data": {"base64": "!!!!"}}}"#,
            "uploadSource.data.base64"
        ),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "resumeData": "x"}"#, "resumeData"),
        (#"{"kind": "download", "request": {"url": "http://h/"}, "resumeData": "x"}"#, "request"),
        (#"{"kind": "download", "resumeData": ""}"#, "resumeData"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "priority": 1.5}"#, "priority"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "taskDescription": "a\u0000b"}"#, "taskDescription"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "priority": -0.1}"#, "priority"),
        (
            #"{"kind": "data", "request": {"url": "http://h/"}, "countOfBytesClientExpectsToSend": -2}"#,
            "countOfBytesClientExpectsToSend"
        ),
        (
            #"{"kind": "data", "request": {"url": "http://h/"}, "countOfBytesClientExpectsToReceive": 1.5}"#,
            "countOfBytesClientExpectsToReceive"
        ),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "earliestBeginDate": "tomorrow"}"#, "earliestBeginDate"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "expectedDigest": "sha-256=:AAAA:"}"#, "expectedDigest"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "expectedDigest": "md5=:AAAA:"}"#, "expectedDigest"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "completion": {}}"#, "completion.url"),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "completion": {"url": "mailto:a@b"}}"#, "completion.url"),
        (
            #"{"kind": "data", "request": {"url": "http://h/"}, "completion": {"url": "http://c/", "secret": "x"}}"#,
            "completion.secret"
        ),
        (#"{"kind": "data", "request": {"url": "http://h/"}, "resume": "true"}"#, "resume"),
    ])
    func invalidRequestsNameTheirField(json: String, field: String) {
        do {
            _ = try validate(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.field == field, "\(error)")
        }
    }

    /// `uploadTask(with:from:)` ignores the request's own body: the upload source is what is sent.
    @Test func anUploadsSourceOverridesTheRequestsBody() throws {
        let validated = try validate(
            #"{"kind": "upload", "request": {"url": "http://h/", "httpBody": {"text": "a"}}, "uploadSource": {"data": {"text": "b"}}}"#)
        #expect(validated.request?.httpBody == nil)
        #expect(validated.uploadBody != nil)
    }

    @Test func longValuesAreRefused() {
        let description = String(repeating: "d", count: 1025)
        #expect(throws: RequestDecodingError.invalidValue("taskDescription", "must be at most 1024 characters")) {
            try validate(#"{"kind": "data", "request": {"url": "http://h/"}, "taskDescription": "\#(description)"}"#)
        }
        let body = String(repeating: "a", count: HTTPBodyInput.maximumInlineSize + 1)
        do {
            _ = try validate(#"{"kind": "data", "request": {"url": "http://h/", "httpBody": {"text": "\#(body)"}}}"#)
            Issue.record("accepted an oversized inline body")
        } catch {
            #expect(error.field == "request.httpBody")
        }
    }

    /// Valid JSON, but two URLs for one request: the body is malformed, at the repetition.
    @Test func duplicateKeysAreMalformed() {
        let json = #"{"kind": "data", "request": {"url": "http://h/", "url": "http://other/"}}"#
        let detail = #"malformed JSON at line 1, column 50: duplicate key "url" in an object"#
        #expect(throws: RequestDecodingError(kind: .malformedJSON, field: nil, detail: detail)) { try validate(json) }
    }
}

extension TaskRequestTests {
    /// Nested so the suite runs under the `TaskRequestTests` filter too.
    @Suite("The task object and responses on the wire")
    struct Wire {
        private func json(_ value: some Encodable) throws -> String {
            String(decoding: try WireJSON.encode(value), as: UTF8.self)
        }

        /// A download: `URLSessionTask`'s properties and `URLSessionDownloadTask`'s, null when absent; no
        /// webSocket or stream property.
        @Test func taskObjectPinsURLSessionNamesWithExplicitNulls() throws {
            let task = TransferTask(
                id: "tsk_0000000000000000000000", sessionId: "ses_0000000000000000000000", taskIdentifier: 3,
                kind: .download, state: .completed, priority: 0.5, taskDescription: nil, earliestBeginDate: nil,
                originalRequest: URLRequestSnapshot(url: "https://o.example/f.bin"), currentRequest: nil, response: nil,
                countOfBytesSent: 0, countOfBytesExpectedToSend: 0, countOfBytesReceived: 10,
                countOfBytesExpectedToReceive: -1, progress: TaskProgress(fractionCompleted: 0),
                error: TransferError(.timedOut, failingURL: "https://o.example/f.bin"), location: nil,
                createdAt: Date(timeIntervalSince1970: 1_795_000_000.5), startedAt: nil, completedAt: nil)
            let expected = """
                {"completedAt":null,"countOfBytesExpectedToReceive":-1,"countOfBytesExpectedToSend":0,\
                "countOfBytesReceived":10,"countOfBytesSent":0,"createdAt":"2026-11-18T11:06:40.500Z",\
                "currentRequest":null,"earliestBeginDate":null,"error":{"code":-1001,"domain":"NSURLErrorDomain",\
                "localizedDescription":"The request timed out.","name":"timedOut",\
                "underlying":null,"userInfo":{"NSErrorFailingURLStringKey":"https://o.example/f.bin"}},\
                "id":"tsk_0000000000000000000000","kind":"download","location":null,\
                "originalRequest":{"allHTTPHeaderFields":{},"allowsCellularAccess":true,\
                "allowsConstrainedNetworkAccess":true,"allowsExpensiveNetworkAccess":true,\
                "cachePolicy":"useProtocolCachePolicy","httpMethod":"GET","httpShouldHandleCookies":true,\
                "timeoutInterval":60,"url":"https://o.example/f.bin"},"priority":0.5,\
                "progress":{"estimatedTimeRemaining":null,"fractionCompleted":0,"throughput":0},\
                "rateLimit":null,"response":null,"segments":null,"sessionId":"ses_0000000000000000000000","startedAt":null,"state":"completed",\
                "taskDescription":null,"taskIdentifier":3}
                """
            #expect(try json(task) == expected)
            let decoded = try StrictJSONDecoder().decode(TransferTask.self, from: Array(expected.utf8))
            #expect(decoded == task)
        }

        @Test func requestBodiesAreWrittenAsBase64AndReadBack() throws {
            let request = URLRequestSnapshot(url: "http://h/", httpMethod: "POST", httpBody: Data([0xFF, 0, 1]))
            let text = try json(request)
            #expect(text.contains(#""httpBody":{"base64":"/wAB"}"#))
            #expect(try StrictJSONDecoder().decode(URLRequestSnapshot.self, from: Array(text.utf8)) == request)
        }

        @Test func eventDataCarriesTheSummaryAndAnExplicitNullError() throws {
            let summary = TaskSummary(
                id: "tsk_0000000000000000000000", taskIdentifier: 1, kind: .data, state: .completed, taskDescription: nil)
            #expect(
                try json(TaskCompletedEventData(task: summary, error: nil)) == """
                    {"error":null,"task":{"id":"tsk_0000000000000000000000","kind":"data","state":"completed",\
                    "taskDescription":null,"taskIdentifier":1}}
                    """)
        }

        @Test func metricsWriteEveryPhaseEvenWhenItDidNotHappen() throws {
            var transaction = TaskTransactionMetrics(request: URLRequestSnapshot(url: "http://h/"))
            transaction.networkProtocolName = "http/1.1"
            let metrics = TaskMetrics(
                taskInterval: .init(start: Date(timeIntervalSince1970: 1_795_000_000.25), duration: 0.5), redirectCount: 0,
                transactionMetrics: [transaction])
            let text = try json(metrics)
            for name in ["domainLookupStartDate", "secureConnectionStartDate", "response", "localPort", "negotiatedTLSProtocolVersion"] {
                #expect(text.contains(#""\#(name)":null"#), "\(name) must be an explicit null")
            }
            #expect(text.contains(#""resourceFetchType":"networkLoad""#))
            #expect(text.contains(#""taskInterval":{"duration":0.5,"start":"2026-11-18T11:06:40.250Z"}"#))
            #expect(try StrictJSONDecoder().decode(TaskMetrics.self, from: Array(text.utf8)) == metrics)
        }

        @Test func responseDerivesItsPropertiesAsHTTPURLResponseDoes() {
            let response = HTTPResponseSnapshot(
                url: "https://o.example/dir/report%20final.csv?x=1", statusCode: 200,
                headerLines: [
                    ("Content-Type", #"Text/CSV; Charset="UTF-8""#), ("Content-Length", "1234"),
                    ("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("X-Trace", "t"),
                ])
            #expect(response.mimeType == "text/csv")
            #expect(response.textEncodingName == "utf-8")
            #expect(response.expectedContentLength == 1234)
            #expect(response.allHeaderFields["Set-Cookie"] == "a=1, b=2", "repeated fields join under the first spelling")
            #expect(response.allHeaderFields["set-cookie"] == nil)
            #expect(response.value(forHTTPHeaderField: "x-trace") == "t")
            #expect(response.suggestedFilename == "report final.csv")
        }

        @Test func headerLinesInAnyCaseDeriveTheSameProperties() {
            let response = HTTPResponseSnapshot(
                url: "https://o.example/x", statusCode: 200,
                headerLines: [
                    ("CONTENT-disposition", #"attachment; filename="a.txt""#), ("content-LENGTH", "7"),
                    ("content-type", "text/plain; charset=ISO-8859-1"), ("Content-Length", "7"),
                ])
            #expect(response.suggestedFilename == "a.txt")
            #expect(response.expectedContentLength == -1, "two Content-Length fields join into one that is not a number")
            #expect(response.allHeaderFields["content-LENGTH"] == "7, 7")
            #expect(response.mimeType == "text/plain" && response.textEncodingName == "iso-8859-1")
            #expect("Ünïcode-X".asciiLowercased == "ünïcode-x" && "X-Trace".asciiLowercased == "x-trace")
            #expect("A-Header-Name-Longer-Than-Fifteen-Bytes".asciiLowercased == "a-header-name-longer-than-fifteen-bytes")
            #expect("Content-TYPE".isEqualIgnoringASCIICase("content-type") && !"Content-Type".isEqualIgnoringASCIICase("content-typ"))
            #expect(!"X-Ü".isEqualIgnoringASCIICase("x-ü") && !"[".isEqualIgnoringASCIICase("{"), "only ASCII letters fold")
        }

        /// Distinct names (nothing to merge), few or many, with or without a non-ASCII one: the fields keep
        /// their spellings and the derived properties are those of the merged fields.
        @Test(arguments: [(0, false), (0, true), (40, false)])
        func distinctHeaderLinesKeepTheirSpellings(extraLines: Int, nonASCII: Bool) {
            let lines: [(name: String, value: String)] =
                [("CONTENT-Type", "Text/HTML; Charset=\"UTF-8\""), ("content-length", "12")]
                + (nonASCII ? [("X-Ünï", "1")] : []) + (0..<extraLines).map { ("X-Extra-\($0)", "\($0)") }
            let response = HTTPResponseSnapshot(url: "https://o.example/a/b.html", statusCode: 200, headerLines: lines)
            let merged = HTTPResponseSnapshot(
                url: "https://o.example/a/b.html", statusCode: 200,
                allHeaderFields: Dictionary(uniqueKeysWithValues: lines.map { ($0.name, $0.value) }))
            #expect(response == merged)
            #expect(response.allHeaderFields.count == lines.count && response.allHeaderFields["CONTENT-Type"] != nil)
            #expect(response.mimeType == "text/html" && response.textEncodingName == "utf-8")
            #expect(response.expectedContentLength == 12 && response.suggestedFilename == "b.html")
        }

        @Test(
            arguments: [
                (#"attachment; filename="export; 2026.zip""#, "https://h/download", "export; 2026.zip"),
                (#"attachment; filename*=UTF-8''na%C3%AFve.txt; filename="naive.txt""#, "https://h/d", "naïve.txt"),
                (#"attachment; filename="../../etc/passwd""#, "https://h/d", "passwd"),
                (#"attachment; filename="..""#, "https://h/file.bin", "file.bin"),
                ("inline", "https://h/a/b/c.json", "c.json"),
                (nil, "https://h.example/", "h.example"),
                (nil, "", "Unknown"),
                (nil, "https://h.example:8443/a/b/?q=1/x#f/y", "b"),
                (nil, "http://h.example:8080", "h.example"),
                (nil, "https://h/a/%E2%82%AC%20b.txt", "€ b.txt"),
                (nil, "https://user:pw@h.example/", "h.example"),
                (nil, "https://h/..", "h"),
            ] as [(String?, String, String)])
        func suggestedFilename(contentDisposition: String?, url: String, expected: String) {
            let headers = contentDisposition.map { ["Content-Disposition": $0] } ?? [:]
            let response = HTTPResponseSnapshot(url: url, statusCode: 200, allHeaderFields: headers)
            #expect(response.suggestedFilename == expected)
        }

        @Test func responseWithoutTypeOrLength() {
            let response = HTTPResponseSnapshot(
                url: "http://h/x", statusCode: 204, allHeaderFields: ["content-length": "12, 12", "Content-Type": ""])
            #expect(response.mimeType == nil && response.textEncodingName == nil)
            #expect(response.expectedContentLength == -1)
            let typed = HTTPResponseSnapshot(url: "http://h/x", statusCode: 200, allHeaderFields: ["content-type": "image/PNG"])
            #expect(typed.mimeType == "image/png" && typed.textEncodingName == nil)
        }

        @Test func stateTransitionsFollowURLSession() {
            #expect(TaskState.suspended.allowsTransition(to: .running))
            #expect(TaskState.running.allowsTransition(to: .suspended))
            #expect(TaskState.running.allowsTransition(to: .canceling))
            #expect(TaskState.suspended.allowsTransition(to: .canceling))
            #expect(!TaskState.canceling.allowsTransition(to: .running))
            #expect(!TaskState.running.allowsTransition(to: .completed), "completion is recorded, not requested")
            for next in TaskState.allCases { #expect(!TaskState.completed.allowsTransition(to: next)) }
        }

        @Test func progressFraction() {
            #expect(
                TaskProgress.fraction(
                    kind: .download, state: .running, succeeded: true, sent: 0, expectedToSend: 0, received: 25, expectedToReceive: 100)
                    == 0.25)
            #expect(
                TaskProgress.fraction(
                    kind: .upload, state: .running, succeeded: true, sent: 50, expectedToSend: 100, received: 0, expectedToReceive: -1)
                    == 0.5)
            #expect(
                TaskProgress.fraction(
                    kind: .data, state: .running, succeeded: true, sent: 0, expectedToSend: 0, received: 25, expectedToReceive: -1) == 0)
            #expect(
                TaskProgress.fraction(
                    kind: .data, state: .completed, succeeded: true, sent: 0, expectedToSend: 0, received: 25, expectedToReceive: -1) == 1)
            #expect(
                TaskProgress.fraction(
                    kind: .data, state: .completed, succeeded: false, sent: 0, expectedToSend: 0, received: 25, expectedToReceive: 100)
                    == 0.25)
        }
    }
}
