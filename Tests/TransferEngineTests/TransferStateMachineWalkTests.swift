import Curl
import Testing
import TransferModels

@testable import TransferEngine

/// The walks the engine's features take through a transfer's state machine, input by input, as libcurl
/// and a delegate would drive them — without a socket.
@Suite("TransferStateMachine walks")
struct TransferStateMachineWalkTests {
    typealias Machine = TransferStateMachine
    typealias Input = TransferStateMachine.Input
    typealias Facts = TransferStateMachine.ResponseFacts

    let next = TransferStateMachineTests.next
    let basic = TransferStateMachineTests.basic
    let serverTrust = TransferStateMachineTests.serverTrust

    /// Feeds `input` and returns the actions' names.
    private func feed(_ machine: inout Machine, _ input: Input) -> String {
        machine.handle(input).names
    }

    // MARK: Redirects

    @Test func aRedirectIsFollowedByURLSessionsRulesWithoutADelegate() {
        var machine = Machine()
        #expect(feed(&machine, .headComplete(Facts(status: 302, redirect: next))) == "storeCookies")
        #expect(machine.routeBody() == .drop)  // the redirect's body is not kept
        #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, follow(https://o/b)")
        #expect(machine.redirects == 1)
        #expect(feed(&machine, .requestPrepared) == "—")
        #expect(feed(&machine, .headComplete(Facts(status: 200))) == "storeCookies, deliverResponse, beginSegmentsIfPossible")
    }

    @Test func theSeventeenthRedirectFailsWithTooManyRedirects() {
        var machine = Machine()
        for _ in 1...RedirectPolicy.maximumRedirects {
            _ = machine.handle(.headComplete(Facts(status: 302, redirect: next)))
            #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, follow(https://o/b)")
            _ = machine.handle(.requestPrepared)
        }
        _ = machine.handle(.headComplete(Facts(status: 302, redirect: next)))
        #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, fail(-1007)")
        #expect(machine.state.name == "finished")
    }

    @Test func aFailedRedirectResponseFailsRatherThanFollows() {
        var machine = Machine()
        _ = machine.handle(.headComplete(Facts(status: 302, redirect: next)))
        #expect(feed(&machine, .requestEnded(.couldNotConnect)) == "recordTransaction, failRequest(7)")
        #expect(machine.redirects == 0)
    }

    @Test func aDelegateDecidesAboutARedirectOnceAndALateAnswerIsIgnored() {
        var machine = Machine(decidesRedirects: true)
        _ = machine.handle(.headComplete(Facts(status: 302, redirect: next)))
        #expect(machine.routeBody() == .keep)  // the 3xx's body is the answer if the delegate rejects it
        #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, askAboutRedirect(https://o/b)")
        #expect(machine.isWaiting)
        #expect(feed(&machine, .redirectDecided(.reject)) == "deliverResponse, finishBody")
        #expect(feed(&machine, .redirectDecided(.follow(next))) == "—")
    }

    @Test func aFollowedDecidedRedirectDropsTheBodyKeptWhileTheDelegateDecided() {
        var machine = Machine(decidesRedirects: true)
        _ = machine.handle(.headComplete(Facts(status: 302, redirect: next)))
        _ = machine.handle(.requestEnded(.ok))
        #expect(feed(&machine, .redirectDecided(.follow(next))) == "discardBody, follow(https://o/b)")
    }

    // MARK: Challenges

    @Test func aChallengeWithoutADelegateIsAnsweredByTheDefaultHandlingWhenTheRequestEnds() {
        var machine = Machine()
        _ = machine.handle(.headComplete(Facts(status: 401, challenge: basic)))
        #expect(machine.routeBody() == .keep)  // the 401's body is the response if no credential is given
        #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, resolveByDefault(HTTPBasic)")
        // The request goes again with the credential; the 200 that answers it is the response.
        _ = machine.handle(.requestPrepared)
        #expect(feed(&machine, .headComplete(Facts(status: 200))) == "storeCookies, deliverResponse, beginSegmentsIfPossible")
    }

