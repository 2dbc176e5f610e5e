import Foundation
import JSONCodec
public import TransferModels

/// The webhook's answer to a decision event (API.md "Decision events").
public enum DecisionAnswer: Sendable, Equatable {
    /// A 2xx answer with its body; the waiter parses it (a malformed one means default handling).
    case answered([UInt8])
    /// A non-2xx answer, a transport failure, the timeout, or shutdown: default handling.
    case noAnswer
}

/// Transfers waiting for the answers to their decision events, by event id.
///
/// The event is appended (and may be delivered) before its waiter registers, so an answer for an id
/// nobody waits for yet is parked for a while and handed over on registration. The dispatcher never
/// retries a decision event: the transfer waits for one answer only, within `decisionTimeout`.
public final class DecisionWaiters: Sendable {
    private struct State {
        var waiting: [String: AsyncStream<DecisionAnswer>.Continuation] = [:]
        var parked: [String: (answer: DecisionAnswer, at: ContinuousClock.Instant)] = [:]
        var lastPrune = ContinuousClock.now
    }
    private let state = LockedBox(State())
    private let parkedLifetime: Duration
    private let parkedLimit = 10_000

    public init(parkedLifetime: Duration = .seconds(300)) { self.parkedLifetime = parkedLifetime }

    /// Registers for the answer to `eventId`: the stream yields it once, then finishes. A second
    /// registration for the same id replaces the first (which finishes without an answer).
    public func register(eventId: String) -> AsyncStream<DecisionAnswer> {
        let (stream, continuation) = AsyncStream.makeStream(of: DecisionAnswer.self, bufferingPolicy: .bufferingNewest(1))
        typealias Continuation = AsyncStream<DecisionAnswer>.Continuation
        let (parked, replaced) = state.withLock { state -> (DecisionAnswer?, Continuation?) in
            if let parked = state.parked.removeValue(forKey: eventId) { return (parked.answer, nil) }
            return (nil, state.waiting.updateValue(continuation, forKey: eventId))
        }
        replaced?.finish()
        if let parked {
            continuation.yield(parked)
            continuation.finish()
        }
        return stream
    }

    /// Waits at most `timeout` for the answer to `eventId`; `.noAnswer` when it does not come in time.
    public func answer(eventId: String, within timeout: Duration) async -> DecisionAnswer {
        let stream = register(eventId: eventId)
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
        state.withLock { $0.waiting.removeValue(forKey: eventId) }?.finish()
    }

    /// Hands `answer` to whoever waits for `eventId`, or parks it for a registration still to come.
    func deliver(_ answer: DecisionAnswer, eventId: String) {
        let now = ContinuousClock.now
        let continuation = state.withLock { state -> AsyncStream<DecisionAnswer>.Continuation? in
            if let continuation = state.waiting.removeValue(forKey: eventId) { return continuation }
            if now - state.lastPrune > .seconds(1) || state.parked.count >= parkedLimit {
                state.parked = state.parked.filter { now - $0.value.at < parkedLifetime }
                state.lastPrune = now
            }
            if state.parked.count < parkedLimit { state.parked[eventId] = (answer, now) }
            return nil
        }
        continuation?.yield(answer)
        continuation?.finish()
    }
}

extension DecisionWaiters: DelegateDecisions {
    /// The answer, parsed once here: a 2xx body that is not a valid answer means the default handling.
    public func answer(toEvent eventId: String, within timeout: Duration) async -> DelegateAnswer? {
        guard case .answered(let body) = await answer(eventId: eventId, within: timeout) else { return nil }
        return try? StrictJSONDecoder().decode(DelegateAnswer.self, from: body)
    }
}
