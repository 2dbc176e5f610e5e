import Certificates
import Curl
import Foundation
import TransferModels

// The TLS challenges, as URLSession raises them per connection: the server's chain (server trust) and the
// server's request for a client certificate. libcurl cannot wait for a delegate mid-handshake, so a transfer
// whose delegate answers them lets the handshake accept any chain, looks at the connection before the
// request leaves (`curlConnectionReady`), and stops there to ask: the request is then sent again, on a new
// connection, with the answer (the accepted chain pinned by its key, or the identity presented).

/// What a task decided about the TLS of one origin (`host:port`).
struct TLSDecision {
    enum Trust {
        /// The delegate (or a stored trust exception) accepted the chain whose leaf has this key: only a
        /// connection presenting that key is used (libcurl's pin).
        case accepted(spkiSha256: String)
        /// The system's evaluation decides, connection by connection.
        case evaluated
    }

    enum Identity {
        case present(ClientIdentity)
        /// Continue without a certificate, as URLSession does when none is given.
        case none
    }

    var trust: Trust?
    var identity: Identity?
    /// The server asked for a client certificate on a connection of this origin (remembered: the next
    /// request may reuse that connection, whose handshake is over).
    var certificateRequested = false
    /// The default handling met an untrusted chain (this failure) and the storage holds trust exceptions
    /// for the host: the connection is looked at again, to compare its chain with them.
    var untrustedByDefault: TransferFailure?
}

extension Transfer {
    /// `host:port` of an https URL; nil for any other.
    static func tlsOrigin(of url: String) -> (host: String, port: Int, key: String)? {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
            let host = components.host?.lowercased()
        else { return nil }
        let port = components.port ?? 443
        return (host, port, "\(host):\(port)")
    }

    /// Whether this request's connection is looked at before the request leaves.
    var vetsConnection: Bool {
        guard let origin = Self.tlsOrigin(of: request.url) else { return false }
        return job.decidesSessionChallenges || tlsDecisions[origin.key]?.untrustedByDefault != nil
    }

    /// The TLS options of `request`: trust (pins, anchors, or the verification deferred to
    /// `curlConnectionReady`) and the client identity offered.
    func applyTLS() throws {
        if let bundle = job.certificateAuthoritiesFile { try easy.set(.certificateAuthorities, bundle) }
        guard let origin = Self.tlsOrigin(of: request.url) else {
            if let pins = job.pinnedPublicKeys { try easy.set(.pinnedPublicKey, pins) }
            return
        }
        let decision = tlsDecisions[origin.key] ?? TLSDecision()
        var pins = job.pinnedPublicKeys
        if case .accepted(let key)? = decision.trust, pins.map({ $0.contains("sha256//\(key)") }) ?? true {
            pins = "sha256//\(key)"
        }
        if let pins { try easy.set(.pinnedPublicKey, pins) }
        if vetsConnection { try easy.deferCertificateVerification() }
        // Presented only when the server asks for a client certificate, as URLSession answers that challenge.
        var identity: ClientIdentity?
        switch decision.identity {
        case .present(let given)?: identity = given
        case .none?: identity = nil
        case nil: identity = job.decidesSessionChallenges ? nil : job.credentials?.clientIdentity(host: origin.host, port: origin.port)
        }
        if let identity {
            try easy.setClientIdentity(
                certificateChainPEM: identity.certificateChain, privateKeyPEM: identity.privateKey, passphrase: identity.passphrase)
        }
    }

    /// The callbacks a request needs for its TLS challenges.
    var tlsCallbacks: CurlCallbacks {
        guard vetsConnection else { return [] }
        return job.decidesSessionChallenges ? [.connectionReady, .handshakeMessages] : [.connectionReady]
    }

    func curlServerRequestedClientCertificate() {
        sawCertificateRequest = true
    }

    /// The connection is up and nothing was sent: its chain is evaluated and the decisions taken so far
    /// applied; a question for the delegate, or a refusal, stops the transfer here (`connectionStopped`).
    func curlConnectionReady(isNew: Bool, tlsSession: UnsafeMutableRawPointer?) -> Bool {
        let askedForCertificate = sawCertificateRequest
        sawCertificateRequest = false
        guard let origin = Self.tlsOrigin(of: request.url), vetsConnection else { return true }
        guard let tlsSession else {  // verification was deferred to here: never send on an unexamined chain
            let failure = TransferFailure(
                code: URLErrorCode.secureConnectionFailed.rawValue, curlCode: 35, message: "the connection's TLS could not be examined")
            return stop(.failure(failure))
        }
        let peer = Certificates.peerTrust(ssl: tlsSession, host: origin.host, anchorsFile: anchorsFile)
        let trust = ServerTrust(chain: peer.chain, failure: Self.trustFailure(peer))
        if askedForCertificate { tlsDecisions[origin.key, default: TLSDecision()].certificateRequested = true }
        var decision = tlsDecisions[origin.key] ?? TLSDecision()
        switch decision.trust {
        case .accepted(let key)?:
            guard peer.chain.first?.spkiSha256 == key else { return stop(.failure(Self.untrusted(peer))) }
        case .evaluated?:
            if let failure = trust.failure { return stop(.failure(failure)) }
        case nil:
            if let failure = decision.untrustedByDefault {
                guard let leaf = peer.chain.first, matchesTrustException(leaf, origin) else {
                    return stop(.failure(failure))
                }
                decision.trust = .accepted(spkiSha256: leaf.spkiSha256)
            } else if isNew || trust.failure != nil {
                return stop(.challenge(tlsChallenge(.serverTrust, origin, trust: trust)))
            } else {
                decision.trust = .evaluated  // a connection already vetted for this session, and trusted
            }
        }
        tlsDecisions[origin.key] = decision
        if decision.certificateRequested, decision.identity == nil, job.decidesSessionChallenges {
            return stop(.challenge(tlsChallenge(.clientCertificate, origin, trust: nil)))
        }
        return true
    }