    @Test func aDelegateAnswersAChallengeAndTheNextOfferIsAskedInTurn() {
        var machine = Machine(decidesChallenges: true)
        _ = machine.handle(.headComplete(Facts(status: 401, challenge: basic)))
        #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, askAboutChallenge(HTTPBasic)")
        #expect(feed(&machine, .challengeDecided(.rejectProtectionSpace)) == "resolve(HTTPBasic, rejectProtectionSpace)")
        // The transfer found another method offered: it is asked about too.
        #expect(feed(&machine, .challengeRaised(basic)) == "askAboutChallenge(HTTPBasic)")
        #expect(feed(&machine, .challengeDecided(.cancelAuthenticationChallenge)) == "resolve(HTTPBasic, cancel)")
        #expect(feed(&machine, .challengeDecided(.performDefaultHandling)) == "—")  // answered already
    }

    @Test func aConnectionStoppedForATLSQuestionAsksItWhenLibcurlReportsTheEnd() {
        var machine = Machine(decidesChallenges: true)
        #expect(feed(&machine, .connectionStopped(.challenge(serverTrust))) == "—")
        // libcurl ends the request with the callback's refusal; no transaction: nothing was sent.
        #expect(feed(&machine, .requestEnded(CurlResult(code: 35))) == "askAboutChallenge(ServerTrust)")
        var refused = Machine()
        _ = refused.handle(.connectionStopped(.failure(TransferStateMachineTests.untrusted)))
        #expect(feed(&refused, .requestEnded(CurlResult(code: 35))) == "fail(-1202)")
    }

    @Test func aFailedHandshakeMayStillRaiseAClientCertificateChallenge() {
        var machine = Machine(decidesChallenges: true)
        #expect(feed(&machine, .requestEnded(CurlResult(code: 56))) == "recordTransaction, failRequest(56)")
        #expect(feed(&machine, .challengeRaised(serverTrust)) == "askAboutChallenge(ServerTrust)")
    }

    // MARK: The cache: 304 merges and hits

    @Test func a304ToTheJobsValidationDeliversTheStoredResponseMerged() {
        var machine = Machine(hasConditionalRequest: true)
        #expect(machine.validatesStoredResponse)
        #expect(feed(&machine, .headComplete(Facts(status: 304))) == "storeCookies, deliverNotModified")
        #expect(feed(&machine, .requestEnded(.ok)) == "recordTransaction, readStoredBody, finishBody")
    }

    @Test func a304AfterARedirectIsNotAValidationOfTheStoredResponse() {
        var machine = Machine(hasConditionalRequest: true)
        _ = machine.handle(.headComplete(Facts(status: 301, redirect: next)))
        _ = machine.handle(.requestEnded(.ok))
        _ = machine.handle(.requestPrepared)
        #expect(!machine.validatesStoredResponse)
        #expect(feed(&machine, .headComplete(Facts(status: 304))) == "storeCookies, deliverResponse, beginSegmentsIfPossible")
    }

    @Test func aCacheHitEndsAtOnceOrWaitsForTheResponseDecision() {
        var machine = Machine()
        #expect(feed(&machine, .storedResponseServed) == "deliverResponse, recordTransaction, readStoredBody, finishBody")
        var deciding = Machine(decidesResponse: true)
        #expect(feed(&deciding, .storedResponseServed) == "deliverResponse, askAboutResponse")
        #expect(feed(&deciding, .responseDecided(.allow)) == "recordTransaction, readStoredBody, finishBody")
    }

    // MARK: Resume

    @Test func aResumedDownloadsFinalResponseSettlesIt() {
        var machine = Machine(resuming: true)
        #expect(machine.isResuming)
        // A challenge's 401 is not the final response: the bytes kept are still wanted.
        _ = machine.handle(.headComplete(Facts(status: 401, challenge: basic)))
        #expect(machine.isResuming)
        _ = machine.handle(.requestPrepared)
        #expect(feed(&machine, .headComplete(Facts(status: 206))) == "storeCookies, deliverResponse, beginSegmentsIfPossible, settleResume")
        #expect(!machine.isResuming)
    }

    @Test func startingAgainFromZeroSettlesAResumeAndDropsTheRange() {
        var machine = Machine(resuming: true)
        _ = machine.handle(.rangeAssigned(0..<10))
        _ = machine.handle(.startedAgainFromZero)
        #expect(!machine.isResuming)
        #expect(machine.range == nil)
    }

    // MARK: Segments

