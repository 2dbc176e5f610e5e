import Curl
import Foundation
import TransferModels

// The Transfer as its state machine's executor: each action is carried out here, on the engine loop,
// with the handle, the head, the sink and the observer. What only the scheduler can do (send another
// request, admit, abort, report the end) comes back as a `Step`.

extension Transfer {
    /// Carries out `actions` in order. An action that ends the request (or fails) returns the scheduler's
    /// step, and the actions after it are not carried out: they were about a request that is over.
    func perform(_ actions: [TransferStateMachine.Action]) -> Step? {
        var refused = false
        for action in actions {
            if case .deliverResponse = action, refusesMirrorHead() {
                // A mirror's head that cannot be the file is not the task's response: nothing else about it
                // is carried out (a download fetched in ranges begun on another length, a resume settled),
                // and its request ends as the body is refused.
                refused = true
                continue
            }
            if refused, action.concernsTheResponse { continue }
            if let step = perform(action) { return step }
        }
        return nil
    }

    private func perform(_ action: TransferStateMachine.Action) -> Step? {
        switch action {
        case .reportInformational: observer.transfer(job.id, didReceiveInformational: response.head, for: request)
        case .storeCookies: storeCookies()
        case .deliverResponse: deliver(response.head)
        case .deliverNotModified: deliverNotModified()
        case .beginMultipart: beginMultipartReplace()
        case .beginSegmentsIfPossible: beginSegmentsIfPossible()
        case .settleResume: settleResume()
        case .resumeSegments: resumeSegmentsAccepted()
        case .askAboutResponse: observer.transfer(job.id, asksAbout: response.deliveredHead ?? response.head, for: request)
        case .recordTransaction: recordTransaction()
        case .readStoredBody:
            if let failure = readStoredBody() { return .done(outcome(failure: failure)) }
        case .finishMultipart:
            if let failure = finishMultipartReplace() { return .done(outcome(failure: failure)) }
        case .finishBody: return .done(finishBody())
        case .fail(let failure): return .done(outcome(failure: failure))
        case .failRequest(let result):
            let failure = failure(for: result)
            guard let recovery = tlsRecovery(after: failure) else { return .done(outcome(failure: failure)) }
            return carryOut(recovery)
        case .askAboutRedirect(let next): observer.transfer(job.id, asksToRedirect: response.head, to: next)
        case .discardBody:
            do {
                try restartBody()
            } catch {
                return .abort(TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)"))
            }
        case .follow(let next): return .follow(next)
        case .askAboutChallenge(let challenge): observer.transfer(job.id, asksAbout: challenge)
        case .resolveByDefault(let challenge): return carryOut(resolveByDefault(challenge))
        case .resolve(let challenge, let disposition): return carryOut(resolve(challenge, disposition))
        case .segmentEnded: break  // read by `segmentVerdict`, which asks for it
        case .becomeDownload(let path):
            do {
                try becomeDownload(path: path)
            } catch {
                return .abort(TransferFailure(code: URLErrorCode.cannotCreateFile.rawValue, curlCode: 23, message: "\(error)"))
            }
        case .deliverHeldParts:
            do {
                try handleMultipartParts()
            } catch {
                return .abort(TransferFailure(code: URLErrorCode.cannotWriteToFile.rawValue, curlCode: 23, message: "\(error)"))
            }
            return perform(machine.handle(.heldPartsDelivered))
        case .unpause:
            meter.lastActivity = .now  // the idle timeout starts again with the traffic
            easy.unpause()
        case .admit: return .admit
        case .abort(let failure): return .abort(failure)
        }
        return nil
    }

    /// A challenge's answer: the request again, the next challenge (asked, or answered by default), or the end.
    private func carryOut(_ answer: ChallengeAnswer) -> Step? {
        switch answer {
        case .sendAgain: .sendAgain
        case .nextChallenge(let challenge): perform(machine.handle(.challengeRaised(challenge)))
        case .done(let outcome): .done(outcome)
        }
    }
}
