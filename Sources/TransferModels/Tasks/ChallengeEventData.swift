public import Foundation

/// `task.didReceiveChallenge`: `{"task", "challenge": {...}}`, as `URLAuthenticationChallenge` describes
/// it; `session.didReceiveChallenge`: `{"challenge"}`. An HTTP challenge carries its `failureResponse`; a
/// server-trust one its `serverTrust` (the chain and the system's evaluation); a client-certificate one
/// neither.
public struct ChallengeEventData: Encodable, Sendable {
    public struct Challenge: Encodable, Sendable {
        public var protectionSpace: ProtectionSpace
        public var previousFailureCount: Int
        /// The 401 or 407; null for the TLS challenges.
        public var failureResponse: HTTPResponseSnapshot?
        /// The default credential stored for the space, without its secret (`proposedCredential`).
        public var proposedCredential: ProposedCredential?
        public var serverTrust: ServerTrustData?

        enum CodingKeys: String, CodingKey { case protectionSpace, previousFailureCount, failureResponse, proposedCredential, serverTrust }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(protectionSpace, forKey: .protectionSpace)
            try c.encode(previousFailureCount, forKey: .previousFailureCount)
            try c.encode(failureResponse, forKey: .failureResponse)
            try c.encode(proposedCredential, forKey: .proposedCredential)
            if let serverTrust { try c.encode(serverTrust, forKey: .serverTrust) }
        }
    }

    /// A stored credential as a challenge proposes it: who, never the password or the key.
    public struct ProposedCredential: Encodable, Sendable {
        /// `password` or `identity`.
        public var kind: String
        public var user: String?
        public var hasPassword: Bool
        public var persistence: CredentialPersistence
        /// An identity's leaf certificate.
        public var identity: CredentialObject.IdentitySummary?

        public init(
            kind: String = "password", user: String?, hasPassword: Bool, persistence: CredentialPersistence,
            identity: CredentialObject.IdentitySummary? = nil
        ) {
            (self.kind, self.user, self.hasPassword, self.persistence, self.identity) = (kind, user, hasPassword, persistence, identity)
        }

        enum CodingKeys: String, CodingKey { case kind, user, hasPassword, persistence, identity }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(user, forKey: .user)
            try c.encode(hasPassword, forKey: .hasPassword)
            try c.encode(persistence, forKey: .persistence)
            if let identity { try c.encode(identity, forKey: .identity) }
        }
    }

    /// Nil for `session.didReceiveChallenge`, which URLSession calls without the task when the task's
    /// delegate does not implement the method.
    public var task: TaskSummary?
    public var challenge: Challenge

    public init(
        task: TaskSummary?, space: ProtectionSpace, previousFailureCount: Int, failureResponse: HTTPResponseSnapshot?,
        proposedCredential: ProposedCredential? = nil, serverTrust: ServerTrustData? = nil
    ) {
        self.task = task
        self.challenge = Challenge(
            protectionSpace: space, previousFailureCount: previousFailureCount, failureResponse: failureResponse,
            proposedCredential: proposedCredential, serverTrust: serverTrust)
    }
}

/// A server-trust challenge's `SecTrust`: the chain the server presented (leaf first) and what the
/// system's evaluation (the trust store, the service's and the session's anchors, the host name) says.
public struct ServerTrustData: Encodable, Sendable {
    public struct Certificate: Encodable, Sendable {
        public var subject: String
        public var issuer: String
        public var serialNumber: String
        public var notValidBefore: Date
        public var notValidAfter: Date
        /// SHA-256 of the certificate (hex) and of its public key (base64, as pins write it).
        public var sha256: String
        public var spkiSha256: String
        public var subjectAlternativeNames: [String]
        public var pem: String

        public init(
            subject: String, issuer: String, serialNumber: String, notValidBefore: Date, notValidAfter: Date, sha256: String,
            spkiSha256: String, subjectAlternativeNames: [String], pem: String
        ) {
            (self.subject, self.issuer, self.serialNumber) = (subject, issuer, serialNumber)
            (self.notValidBefore, self.notValidAfter, self.sha256, self.spkiSha256) = (notValidBefore, notValidAfter, sha256, spkiSha256)
            (self.subjectAlternativeNames, self.pem) = (subjectAlternativeNames, pem)
        }
    }

    /// `SecTrustEvaluateWithError`: trusted, or the error the task fails with by default.
    public struct Evaluation: Encodable, Sendable {
        public var trusted: Bool
        public var error: TransferError?

        public init(trusted: Bool, error: TransferError?) {
            (self.trusted, self.error) = (trusted, error)
        }

        enum CodingKeys: String, CodingKey { case trusted, error }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(trusted, forKey: .trusted)
            try c.encode(error, forKey: .error)
        }
    }

    public var host: String
    public var certificates: [Certificate]
    public var evaluation: Evaluation

    public init(host: String, certificates: [Certificate], evaluation: Evaluation) {
        (self.host, self.certificates, self.evaluation) = (host, certificates, evaluation)
    }
}
