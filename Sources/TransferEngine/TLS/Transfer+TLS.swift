import Certificates
import Curl
import Foundation
import TransferModels

// The TLS challenges, as URLSession raises them per connection: the server's chain (server trust) and the
// server's request for a client certificate. libcurl cannot wait for a delegate mid-handshake, so a transfer
// whose delegate answers them lets the handshake accept any chain, looks at the connection before the
// request leaves (`curlConnectionReady`), and stops there to ask: the request is then sent again, on a new
// connection, with the answer (the accepted chain pinned by its key, or the identity presented). What the
// task decided is its `TLSDecisions`.

extension Transfer {
    func curlServerRequestedClientCertificate() {
        tls.sawCertificateRequest = true
    }

    /// The connection is up and nothing was sent: its chain is evaluated and the decisions taken so far
    /// applied; a question for the delegate, or a refusal, stops the transfer here (`connectionStopped`).
    func curlConnectionReady(isNew: Bool, tlsSession: UnsafeMutableRawPointer?) -> Bool {
        let askedForCertificate = tls.sawCertificateRequest
        tls.sawCertificateRequest = false
        guard let origin = TLSOrigin(url: request.url), tls.vetsConnection(to: request.url, for: job) else { return true }
        guard let tlsSession else {  // verification was deferred to here: never send on an unexamined chain
            let failure = TransferFailure(
                code: URLErrorCode.secureConnectionFailed.rawValue, curlCode: 35, message: "the connection's TLS could not be examined")
            return stop(.failure(failure))
        }
        let peer = Certificates.peerTrust(ssl: tlsSession, host: origin.host, anchorsFile: anchorsFile)
        switch tls.examine(peer, of: origin, isNew: isNew, askedForCertificate: askedForCertificate, job: job) {
        case .proceed: return true
        case .fail(let failure): return stop(.failure(failure))
        case .ask(let method, let trust): return stop(.challenge(tlsChallenge(method, origin, trust: trust)))
        }
    }

    /// After a failed request: a TLS failure that a challenge or a stored trust exception may still turn
    /// around (the request goes again), or nil.
    func tlsRecovery(after failure: TransferFailure) -> ChallengeAnswer? {
        guard let origin = TLSOrigin(url: request.url) else { return nil }
        switch tls.recovery(after: failure, at: origin, job: job) {
        case .askForCertificate?: return .nextChallenge(tlsChallenge(.clientCertificate, origin, trust: nil))
        case .sendAgain?: return .sendAgain
        case nil: return nil
        }
    }

    /// `useCredential(URLCredential(trust:))`: the chain shown is accepted for this task's connections to
    /// the origin; with no chain shown, the default handling.
    func acceptServerTrust(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        tls.acceptTrust(challenge) ? .sendAgain : trustByDefault(challenge)
    }

    /// Default handling of server trust: an untrusted chain fails the task with its -120x error.
    func trustByDefault(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        guard let failure = tls.trustByDefault(challenge, exceptions: job.credentials) else { return .sendAgain }
        return .done(outcome(failure: failure))
    }

    /// The delegate's identity (nil: none) is presented on the next connection to the origin.
    func present(_ identity: ClientIdentity?, for challenge: AuthenticationChallenge) -> ChallengeAnswer {
        tls.present(identity, for: challenge)
        return .sendAgain
    }

    /// Default handling of a certificate request: the identity stored for the origin, else none.
    func presentByDefault(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        present(job.credentials?.clientIdentity(host: challenge.host, port: challenge.port), for: challenge)
    }

    /// Stops the connection before the request leaves: the machine keeps why until libcurl reports the end.
    private func stop(_ stop: TransferStateMachine.ConnectionStop) -> Bool {
        _ = machine.handle(.connectionStopped(stop))
        return false
    }

    private func tlsChallenge(_ method: AuthenticationChallenge.Method, _ origin: TLSOrigin, trust: ServerTrust?) -> AuthenticationChallenge
    {
        AuthenticationChallenge(
            method: method, realm: nil, host: origin.host, port: origin.port, protocol: "https", previousFailureCount: 0,
            failureResponse: nil, request: request, serverTrust: trust)
    }

    /// The anchors a chain is evaluated against: the session's bundle, the service's, or the system's.
    private var anchorsFile: String {
        job.certificateAuthoritiesFile ?? configuration.certificateAuthorities ?? TrustBundle.systemPath
    }
}
