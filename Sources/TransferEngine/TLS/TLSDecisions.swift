import Certificates
import Curl
import Foundation
import TransferModels

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

/// `host:port` of an https URL: the unit TLS decisions are taken for.
struct TLSOrigin {
    let host: String
    let port: Int
    var key: String { "\(host):\(port)" }

    /// nil for a URL of any other scheme. An http URL is not parsed at all: every request asks, twice, and
    /// Foundation's parse (~1.6 µs) was a few per cent of the engine thread's work per small task.
    init?(url: String) {
        guard url.utf8.prefix(6).elementsEqual("https:".utf8, by: { $0 | 0x20 == $1 }),  // ASCII case folded
            let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
            let host = components.host?.lowercased()
        else { return nil }
        (self.host, self.port) = (host, components.port ?? 443)
    }

    init(of challenge: AuthenticationChallenge) {
        (host, port) = (challenge.host, challenge.port)
    }
}

/// A task's TLS decisions, origin by origin, and what the handshake under way showed: what its requests'
/// connections are held to. Kept by its `Transfer` for all the requests of the task; a part connection of
/// a segmented download starts with its primary's.
struct TLSDecisions {
    /// What the examination of a connection before its request leaves comes to.
    enum Verdict {
        case proceed
        case fail(TransferFailure)
        /// A question for the delegate (a server-trust challenge carries the chain and its evaluation).
        case ask(AuthenticationChallenge.Method, ServerTrust?)
    }

    /// How a failed request may still be turned around.
    enum Recovery {
        /// The server ended the handshake without a certificate: the delegate is asked for one.
        case askForCertificate
        /// A stored trust exception may accept the chain: the request goes again, its connection examined.
        case sendAgain
    }

    private var byOrigin: [String: TLSDecision] = [:]
    /// The server asked for a client certificate in the handshake under way.
    var sawCertificateRequest = false

    /// Whether a request to `url`'s connection is looked at before the request leaves.
    func vetsConnection(to url: String, for job: TransferJob) -> Bool {
        guard let origin = TLSOrigin(url: url) else { return false }
        return job.decidesSessionChallenges || byOrigin[origin.key]?.untrustedByDefault != nil
    }

    /// The callbacks a request to `url` needs for its TLS challenges.
    func callbacks(for url: String, of job: TransferJob) -> CurlCallbacks {
        guard vetsConnection(to: url, for: job) else { return [] }
        return job.decidesSessionChallenges ? [.connectionReady, .handshakeMessages] : [.connectionReady]
    }

