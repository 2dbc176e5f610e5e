import Foundation
import JSONCodec
import Testing
import TransferModels
import TransferStore

@testable import SessionTasks
@testable import TransferEngine

/// The delegate's questions alone: a question is an event queued for the delegate, and its answer —
/// or none, or a malformed one — is the disposition URLSession would act on.
@Suite("DelegateQuestions", .timeLimit(.minutes(1)))
struct DelegateQuestionsTests {
    /// A delegate that answers every event with `answer` (nil: it never answers in time).
    struct Delegate: DelegateDecisions {
        let answer: DelegateAnswer?
        func expectAnswer(toEvent eventId: String, session sessionId: String) -> ExpectedAnswer {
            ExpectedAnswer { [answer] _ in answer }
        }
        func take(_ answer: DelegateAnswer, toEvent eventId: String, session sessionId: String) -> Bool { false }
    }

    private func questions(_ fixture: ApplicationLayerFixture, answering answer: DelegateAnswer? = nil) -> DelegateQuestions {
        DelegateQuestions(
            writer: ReportWriter(store: fixture.store, waiters: CompletionWaiters(), node: nil, logger: fixture.logger) { _ in },
            decisions: Delegate(answer: answer), table: TaskTable(), store: fixture.store, files: fixture.files,
            credentials: fixture.storages.credentials, allowedSchemes: ["http", "https"], logger: fixture.logger)
    }

    private func active(_ fixture: ApplicationLayerFixture) async throws -> ActiveTask {
        let session = try await fixture.session(#"{"configuration": {"httpAdditionalHeaders": {"X-Session": "s"}}}"#)
        let task = try await fixture.task(#"{"kind": "data", "request": {"url": "https://o.example/a"}}"#, in: session)
        return ActiveTask(record: task, session: session, started: Date(), partialPath: nil, number: 1)
    }

    private func challenge(_ method: AuthenticationChallenge.Method) -> AuthenticationChallenge {
        AuthenticationChallenge(
            method: method, realm: "r", host: "o.example", port: 443, protocol: "https", previousFailureCount: 0,
            failureResponse: nil, request: OutgoingRequest(url: "https://o.example/a", method: "GET"))
    }

    // MARK: Redirects

    @Test func aRedirectFollowsTheProposalUnlessTheDelegateRejectsOrGivesItsOwn() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let task = try await active(fixture)
        let questions = questions(fixture)
        let proposed = OutgoingRequest(url: "https://o.example/b", method: "GET")
        guard case .follow(let silent) = questions.redirectDisposition(nil, proposed: proposed, task: task) else {
            Issue.record("no answer should follow")
            return
        }
        #expect(silent.url == "https://o.example/b")
        guard case .reject = questions.redirectDisposition(DelegateAnswer(disposition: "reject"), proposed: proposed, task: task) else {
            Issue.record("reject should reject")
            return
        }
        var own = URLRequestInput()
        own.url = "https://other.example/c"
        own.allHTTPHeaderFields = ["X-Own": "1"]
        let answer = DelegateAnswer(disposition: "follow", request: own)
        guard case .follow(let theirs) = questions.redirectDisposition(answer, proposed: proposed, task: task) else {
            Issue.record("follow with a request should follow it")
            return
        }
        #expect(theirs.url == "https://other.example/c")
        // The session's additional headers go under the delegate's own, as on any request of the session.
        #expect(theirs.headers.map(\.name) == ["X-Own", "X-Session"])
    }

    @Test func aRedirectToAnotherSchemeThanHTTPFollowsTheProposalInstead() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let task = try await active(fixture)
        var own = URLRequestInput()
        own.url = "file:///etc/passwd"
        let proposed = OutgoingRequest(url: "https://o.example/b", method: "GET")
        let disposition = questions(fixture).redirectDisposition(
            DelegateAnswer(disposition: "follow", request: own), proposed: proposed, task: task)
        guard case .follow(let request) = disposition else {
            Issue.record("an invalid request should follow the proposal")
            return
        }
        #expect(request.url == "https://o.example/b")
    }

