import Foundation
import JSONCodec
import Testing
import TransferModels

/// A delegate without `url` (in the client), and answers given through the API.
@Suite("Delegates in the client and API answers")
struct ClientDelegateModelTests {
    private func validate(_ json: String) throws(RequestDecodingError) -> ValidatedSessionRequest {
        try StrictJSONDecoder().decode(SessionCreateRequest.self, from: Array(json.utf8)).validated()
    }

    @Test func aDelegateWithoutURLIsInTheClient() throws {
        for json in [#"{"delegate": {}}"#, #"{"delegate": {"url": null, "decisions": ["dataTask.didReceiveResponse"]}}"#] {
            let request = try validate(json)
            let delegate = try #require(request.delegate)
            #expect(delegate.url == nil && !delegate.isWebhook)
            #expect(request.clientSecret == nil)
        }
    }

    @Test func itsURLIsWrittenAsNullAndOldRowsStillRead() throws {
        let delegate = DelegateConfiguration(url: nil, events: ["*"], decisions: [], decisionTimeout: 10, progressInterval: 0.5)
        let json = String(decoding: try JSONEncoder().encode(delegate), as: UTF8.self)
        #expect(json.contains(#""url":null"#), "the store's backlog scan leaves such rows out by it: \(json)")
        #expect(try JSONDecoder().decode(DelegateConfiguration.self, from: Data(json.utf8)) == delegate)
        let stored = #"{"url":"https://h/x","events":["*"],"decisions":[],"decisionTimeout":10,"progressInterval":0.5}"#
        let old = try JSONDecoder().decode(DelegateConfiguration.self, from: Data(stored.utf8))
        #expect(old.url == "https://h/x" && old.isWebhook)
    }

    @Test func aPatchMovesTheDelegateIntoTheClientAndBack() throws {
        let webhook = DelegateConfiguration(
            url: "https://h/x", events: ["task.didCompleteWithError"], decisions: [.taskWillPerformHTTPRedirection], decisionTimeout: 5,
            progressInterval: 1)
        func patch(_ json: String, _ current: DelegateConfiguration?) throws -> SessionUpdate {
            try StrictJSONDecoder().decode(SessionUpdateRequest.self, from: Array(json.utf8)).validated(current: current)
        }
        guard case .replaced(let client, let secret) = try patch(#"{"delegate": {"url": null}}"#, webhook).delegate else {
            Issue.record("not replaced")
            return
        }
        #expect(client.url == nil && secret == nil)
        #expect(client.events == webhook.events && client.decisions == webhook.decisions && client.decisionTimeout == 5)
        guard case .replaced(let back, _) = try patch(#"{"delegate": {"url": "https://h/y"}}"#, client).delegate else {
            Issue.record("not replaced")
            return
        }
        #expect(back.url == "https://h/y" && back.decisions == webhook.decisions)
        guard case .replaced(let made, _) = try patch(#"{"delegate": {"progressInterval": 2}}"#, nil).delegate else {
            Issue.record("not replaced")
            return
        }
        #expect(made.url == nil && made.progressInterval == 2, "a session without a delegate gets one in the client")
        #expect(throws: RequestDecodingError.self) {
            try patch(#"{"delegate": {"url": null, "secret": "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}}"#, webhook)
        }
    }

    @Test(arguments: [
        (#"{"disposition": "maybe"}"#, "disposition"),
        (#"{"disposition": "reject", "credential": {"user": "a"}}"#, "credential"),
        (#"{"disposition": "useNewRequest"}"#, "request"),
        (#"{"disposition": "allow", "request": {"url": "https://h/"}}"#, "request"),
        (#"{"disposition": "cancel", "userInfo": {"a": 1}}"#, "userInfo"),
    ])
    func anAPIAnswerNamesWhatItCannotCarry(json: String, field: String) throws {
        let answer = try StrictJSONDecoder().decode(DelegateAnswer.self, from: Array(json.utf8))
        #expect {
            _ = try answer.validated()
        } throws: { error in
            (error as? RequestDecodingError)?.field == field
        }
    }

    @Test func everyDispositionAQuestionTakesIsAccepted() throws {
        for disposition in DelegateAnswer.dispositions where disposition != "useNewRequest" {
            #expect(try DelegateAnswer(disposition: disposition).validated().disposition == disposition)
        }
        let useNew = DelegateAnswer(disposition: "useNewRequest", request: URLRequestInput(url: "https://h/"))
        #expect(try useNew.validated() == useNew)
    }
}
