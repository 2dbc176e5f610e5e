import EventDelivery
import Foundation
import Testing
import TransferModels

/// `DecisionWaiters` as the task layer and the API use it: a waiter registered before its event is
/// written, answers given through the API checked against the event's session, the first answer winning.
@Suite("Decision waiters")
struct DecisionWaitersTests {
    static let reject = DelegateAnswer(disposition: "reject")

    @Test(.timeLimit(.minutes(1)))
    func anAnswerThroughTheAPIReachesOnlyTheWaiterOfItsSession() async {
        let waiters = DecisionWaiters()
        let expected = waiters.expectAnswer(toEvent: "evt_a", session: "ses_a")
        #expect(!waiters.take(Self.reject, toEvent: "evt_a", session: "ses_b"), "another session's event")
        #expect(!waiters.take(Self.reject, toEvent: "evt_b", session: "ses_a"), "an event nobody waits for")
        #expect(waiters.take(Self.reject, toEvent: "evt_a", session: "ses_a"))
        #expect(!waiters.take(DelegateAnswer(disposition: "follow"), toEvent: "evt_a", session: "ses_a"), "the first answer wins")
        #expect(await expected.answer(within: .seconds(5)) == Self.reject)
    }

    @Test(.timeLimit(.minutes(1)))
    func anAnswerAfterTheTimeoutIsNotTaken() async {
        let waiters = DecisionWaiters()
        let expected = waiters.expectAnswer(toEvent: "evt_a", session: "ses_a")
        #expect(await expected.answer(within: .milliseconds(50)) == nil)
        #expect(!waiters.take(Self.reject, toEvent: "evt_a", session: "ses_a"))
    }

    /// The waiter exists from registration, before anyone waits on it: an answer in between is kept.
    @Test(.timeLimit(.minutes(1)))
    func anAnswerBeforeTheWaitIsKept() async {
        let waiters = DecisionWaiters()
        let expected = waiters.expectAnswer(toEvent: "evt_a", session: "ses_a")
        #expect(waiters.take(Self.reject, toEvent: "evt_a", session: "ses_a"))
        #expect(await expected.answer(within: .seconds(5)) == Self.reject)
    }

    /// An answer through the API is never parked for a waiter to come: it is refused at once.
    @Test(.timeLimit(.minutes(1)))
    func anAnswerForAnUnknownEventIsNotParked() async {
        let waiters = DecisionWaiters()
        #expect(!waiters.take(Self.reject, toEvent: "evt_a", session: "ses_a"))
        let expected = waiters.expectAnswer(toEvent: "evt_a", session: "ses_a")
        #expect(await expected.answer(within: .milliseconds(50)) == nil)
    }

    /// A webhook's answer that is not one, received by another node and sent on to this one: the wait ends
    /// at once with the default handling (nil), for the event's own session only.
    @Test(.timeLimit(.minutes(1)))
    func aDeclineEndsTheWaitWithTheDefaultHandling() async {
        let waiters = DecisionWaiters()
        let expected = waiters.expectAnswer(toEvent: "evt_a", session: "ses_a")
        #expect(!waiters.decline(event: "evt_a", session: "ses_b"), "another session's event")
        #expect(waiters.decline(event: "evt_a", session: "ses_a"))
        #expect(!waiters.take(Self.reject, toEvent: "evt_a", session: "ses_a"), "the wait is over")
        let started = ContinuousClock.now
        #expect(await expected.answer(within: .seconds(30)) == nil)
        #expect(ContinuousClock.now - started < .seconds(10), "at once, not at the timeout")
    }
}