    @Test func aRedirectQuestionNobodyAsksFollowsAtOnceWithoutAnEvent() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let questions = questions(fixture, answering: DelegateAnswer(disposition: "reject"))
        let followed = LockedBox<RedirectDisposition?>(nil)
        questions.redirect(
            TransferID(taskId: "task_unknown", attempt: 1), response: ResponseHead(),
            to: OutgoingRequest(url: "https://o.example/b", method: "GET")
        ) { disposition in followed.withLock { $0 = disposition } }
        guard case .follow(let request)? = followed.withLock({ $0 }) else {
            Issue.record("a transfer with no attempt here should follow at once")
            return
        }
        #expect(request.url == "https://o.example/b")
        #expect(questions.writer.queue { $0.events.isEmpty })
    }

    // MARK: Challenges

    @Test func aChallengeAnswerMustFitTheChallengesMethod() {
        let password = DelegateAnswer(disposition: "useCredential", credential: CredentialAnswer(user: "u", password: "p"))
        guard
            case .useCredential(.password(let user, let secret)) = DelegateQuestions.challengeDisposition(password, for: challenge(.basic))
        else {
            Issue.record("a password should answer Basic")
            return
        }
        #expect(user == "u" && secret == "p")
        // A password does not answer a server-trust challenge: the system's evaluation applies.
        guard case .performDefaultHandling = DelegateQuestions.challengeDisposition(password, for: challenge(.serverTrust)) else {
            Issue.record("a password should not answer server trust")
            return
        }
        // A NUL cannot reach libcurl (C strings) nor the store: such a credential is no answer.
        for (user, secret) in [("u\u{0}v", "p"), ("u", "p\u{0}")] {
            let withNUL = DelegateAnswer(disposition: "useCredential", credential: CredentialAnswer(user: user, password: secret))
            guard case .performDefaultHandling = DelegateQuestions.challengeDisposition(withNUL, for: challenge(.basic)) else {
                Issue.record("a credential holding NUL should be the default handling")
                return
            }
        }
        let trust = DelegateAnswer(disposition: "useCredential", credential: CredentialAnswer(serverTrust: true))
        guard case .useCredential(.serverTrust) = DelegateQuestions.challengeDisposition(trust, for: challenge(.serverTrust)) else {
            Issue.record("serverTrust: true should accept the chain")
            return
        }
    }

    @Test(arguments: [
        ("cancelAuthenticationChallenge", "cancel"), ("rejectProtectionSpace", "reject"), ("performDefaultHandling", "default"),
        ("somethingElse", "default"),
    ])
    func aChallengeDispositionIsWhatItSays(disposition: String, expected: String) {
        let answer = DelegateAnswer(disposition: disposition)
        let got =
            switch DelegateQuestions.challengeDisposition(answer, for: challenge(.digest)) {
            case .cancelAuthenticationChallenge: "cancel"
            case .rejectProtectionSpace: "reject"
            case .performDefaultHandling: "default"
            case .useCredential: "use"
            }
        #expect(got == expected)
    }

    @Test func aChallengeAnswerCarryingAFieldItDoesNotTakeIsTheDefaultHandling() {
        var own = URLRequestInput()
        own.url = "https://o.example/"
        let answer = DelegateAnswer(disposition: "cancelAuthenticationChallenge", request: own)
        guard case .performDefaultHandling = DelegateQuestions.challengeDisposition(answer, for: challenge(.basic)) else {
            Issue.record("a malformed answer should be the default handling")
            return
        }
    }

    // MARK: Delayed requests and caching

    @Test func aDelayedRequestContinuesUnlessCancelledOrReplacedByAValidRequest() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let task = try await active(fixture)
        let questions = questions(fixture)
        guard case .continueLoading = questions.delayedDisposition(nil, task: task) else {
            Issue.record("no answer should continue")
            return
        }
        guard case .cancel = questions.delayedDisposition(DelegateAnswer(disposition: "cancel"), task: task) else {
            Issue.record("cancel should cancel")
            return
        }
        var invalid = URLRequestInput()
        invalid.url = "gopher://o.example/"
        guard
            case .continueLoading = questions.delayedDisposition(DelegateAnswer(disposition: "useNewRequest", request: invalid), task: task)
        else {
            Issue.record("a request in a scheme not allowed should continue with the task's own")
            return
        }
        var replacement = URLRequestInput()
        replacement.url = "https://o.example/new"
        guard
            case .useNewRequest(let snapshot) = questions.delayedDisposition(
                DelegateAnswer(disposition: "useNewRequest", request: replacement), task: task)
        else {
            Issue.record("a valid request should replace the task's")
            return
        }
        #expect(snapshot.url == "https://o.example/new")
    }

    @Test func aCachingAnswerNarrowsThePolicyAndCarriesItsUserInfo() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let questions = questions(fixture)
        #expect(questions.cacheDisposition(nil, proposed: .allowed) == (.allowed, nil))
        #expect(questions.cacheDisposition(DelegateAnswer(disposition: "notAllowed"), proposed: .allowed).0 == .notAllowed)
        // `allowed` stores what was proposed: a response that fits no disk stays in memory.
        #expect(
            questions.cacheDisposition(DelegateAnswer(disposition: "allowed"), proposed: .allowedInMemoryOnly).0 == .allowedInMemoryOnly)
        let kept = questions.cacheDisposition(
            DelegateAnswer(disposition: "allowedInMemoryOnly", userInfo: .string("mine")), proposed: .allowed)
        #expect(kept.0 == .allowedInMemoryOnly && kept.1 == .string("mine"))
        #expect(questions.cacheDisposition(DelegateAnswer(disposition: "keepIt"), proposed: .allowed).0 == .allowed)
    }

    // MARK: Asking

    @Test func aQuestionIsAnEventForTheDelegateAndItsAnswerComesBack() async throws {
        let fixture = try ApplicationLayerFixture()
        defer { fixture.close() }
        let task = try await active(fixture)
        let questions = questions(fixture, answering: DelegateAnswer(disposition: "cancel"))
        let answer = await questions.ask(
            task.event { .willBeginDelayedRequest($0, request: task.record.originalRequest!) }, timeout: .seconds(1))
        #expect(answer?.disposition == "cancel")
        let queued = questions.writer.queue { $0.events }
        #expect(queued.count == 1 && queued.first?.id != nil)
    }
}
