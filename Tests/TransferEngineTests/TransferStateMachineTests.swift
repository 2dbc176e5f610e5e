import Curl
import Testing
import TransferModels

@testable import TransferEngine

/// Every state of a transfer's state machine × every input, with the actions each returns and the state it
/// leaves; then the walks the engine's features take (redirects, challenges, 304 merges, resume, segments,
/// multipart parts), all without a socket.
@Suite("TransferStateMachine")
struct TransferStateMachineTests {
    typealias Machine = TransferStateMachine
    typealias Input = TransferStateMachine.Input
    typealias Facts = TransferStateMachine.ResponseFacts

    static let request = OutgoingRequest(url: "https://o/a", method: "GET")
    static let next = OutgoingRequest(url: "https://o/b", method: "GET")
    static let basic = AuthenticationChallenge(
        method: .basic, realm: "r", host: "origin.example", port: 443, protocol: "https", previousFailureCount: 0,
        failureResponse: ResponseHead(), request: request)
    static let serverTrust = AuthenticationChallenge(
        method: .serverTrust, realm: nil, host: "origin.example", port: 443, protocol: "https", previousFailureCount: 0,
        failureResponse: nil, request: request)
    static let untrusted = TransferFailure(code: -1202, curlCode: 60, message: "untrusted")

    /// A machine whose delegate decides everything, and one that decides nothing.
    static let deciding = Machine(decidesResponse: true, decidesRedirects: true, decidesChallenges: true)
    static let plain = Machine()

    static func driven(_ start: Machine, _ inputs: [Input]) -> Machine {
        var machine = start
        for input in inputs { _ = machine.handle(input) }
        return machine
    }

    /// The states, each reached from a new transfer through the inputs that lead there.
    static let states: [(name: String, machine: Machine)] = [
        ("requesting", deciding),
        ("receiving", driven(plain, [.headComplete(Facts(status: 200))])),
        ("receiving the stored body", driven(Machine(hasConditionalRequest: true), [.headComplete(Facts(status: 304))])),
        ("receiving parts", driven(plain, [.headComplete(Facts(status: 200, isMultipart: true))])),
        (
            "receiving a range",
            driven(plain, [.rangeAssigned(0..<100), .requestPrepared, .headComplete(Facts(status: 206, rangeAnswer: .accepted))])
        ),
        ("following a redirect", driven(deciding, [.headComplete(Facts(status: 302, redirect: next))])),
        ("answering a challenge", driven(deciding, [.headComplete(Facts(status: 401, challenge: basic))])),
        ("connection stopped", driven(deciding, [.connectionStopped(.challenge(serverTrust))])),
        ("cut at its part's end", driven(plain, [.headComplete(Facts(status: 200)), .cutAtPartEnd])),
        ("awaiting the response decision", driven(deciding, [.headComplete(Facts(status: 200))])),
        ("awaiting the response decision, ended", driven(deciding, [.headComplete(Facts(status: 200)), .requestEnded(.ok)])),
        (
            "delivering held parts",
            driven(deciding, [.headComplete(Facts(status: 200, isMultipart: true)), .partBegan, .responseDecided(.allow)])
        ),
        (
            "awaiting the redirect decision",
            driven(deciding, [.headComplete(Facts(status: 302, redirect: next)), .requestEnded(.ok)])
        ),
        (
            "awaiting the challenge decision",
            driven(deciding, [.headComplete(Facts(status: 401, challenge: basic)), .requestEnded(.ok)])
        ),
        ("awaiting the proxied target", driven(deciding, [.proxiedTargetPending(host: "target.example")])),
        ("parked", driven(plain, [.parked])),
        ("finished", driven(plain, [.headComplete(Facts(status: 200)), .requestEnded(.ok)])),
    ]

