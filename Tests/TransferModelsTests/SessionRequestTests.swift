import Foundation
import JSONCodec
import Testing
import TransferModels

@Suite("Session create requests and the session object on the wire")
struct SessionRequestTests {
    private func validate(_ json: String) throws(RequestDecodingError) -> ValidatedSessionRequest {
        try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
    }

    @Test func delegateDefaults() throws {
        let request = try validate(#"{"delegate": {"url": "https://consumer.example/hooks"}}"#)
        let delegate = try #require(request.delegate)
        #expect(delegate.events == ["*"])
        #expect(delegate.decisions.isEmpty)
        #expect(delegate.decisionTimeout == 10)
        #expect(delegate.progressInterval == 0.5)
        #expect(delegate.progressStep == 0.05)
        #expect(request.clientSecret == nil)
    }

    @Test func clientSecretIsKept() throws {
        let secret = WebhookSecret.generate()
        let request = try validate(#"{"delegate": {"url": "http://h/x", "secret": "\#(secret)"}}"#)
        #expect(request.clientSecret == secret)
        #expect(WebhookSecret.keyBytes(secret)?.count == 32)
    }

    @Test(arguments: [
        (#"{"delegate": {"secret": "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}"#, "delegate.secret"),
        (#"{"delegate": {"url": "ftp://h/x"}}"#, "delegate.url"),
        (#"{"delegate": {"url": "http:///x"}}"#, "delegate.url"),
        (#"{"delegate": {"url": "http://h/x", "secret": "nope"}}"#, "delegate.secret"),
        (#"{"delegate": {"url": "http://h/x", "events": ["*", "task.nope"]}}"#, "delegate.events[1]"),
        (#"{"delegate": {"url": "http://h/x", "decisions": ["task.didCompleteWithError"]}}"#, "delegate.decisions[0]"),
        (#"{"delegate": {"url": "http://h/x", "decisionTimeout": 0}}"#, "delegate.decisionTimeout"),
        (#"{"delegate": {"url": "http://h/x", "progressInterval": -1}}"#, "delegate.progressInterval"),
        (#"{"delegate": {"url": "http://h/x", "progressStep": 1.5}}"#, "delegate.progressStep"),
        (#"{"delegate": {"url": "http://h/x", "colour": 1}}"#, "delegate.colour"),
        (#"{"configuration": {"kind": "weird"}}"#, "configuration.kind"),
        (#"{"sessionDescription": "nightly\u0000"}"#, "sessionDescription"),
    ])
    func invalidRequestsNameTheirField(json: String, field: String) {
        do {
            _ = try validate(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func sessionObjectPinsURLSessionNames() throws {
        let session = TransferSession(
            id: "ses_0000000000000000000000", configuration: SessionConfiguration(kind: .ephemeral), delegate: nil,
            sessionDescription: nil, state: .valid, createdAt: Date(timeIntervalSince1970: 1_795_000_000.5))
        let text = String(decoding: try WireJSON.encode(session), as: UTF8.self)
        #expect(text.hasPrefix(#"{"configuration":{"allowsCellularAccess":true,"allowsConstrainedNetworkAccess":true,"#))
        #expect(text.contains(#""createdAt":"2026-11-18T11:06:40.500Z""#))
        #expect(text.contains(#""delegate":null"#))
        #expect(text.contains(#""sessionDescription":null"#))
        #expect(text.contains(#""state":"valid""#))
        #expect(text.contains(#""httpCookieStorage":"private""#))
    }

    @Test func resourceIDsAreWellFormedAndDistinct() {
        let ids = (0..<1000).map { _ in ResourceID.make(prefix: "ses") }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { ResourceID.isWellFormed($0, prefix: "ses") })
        #expect(!ResourceID.isWellFormed("ses_short", prefix: "ses"))
        #expect(!ResourceID.isWellFormed(ids[0], prefix: "blb"))
    }

    @Test func resourceIDsSortByCreationTimeAndStayRandomWithinAMillisecond() {
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        // Every id of a millisecond sorts before every id of the next one, whatever their random bits.
        let batches = (0..<50).map { millisecond in
            (0..<20).map { _ in ResourceID.make(prefix: "tsk", now: start.addingTimeInterval(Double(millisecond) / 1000)) }
        }
        for (earlier, later) in zip(batches, batches.dropFirst()) {
            #expect(earlier.max()! < later.min()!)
        }
        let same = (0..<1000).map { _ in ResourceID.make(prefix: "tsk", now: start) }
        #expect(Set(same).count == same.count)
    }

    @Test func everyDecisionEventIsADelegateMethodName() {
        let decisions = TaskEventType.allCases.filter(\.isDecision).map(\.rawValue)
        #expect(
            decisions.sorted() == [
                "dataTask.didReceiveResponse", "dataTask.willCacheResponse", "session.didReceiveChallenge",
                "task.didReceiveChallenge", "task.willBeginDelayedRequest", "task.willPerformHTTPRedirection",
            ])
    }
}

@Suite("Timestamps")
struct TimestampTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (1_795_000_000.5, "2026-11-18T11:06:40.500Z"),
        (951_782_400.007, "2000-02-29T00:00:00.007Z"), (-1.0, "1969-12-31T23:59:59.000Z"),
        (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
    ])
    func formatsRFC3339WithMilliseconds(seconds: Double, expected: String) {
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func nowSurvivesATripThroughMillisecondText() {
        for _ in 0..<1000 {
            let now = Date.nowMilliseconds
            let text = WireJSON.formatTimestamp(now)
            let readBack = Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
            #expect(WireJSON.formatTimestamp(readBack) == text)
        }
    }
}