    /// The TLS options of a request to `url`: trust (pins, anchors, or the verification deferred to the
    /// examination of the connection) and the client identity offered.
    func apply(to easy: CurlEasyHandle, url: String, job: TransferJob) throws {
        if let bundle = job.certificateAuthoritiesFile { try easy.set(.certificateAuthorities, bundle) }
        guard let origin = TLSOrigin(url: url) else {
            if let pins = job.pinnedPublicKeys { try easy.set(.pinnedPublicKey, pins) }
            return
        }
        let decision = byOrigin[origin.key] ?? TLSDecision()
        var pins = job.pinnedPublicKeys
        if case .accepted(let key)? = decision.trust, pins.map({ $0.contains("sha256//\(key)") }) ?? true {
            pins = "sha256//\(key)"
        }
        if let pins { try easy.set(.pinnedPublicKey, pins) }
        if vetsConnection(to: url, for: job) { try easy.deferCertificateVerification() }
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

    /// A connection to `origin` is up and nothing was sent: its chain (`peer`) is evaluated and the
    /// decisions taken so far applied.
    mutating func examine(
        _ peer: PeerTrust, of origin: TLSOrigin, isNew: Bool, askedForCertificate: Bool, job: TransferJob
    ) -> Verdict {
        let trust = ServerTrust(chain: peer.chain, failure: Self.trustFailure(peer))
        if askedForCertificate { byOrigin[origin.key, default: TLSDecision()].certificateRequested = true }
        var decision = byOrigin[origin.key] ?? TLSDecision()
        switch decision.trust {
        case .accepted(let key)?:
            guard peer.chain.first?.spkiSha256 == key else { return .fail(Self.untrusted(peer)) }
        case .evaluated?:
            if let failure = trust.failure { return .fail(failure) }
        case nil:
            if let failure = decision.untrustedByDefault {
                guard let leaf = peer.chain.first, Self.matchesTrustException(leaf, origin, job.credentials) else {
                    return .fail(failure)
                }
                decision.trust = .accepted(spkiSha256: leaf.spkiSha256)
            } else if isNew || trust.failure != nil {
                return .ask(.serverTrust, trust)
            } else {
                decision.trust = .evaluated  // a connection already vetted for this session, and trusted
            }
        }
        byOrigin[origin.key] = decision
        if decision.certificateRequested, decision.identity == nil, job.decidesSessionChallenges {
            return .ask(.clientCertificate, nil)
        }
        return .proceed
    }

    /// After a request to `origin` failed: a TLS failure that a challenge or a stored trust exception may
    /// still turn around, or nil.
    mutating func recovery(after failure: TransferFailure, at origin: TLSOrigin, job: TransferJob) -> Recovery? {
        var decision = byOrigin[origin.key] ?? TLSDecision()
        if sawCertificateRequest, decision.identity == nil, job.decidesSessionChallenges {
            // The server ended the handshake without a certificate (TLS 1.2 servers that require one).
            sawCertificateRequest = false
            return .askForCertificate
        }
        let isTrustFailure = failure.curlCode == 60 || failure.curlCode == 90
        guard isTrustFailure, decision.trust == nil, decision.untrustedByDefault == nil,
            job.credentials?.trustExceptions(host: origin.host, port: origin.port).isEmpty == false
        else { return nil }
        decision.untrustedByDefault = failure
        byOrigin[origin.key] = decision
        return .sendAgain
    }

    /// `useCredential(URLCredential(trust:))`: the chain shown is accepted for this task's connections to
    /// the origin (pinned by its leaf's key). false: the challenge carried no chain.
    mutating func acceptTrust(_ challenge: AuthenticationChallenge) -> Bool {
        guard let leaf = challenge.serverTrust?.chain.first else { return false }
        byOrigin[TLSOrigin(of: challenge).key, default: TLSDecision()].trust = .accepted(spkiSha256: leaf.spkiSha256)
        return true
    }

    /// Default handling of server trust: the system's evaluation, then the trust exceptions stored for the
    /// host; an untrusted chain is the task's failure (its -120x error), returned.
    mutating func trustByDefault(_ challenge: AuthenticationChallenge, exceptions: (any TransferCredentials)?) -> TransferFailure? {
        let origin = TLSOrigin(of: challenge)
        guard let trust = challenge.serverTrust, let failure = trust.failure else {
            byOrigin[origin.key, default: TLSDecision()].trust = .evaluated
            return nil
        }
        if let leaf = trust.chain.first, Self.matchesTrustException(leaf, origin, exceptions) {
            byOrigin[origin.key, default: TLSDecision()].trust = .accepted(spkiSha256: leaf.spkiSha256)
            return nil
        }
        return failure
    }

    /// `identity` (nil: none) is presented on the next connection to the challenge's origin.
    mutating func present(_ identity: ClientIdentity?, for challenge: AuthenticationChallenge) {
        byOrigin[TLSOrigin(of: challenge).key, default: TLSDecision()].identity = identity.map { .present($0) } ?? TLSDecision.Identity.none
    }

    private static func matchesTrustException(
        _ leaf: CertificateDetails, _ origin: TLSOrigin, _ storage: (any TransferCredentials)?
    ) -> Bool {
        storage?.trustExceptions(host: origin.host, port: origin.port).contains { $0.matches(leaf.sha256, leaf.spkiSha256) } ?? false
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