    /// The inputs, each applied to every state.
    static let inputs: [(name: String, input: Input)] = [
        ("prepared", .requestPrepared),
        ("range assigned", .rangeAssigned(100..<200)),
        ("started again from 0", .startedAgainFromZero),
        ("stored response served", .storedResponseServed),
        ("103 head", .headComplete(Facts(status: 103))),
        ("200 head", .headComplete(Facts(status: 200))),
        ("302 head", .headComplete(Facts(status: 302, redirect: next))),
        ("401 head", .headComplete(Facts(status: 401, challenge: basic))),
        ("304 head", .headComplete(Facts(status: 304))),
        ("multipart head", .headComplete(Facts(status: 200, isMultipart: true))),
        ("cut at part end", .cutAtPartEnd),
        ("body refused", .bodyRefused(.tooLarge)),
        ("part began", .partBegan),
        ("held parts delivered", .heldPartsDelivered),
        ("connection refused", .connectionStopped(.failure(untrusted))),
        ("request ended", .requestEnded(.ok)),
        ("request failed", .requestEnded(.couldNotConnect)),
        ("segment request ended", .segmentRequestEnded(.ok)),
        ("challenge raised", .challengeRaised(serverTrust)),
        ("redirect followed", .redirectDecided(.follow(next))),
        ("redirect rejected", .redirectDecided(.reject)),
        ("response allowed", .responseDecided(.allow)),
        ("response cancelled", .responseDecided(.cancel)),
        ("response became a download", .responseDecided(.becomeDownload(path: "/d"))),
        ("challenge answered", .challengeDecided(.performDefaultHandling)),
        ("proxied target pending", .proxiedTargetPending(host: "target.example")),
        ("proxied target allowed", .proxiedTargetChecked(host: "target.example")),
        ("parked", .parked),
        ("upload readable", .uploadReadable),
        ("cancel", .cancel),
    ]

    /// One cell: the actions, then the state left (its name), as text.
    static func cell(_ machine: Machine, _ input: Input) -> String {
        var changed = machine
        let actions = changed.handle(input)
        var text = "\(actions.names) → \(changed.state.name)"
        if changed.range != machine.range { text += " [range \(changed.range.map { "\($0)" } ?? "none")]" }
        if changed.redirects != machine.redirects { text += " [redirects \(changed.redirects)]" }
        if changed.resume != machine.resume { text += " [resume \(changed.resume)]" }
        if changed.becameDownload != machine.becameDownload { text += " [became a download]" }
        if changed.refusal != machine.refusal { text += " [refused: \(changed.refusal.map { "\($0)" } ?? "none")]" }
        return text
    }