    /// After a failed request: a TLS failure that a challenge or a stored trust exception may still turn
    /// around (the request goes again), or nil.
    func tlsRecovery(after failure: TransferFailure) -> ChallengeAnswer? {
        guard let origin = Self.tlsOrigin(of: request.url) else { return nil }
        var decision = tlsDecisions[origin.key] ?? TLSDecision()
        if sawCertificateRequest, decision.identity == nil, job.decidesSessionChallenges {
            // The server ended the handshake without a certificate (TLS 1.2 servers that require one).
            sawCertificateRequest = false
            return .nextChallenge(tlsChallenge(.clientCertificate, origin, trust: nil))
        }
        let isTrustFailure = failure.curlCode == 60 || failure.curlCode == 90
        guard isTrustFailure, decision.trust == nil, decision.untrustedByDefault == nil,
            job.credentials?.trustExceptions(host: origin.host, port: origin.port).isEmpty == false
        else { return nil }
        decision.untrustedByDefault = failure
        tlsDecisions[origin.key] = decision
        return .sendAgain
    }

    /// `useCredential(URLCredential(trust:))`: the chain shown is accepted for this task's connections to
    /// the origin (pinned by its leaf's key).
    func acceptServerTrust(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        guard let leaf = challenge.serverTrust?.chain.first else { return trustByDefault(challenge) }
        tlsDecisions["\(challenge.host):\(challenge.port)", default: TLSDecision()].trust = .accepted(spkiSha256: leaf.spkiSha256)
        return .sendAgain
    }

    /// Default handling of server trust: the system's evaluation, then the trust exceptions stored for the
    /// host; an untrusted chain fails the task with its -120x error.
    func trustByDefault(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        let key = "\(challenge.host):\(challenge.port)"
        guard let trust = challenge.serverTrust, let failure = trust.failure else {
            tlsDecisions[key, default: TLSDecision()].trust = .evaluated
            return .sendAgain
        }
        if let leaf = trust.chain.first, matchesTrustException(leaf, (challenge.host, challenge.port, key)) {
            tlsDecisions[key, default: TLSDecision()].trust = .accepted(spkiSha256: leaf.spkiSha256)
            return .sendAgain
        }
        return .done(outcome(failure: failure))
    }

    /// The delegate's identity is presented on the next connection to the origin.
    func present(_ identity: ClientIdentity, for challenge: AuthenticationChallenge) -> ChallengeAnswer {
        tlsDecisions["\(challenge.host):\(challenge.port)", default: TLSDecision()].identity = .present(identity)
        return .sendAgain
    }

    /// Default handling of a certificate request: the identity stored for the origin, else none.
    func presentByDefault(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        let stored = job.credentials?.clientIdentity(host: challenge.host, port: challenge.port)
        tlsDecisions["\(challenge.host):\(challenge.port)", default: TLSDecision()].identity =
            stored.map { .present($0) } ?? TLSDecision.Identity.none
        return .sendAgain
    }

    /// Stops the connection before the request leaves: the machine keeps why until libcurl reports the end.
    private func stop(_ stop: TransferStateMachine.ConnectionStop) -> Bool {
        _ = machine.handle(.connectionStopped(stop))
        return false
    }

    private func tlsChallenge(
        _ method: AuthenticationChallenge.Method, _ origin: (host: String, port: Int, key: String), trust: ServerTrust?
    ) -> AuthenticationChallenge {
        AuthenticationChallenge(
            method: method, realm: nil, host: origin.host, port: origin.port, protocol: "https", previousFailureCount: 0,
            failureResponse: nil, request: request, serverTrust: trust)
    }

    private func matchesTrustException(_ leaf: CertificateDetails, _ origin: (host: String, port: Int, key: String)) -> Bool {
        job.credentials?.trustExceptions(host: origin.host, port: origin.port).contains { $0.matches(leaf.sha256, leaf.spkiSha256) }
            ?? false
    }

    /// The anchors a chain is evaluated against: the session's bundle, the service's, or the system's.
    private var anchorsFile: String {
        job.certificateAuthoritiesFile ?? configuration.certificateAuthorities ?? TrustBundle.systemPath
    }

    /// The evaluation as the task would fail by default; nil when trusted.
    static func trustFailure(_ peer: PeerTrust) -> TransferFailure? {
        guard let code = Certificates.urlErrorCode(verifyResult: peer.verifyResult, hostMatches: peer.hostMatches) else { return nil }
        let reason = peer.hostMatches ? peer.verifyMessage : "the certificate does not name the host"
        return TransferFailure(code: code, curlCode: 60, message: "SSL certificate problem: \(reason)")
    }

    private static func untrusted(_ peer: PeerTrust) -> TransferFailure {
        trustFailure(peer)
            ?? TransferFailure(
                code: URLErrorCode.serverCertificateUntrusted.rawValue, curlCode: 90,
                message: "the server's key is not the one accepted for this host")
    }
}
