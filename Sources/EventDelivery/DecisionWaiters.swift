import Foundation
import JSONCodec
public import TransferModels

/// The delegate's answer to a decision event (API.md "Decision events").
public enum DecisionAnswer: Sendable, Equatable {
    /// A webhook's 2xx answer with its body; the waiter parses it (a malformed one means default handling).
    case answered([UInt8])
    /// An answer given through the API (`POST /v1/sessions/{id}/events/{eventId}/answer`), parsed there.
    case given(DelegateAnswer)
    /// A non-2xx answer, a transport failure, the timeout, or shutdown: default handling.
    case noAnswer
}

/// Transfers waiting for the answers to their decision events, by event id, each with its session.
///
/// The task layer registers a waiter before it appends the event (`expectAnswer`), so an answer can
/// never come before its waiter, and "nobody waits" means the event is not a decision, was answered
/// already, or its time ran out. The first answer wins: the webhook's (`deliver`) or one given through
/// the API (`take`), which must name the event's session. A webhook's answer for an id nobody waits for
/// is parked for a while and handed over on registration, for callers that register after appending
/// (`answer(eventId:within:)`). The dispatcher never retries a decision event: the transfer waits for one
/// answer only, within `decisionTimeout`.
public final class DecisionWaiters: Sendable {
    private struct Waiter {
        /// The session of the event: an answer given through the API must name it.
        let sessionId: String?
        let continuation: AsyncStream<DecisionAnswer>.Continuation
    }
    private struct State {
        var waiting: [String: Waiter] = [:]
        var parked: [String: (answer: DecisionAnswer, at: ContinuousClock.Instant)] = [:]
        var lastPrune = ContinuousClock.now
    }
    private let state = LockedBox(State())
    /// Where a webhook's answer that nobody here waits for goes besides the parking (another node).
    private let notAwaitedHere = LockedBox<(@Sendable (WebhookDecisionAnswer) -> Void)?>(nil)
    private let parkedLifetime: Duration
    private let parkedLimit = 10_000

    public init(parkedLifetime: Duration = .seconds(300)) { self.parkedLifetime = parkedLifetime }

    /// Registers for the answer to `eventId` (of `sessionId`; nil: an answer through the API never
    /// reaches it): the stream yields it once, then finishes. A second registration for the same id
    /// replaces the first (which finishes without an answer).
    public func register(eventId: String, sessionId: String? = nil) -> AsyncStream<DecisionAnswer> {
        let (stream, continuation) = AsyncStream.makeStream(of: DecisionAnswer.self, bufferingPolicy: .bufferingNewest(1))
        let (parked, replaced) = state.withLock { state -> (DecisionAnswer?, Waiter?) in
            if let parked = state.parked.removeValue(forKey: eventId) { return (parked.answer, nil) }
            return (nil, state.waiting.updateValue(Waiter(sessionId: sessionId, continuation: continuation), forKey: eventId))
        }
        replaced?.continuation.finish()
        if let parked {
            continuation.yield(parked)
            continuation.finish()
        }
        return stream
    }

    /// Waits at most `timeout` for the answer to `eventId`; `.noAnswer` when it does not come in time.
    public func answer(eventId: String, within timeout: Duration) async -> DecisionAnswer {
        await wait(for: register(eventId: eventId), eventId: eventId, within: timeout)
    }

    /// Waits at most `timeout` on a registration's stream, then unregisters.
    private func wait(for stream: AsyncStream<DecisionAnswer>, eventId: String, within timeout: Duration) async -> DecisionAnswer {
        defer { unregister(eventId: eventId) }
        return await withTaskGroup(of: DecisionAnswer.self) { group in
            group.addTask {
                for await answer in stream { return answer }
                return .noAnswer
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .noAnswer
            }
            let first = await group.next() ?? .noAnswer
            group.cancelAll()
            return first
        }
    }

    /// Stops waiting for `eventId` (its stream finishes).
    public func unregister(eventId: String) {
        state.withLock { $0.waiting.removeValue(forKey: eventId) }?.continuation.finish()
    }

    /// Hands a webhook's `answer` to whoever waits for `eventId` (of `sessionId`), or parks it for a
    /// registration still to come; the webhook's answer or its failure, when nobody here waits for it, also
    /// goes to `forwardAnswersNotAwaitedHere`'s handler (the transfer may wait on another node).
    func deliver(_ answer: DecisionAnswer, eventId: String, sessionId: String) {
        let continuation = waiter(for: answer, eventId: eventId)
        if let continuation {
            continuation.yield(answer)
            continuation.finish()
        } else if let handler = notAwaitedHere.withLock({ $0 }) {
            switch answer {
            case .answered(let body): handler(WebhookDecisionAnswer(eventId: eventId, sessionId: sessionId, body: body))
            case .noAnswer: handler(WebhookDecisionAnswer(eventId: eventId, sessionId: sessionId, body: nil))
            case .given: break  // through the API: `take`, which the API forwards itself
            }
        }
    }

    /// The continuation waiting for `eventId`, taken; nil (and `answer` parked) when none waits.
    private func waiter(for answer: DecisionAnswer, eventId: String) -> AsyncStream<DecisionAnswer>.Continuation? {
        let now = ContinuousClock.now
        return state.withLock { state -> AsyncStream<DecisionAnswer>.Continuation? in
            if let waiter = state.waiting.removeValue(forKey: eventId) { return waiter.continuation }
            if now - state.lastPrune > .seconds(1) || state.parked.count >= parkedLimit {
                state.parked = state.parked.filter { now - $0.value.at < parkedLifetime }
                state.lastPrune = now
            }
            if state.parked.count < parkedLimit { state.parked[eventId] = (answer, now) }
            return nil
        }
    }
}

extension DecisionWaiters: DelegateDecisions {
    public func expectAnswer(toEvent eventId: String, session sessionId: String) -> ExpectedAnswer {
        let stream = register(eventId: eventId, sessionId: sessionId)
        return ExpectedAnswer { [self] timeout in
            switch await wait(for: stream, eventId: eventId, within: timeout) {
            // Parsed once here: a 2xx body that is not a valid answer means the default handling.
            case .answered(let body): return try? StrictJSONDecoder().decode(DelegateAnswer.self, from: body)
            case .given(let answer): return answer
            case .noAnswer: return nil
            }
        }
    }

    /// Never parked: an answer nobody waits for here is refused (another node may wait for it).
    public func take(_ answer: DelegateAnswer, toEvent eventId: String, session sessionId: String) -> Bool {
        let continuation = state.withLock { state -> AsyncStream<DecisionAnswer>.Continuation? in
            guard let waiter = state.waiting[eventId], waiter.sessionId == sessionId else { return nil }
            state.waiting[eventId] = nil
            return waiter.continuation
        }
        guard let continuation else { return false }
        continuation.yield(.given(answer))
        continuation.finish()
        return true
    }

    public func forwardAnswersNotAwaitedHere(to handler: @escaping @Sendable (WebhookDecisionAnswer) -> Void) {
        notAwaitedHere.withLock { $0 = handler }
    }

    public func decline(event eventId: String, session sessionId: String) -> Bool {
        let continuation = state.withLock { state -> AsyncStream<DecisionAnswer>.Continuation? in
            guard let waiter = state.waiting[eventId], waiter.sessionId == sessionId else { return nil }
            state.waiting[eventId] = nil
            return waiter.continuation
        }
        guard let continuation else { return false }
        continuation.yield(.noAnswer)
        continuation.finish()
        return true
    }
}