    @Test func aRangeCutAtItsPartsEndCompletes() {
        var machine = Machine()
        _ = machine.handle(.rangeAssigned(0..<100))
        _ = machine.handle(.requestPrepared)
        #expect(!machine.validatesStoredResponse)
        #expect(feed(&machine, .headComplete(Facts(status: 206, rangeAnswer: .accepted))) == "storeCookies")
        #expect(machine.routeBody() == .keep)
        _ = machine.handle(.cutAtPartEnd)
        #expect(feed(&machine, .segmentRequestEnded(.writeError)) == "segmentEnded(completed)")
    }

    @Test(arguments: [
        (SegmentAnswer.validatorChanged, "segmentEnded(validatorChanged)"),
        (.unexpected(status: 416), "segmentEnded(unexpected 416)"),
    ])
    func aRangeAnsweredOtherwiseRefusesItsBodyAndSaysWhy(answer: SegmentAnswer, end: String) {
        var machine = Machine()
        _ = machine.handle(.rangeAssigned(0..<100))
        _ = machine.handle(.requestPrepared)
        _ = machine.handle(.headComplete(Facts(status: 200, rangeAnswer: answer)))
        #expect(machine.routeBody() == .refuse)
        #expect(feed(&machine, .segmentRequestEnded(.writeError)) == end)
    }

    @Test func aResumedSegmentedDownloadsFirstRangeIsItsResponse() {
        var machine = Machine()
        _ = machine.handle(.rangeAssigned(500..<600))
        let facts = Facts(status: 206, rangeAnswer: .accepted, isFirstAnswerOfResumedSegments: true)
        #expect(feed(&machine, .headComplete(facts)) == "storeCookies, resumeSegments")
    }

    @Test func aParkedPrimaryPausesAndTakesTheNextRange() {
        var machine = Machine()
        _ = machine.handle(.parked)
        #expect(machine.isParked && machine.isWaiting)
        _ = machine.handle(.rangeAssigned(100..<200))
        _ = machine.handle(.requestPrepared)
        #expect(!machine.isWaiting)
        #expect(machine.range == 100..<200)
    }

    @Test func aFailedRangeRequestFailsItsConnection() {
        var machine = Machine()
        _ = machine.handle(.rangeAssigned(0..<100))
        _ = machine.handle(.requestPrepared)
        #expect(feed(&machine, .segmentRequestEnded(.couldNotConnect)) == "segmentEnded(failed 7)")
    }

    // MARK: Multipart parts and the response decision

    @Test func eachPartIsAskedAboutAndAnEndThatCameMeanwhileWaitsForTheAnswers() {
        var machine = Machine(decidesResponse: true)
        #expect(feed(&machine, .headComplete(Facts(status: 200, isMultipart: true))) == "storeCookies, beginMultipart")
        #expect(feed(&machine, .partBegan) == "askAboutResponse")
        #expect(machine.routeBody() == .pause)
        #expect(feed(&machine, .requestEnded(.ok)) == "—")  // kept for after the answer
        #expect(feed(&machine, .responseDecided(.allow)) == "deliverHeldParts")
        // A held part is asked about in turn; the end still waits.
        #expect(feed(&machine, .partBegan) == "askAboutResponse")
        #expect(feed(&machine, .heldPartsDelivered) == "—")
        #expect(feed(&machine, .responseDecided(.allow)) == "deliverHeldParts")
        #expect(feed(&machine, .heldPartsDelivered) == "recordTransaction, finishMultipart, finishBody")
    }

    @Test func afterBecomingADownloadLaterPartsAreNotAskedAbout() {
        var machine = Machine(decidesResponse: true)
        _ = machine.handle(.headComplete(Facts(status: 200, isMultipart: true)))
        _ = machine.handle(.partBegan)
        #expect(feed(&machine, .responseDecided(.becomeDownload(path: "/d"))) == "becomeDownload(/d), deliverHeldParts")
        #expect(feed(&machine, .partBegan) == "—")
        #expect(feed(&machine, .heldPartsDelivered) == "unpause")
        #expect(machine.becameDownload)
    }

    @Test func aBodyRefusedForItsSizeIsRememberedForTheError() {
        var machine = Machine()
        _ = machine.handle(.headComplete(Facts(status: 200)))
        _ = machine.handle(.bodyRefused(.tooLarge))
        #expect(feed(&machine, .requestEnded(.writeError)) == "recordTransaction, failRequest(23)")
        #expect(machine.refusal == .tooLarge)
    }
}
