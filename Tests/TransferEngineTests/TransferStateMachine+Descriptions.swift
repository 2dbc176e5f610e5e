import Curl
import TransferModels

@testable import TransferEngine

// Short, stable names for the machine's states and actions, so that a table of expectations reads as
// text (challenges and outcomes carry values that are not `Equatable`).

extension TransferStateMachine.State {
    var name: String {
        switch self {
        case .requesting: "requesting"
        case .receiving(let body): "receiving(\(body.name))"
        case .followingRedirect(let next): "followingRedirect(\(next.url))"
        case .answeringChallenge(let challenge): "answeringChallenge(\(challenge.method.rawValue))"
        case .connectionStopped(let stop): "connectionStopped(\(stop.name))"
        case .cutAtPartEnd: "cutAtPartEnd"
        case .awaitingResponseDecision(let body, let finished):
            "awaitingResponseDecision(\(body.name)\(finished.map { ", ended \($0.code)" } ?? ""))"
        case .deliveringHeldParts(let finished): "deliveringHeldParts\(finished.map { "(ended \($0.code))" } ?? "")"
        case .awaitingRedirectDecision(let next): "awaitingRedirectDecision(\(next.url))"
        case .awaitingChallengeDecision(let challenge): "awaitingChallengeDecision(\(challenge.method.rawValue))"
        case .awaitingProxiedTarget(let host): "awaitingProxiedTarget(\(host))"
        case .parked: "parked"
        case .finished: "finished"
        }
    }
}

extension TransferStateMachine.ResponseBody {
    var name: String {
        switch self {
        case .network: "network"
        case .stored: "stored"
        case .multipart: "multipart"
        case .range(let answer): "range \(answer)"
        }
    }
}

extension TransferStateMachine.ConnectionStop {
    var name: String {
        switch self {
        case .challenge(let challenge): "challenge \(challenge.method.rawValue)"
        case .failure(let failure): "failure \(failure.code)"
        }
    }
}

extension TransferStateMachine.Action {
    var name: String {
        switch self {
        case .reportInformational: "reportInformational"
        case .storeCookies: "storeCookies"
        case .deliverResponse: "deliverResponse"
        case .deliverNotModified: "deliverNotModified"
        case .beginMultipart: "beginMultipart"
        case .beginSegmentsIfPossible: "beginSegmentsIfPossible"
        case .settleResume: "settleResume"
        case .resumeSegments: "resumeSegments"
        case .askAboutResponse: "askAboutResponse"
        case .recordTransaction: "recordTransaction"
        case .readStoredBody: "readStoredBody"
        case .finishMultipart: "finishMultipart"
        case .finishBody: "finishBody"
        case .fail(let failure): "fail(\(failure.code))"
        case .failRequest(let result): "failRequest(\(result.code))"
        case .askAboutRedirect(let next): "askAboutRedirect(\(next.url))"
        case .discardBody: "discardBody"
        case .follow(let next): "follow(\(next.url))"
        case .askAboutChallenge(let challenge): "askAboutChallenge(\(challenge.method.rawValue))"
        case .resolveByDefault(let challenge): "resolveByDefault(\(challenge.method.rawValue))"
        case .resolve(let challenge, let disposition): "resolve(\(challenge.method.rawValue), \(disposition.name))"
        case .segmentEnded(let end): "segmentEnded(\(end.name))"
        case .becomeDownload(let path): "becomeDownload(\(path))"
        case .deliverHeldParts: "deliverHeldParts"
        case .unpause: "unpause"
        case .admit: "admit"
        case .abort(let failure): "abort(\(failure.code))"
        }
    }
}

extension TransferStateMachine.SegmentEnd {
    var name: String {
        switch self {
        case .completed: "completed"
        case .validatorChanged: "validatorChanged"
        case .unexpected(let status): "unexpected \(status)"
        case .failed(let result): "failed \(result.code)"
        case .connectionStopped(let stop): stop.name
        }
    }
}

extension ChallengeDisposition {
    var name: String {
        switch self {
        case .useCredential: "useCredential"
        case .performDefaultHandling: "performDefaultHandling"
        case .cancelAuthenticationChallenge: "cancel"
        case .rejectProtectionSpace: "rejectProtectionSpace"
        }
    }
}

extension [TransferStateMachine.Action] {
    var names: String { isEmpty ? "—" : map(\.name).joined(separator: ", ") }
}