    /// Per state: where body bytes go, and the inputs that change something (the actions, then the state
    /// left, then any other field changed). Every input not listed must be ignored: no action, nothing
    /// changed — a decision nobody asked for, an event that cannot happen there.
    static let expected: [String: (body: Machine.BodyRoute, changes: [String: String])] = [
        "requesting": (
            body: .keep,
            changes: [
                "range assigned": "— → requesting [range 100..<200]",
                "stored response served": "deliverResponse, askAboutResponse → awaitingResponseDecision(stored, ended 0)",
                "103 head": "reportInformational → requesting",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible, askAboutResponse → awaitingResponseDecision(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverResponse, beginSegmentsIfPossible, askAboutResponse → awaitingResponseDecision(network)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → requesting [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, finishBody → finished",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → requesting",
                "proxied target pending": "— → awaitingProxiedTarget(target.example)",
                "parked": "— → parked",
                "upload readable": "unpause → requesting",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "receiving": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → receiving(network) [range 100..<200]",
                "103 head": "reportInformational → receiving(network)",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → receiving(network) [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, finishBody → finished",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → receiving(network)",
                "parked": "— → parked",
                "upload readable": "unpause → receiving(network)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "receiving the stored body": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → receiving(stored) [range 100..<200]",
                "103 head": "reportInformational → receiving(stored)",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverNotModified → receiving(stored)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → receiving(stored) [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, readStoredBody, finishBody → finished",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → receiving(stored)",
                "parked": "— → parked",
                "upload readable": "unpause → receiving(stored)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "receiving parts": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → receiving(multipart) [range 100..<200]",
                "103 head": "reportInformational → receiving(multipart)",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → receiving(multipart) [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, finishMultipart, finishBody → finished",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → receiving(multipart)",
                "parked": "— → parked",
                "upload readable": "unpause → receiving(multipart)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "receiving a range": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → receiving(range accepted) [range 100..<200]",
                "started again from 0": "— → receiving(range accepted) [range none]",
                "103 head": "reportInformational → receiving(range accepted)",
                "200 head": "storeCookies → receiving(range pending)",
                "302 head": "storeCookies → receiving(range pending)",
                "401 head": "storeCookies → receiving(range pending)",
                "304 head": "storeCookies → receiving(range pending)",
                "multipart head": "storeCookies → receiving(range pending)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → receiving(range accepted) [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, finishBody → finished",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → receiving(range accepted)",
                "parked": "— → parked",
                "upload readable": "unpause → receiving(range accepted)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "following a redirect": (
            body: .keep,  // the delegate decides: the 3xx's body is the answer if it rejects the redirect
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → followingRedirect(https://o/b) [range 100..<200]",
                "103 head": "reportInformational → followingRedirect(https://o/b)",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible, askAboutResponse → awaitingResponseDecision(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverResponse, beginSegmentsIfPossible, askAboutResponse → awaitingResponseDecision(network)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → followingRedirect(https://o/b) [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, askAboutRedirect(https://o/b) → awaitingRedirectDecision(https://o/b) [redirects 1]",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → followingRedirect(https://o/b)",
                "parked": "— → parked",
                "upload readable": "unpause → followingRedirect(https://o/b)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "answering a challenge": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → answeringChallenge(HTTPBasic) [range 100..<200]",
                "103 head": "reportInformational → answeringChallenge(HTTPBasic)",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible, askAboutResponse → awaitingResponseDecision(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverResponse, beginSegmentsIfPossible, askAboutResponse → awaitingResponseDecision(network)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "cut at part end": "— → cutAtPartEnd",
                "body refused": "— → answeringChallenge(HTTPBasic) [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, askAboutChallenge(HTTPBasic) → awaitingChallengeDecision(HTTPBasic)",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → answeringChallenge(HTTPBasic)",
                "challenge raised": "askAboutChallenge(ServerTrust) → awaitingChallengeDecision(ServerTrust)",
                "parked": "— → parked",
                "upload readable": "unpause → answeringChallenge(HTTPBasic)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "connection stopped": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → connectionStopped(challenge ServerTrust) [range 100..<200]",
                "body refused": "— → connectionStopped(challenge ServerTrust) [refused: tooLarge]",
                "request ended": "askAboutChallenge(ServerTrust) → awaitingChallengeDecision(ServerTrust)",
                "request failed": "askAboutChallenge(ServerTrust) → awaitingChallengeDecision(ServerTrust)",
                "segment request ended": "segmentEnded(challenge ServerTrust) → connectionStopped(challenge ServerTrust)",
                "parked": "— → parked",
                "upload readable": "unpause → connectionStopped(challenge ServerTrust)",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "cut at its part's end": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → cutAtPartEnd [range 100..<200]",
                "103 head": "reportInformational → cutAtPartEnd",
                "200 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "302 head": "storeCookies → followingRedirect(https://o/b)",
                "401 head": "storeCookies → answeringChallenge(HTTPBasic)",
                "304 head": "storeCookies, deliverResponse, beginSegmentsIfPossible → receiving(network)",
                "multipart head": "storeCookies, beginMultipart → receiving(multipart)",
                "body refused": "— → cutAtPartEnd [refused: tooLarge]",
                "connection refused": "— → connectionStopped(failure -1202)",
                "request ended": "recordTransaction, finishBody → finished",
                "request failed": "recordTransaction, failRequest(7) → finished",
                "segment request ended": "segmentEnded(completed) → cutAtPartEnd",
                "parked": "— → parked",
                "upload readable": "unpause → cutAtPartEnd",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "awaiting the response decision": (
            body: .pause,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → awaitingResponseDecision(network) [range 100..<200]",
                "body refused": "— → awaitingResponseDecision(network) [refused: tooLarge]",
                "request ended": "— → awaitingResponseDecision(network, ended 0)",
                "request failed": "— → awaitingResponseDecision(network, ended 7)",
                "segment request ended": "segmentEnded(completed) → awaitingResponseDecision(network)",
                "response allowed": "unpause → receiving(network)",
                "response cancelled": "abort(-999) → finished",
                "response became a download": "becomeDownload(/d), unpause → receiving(network) [became a download]",
                "parked": "— → parked",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "awaiting the response decision, ended": (
            body: .pause,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → awaitingResponseDecision(network, ended 0) [range 100..<200]",
                "body refused": "— → awaitingResponseDecision(network, ended 0) [refused: tooLarge]",
                "segment request ended": "segmentEnded(completed) → awaitingResponseDecision(network, ended 0)",
                "response allowed": "recordTransaction, finishBody → finished",
                "response cancelled": "abort(-999) → finished",
                "response became a download": "becomeDownload(/d), recordTransaction, finishBody → finished [became a download]",
                "parked": "— → parked",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "delivering held parts": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → deliveringHeldParts [range 100..<200]",
                "body refused": "— → deliveringHeldParts [refused: tooLarge]",
                "part began": "askAboutResponse → awaitingResponseDecision(multipart)",
                "held parts delivered": "unpause → receiving(multipart)",
                "segment request ended": "segmentEnded(completed) → deliveringHeldParts",
                "parked": "— → parked",
                "upload readable": "unpause → deliveringHeldParts",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "awaiting the redirect decision": (
            body: .pause,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → awaitingRedirectDecision(https://o/b) [range 100..<200]",
                "body refused": "— → awaitingRedirectDecision(https://o/b) [refused: tooLarge]",
                "segment request ended": "segmentEnded(completed) → awaitingRedirectDecision(https://o/b)",
                "redirect followed": "discardBody, follow(https://o/b) → requesting",
                "redirect rejected": "deliverResponse, finishBody → finished",
                "parked": "— → parked",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "awaiting the challenge decision": (
            body: .pause,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → awaitingChallengeDecision(HTTPBasic) [range 100..<200]",
                "body refused": "— → awaitingChallengeDecision(HTTPBasic) [refused: tooLarge]",
                "segment request ended": "segmentEnded(completed) → awaitingChallengeDecision(HTTPBasic)",
                "challenge answered": "resolve(HTTPBasic, performDefaultHandling) → answeringChallenge(HTTPBasic)",
                "parked": "— → parked",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "awaiting the proxied target": (
            body: .pause,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → awaitingProxiedTarget(target.example) [range 100..<200]",
                "body refused": "— → awaitingProxiedTarget(target.example) [refused: tooLarge]",
                "segment request ended": "segmentEnded(completed) → awaitingProxiedTarget(target.example)",
                "proxied target allowed": "admit → requesting",
                "parked": "— → parked",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "parked": (
            body: .pause,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → parked [range 100..<200]",
                "body refused": "— → parked [refused: tooLarge]",
                "segment request ended": "segmentEnded(completed) → parked",
                "cancel": "abort(-999) → finished",
            ]
        ),
        "finished": (
            body: .keep,
            changes: [
                "prepared": "— → requesting",
                "range assigned": "— → finished [range 100..<200]",
                "body refused": "— → finished [refused: tooLarge]",
                "segment request ended": "segmentEnded(completed) → finished",
                "challenge raised": "resolveByDefault(ServerTrust) → answeringChallenge(ServerTrust)",
            ]
        ),
    ]

    @Test(arguments: states.map(\.name))
    func everyInputInState(_ name: String) throws {
        let machine = try #require(Self.states.first { $0.name == name }?.machine)
        let row = try #require(Self.expected[name])
        #expect(machine.routeBody() == row.body, "body in \(name)")
        for (inputName, input) in Self.inputs {
            let expected = row.changes[inputName] ?? "— → \(machine.state.name)"
            #expect(Self.cell(machine, input) == expected, "\(inputName) in \(name)")
        }
        // No row names an input the table does not have.
        #expect(Set(row.changes.keys).isSubset(of: Set(Self.inputs.map(\.name))))
    }

    @Test func everyStateHasARow() {
        #expect(Set(Self.states.map(\.name)) == Set(Self.expected.keys))
    }
}
