import Certificates
import Foundation
import Logging
import TransferEngine
import TransferModels
import TransferStore

extension DelegateQuestions {
    // MARK: task.didReceiveChallenge, session.didReceiveChallenge

    /// Asked with the method the task's delegate implements (the task's or the session's); the stored
    /// default handling otherwise. A credential given with `forSession` or `permanent` persistence is kept.
    func challenge(
        _ transfer: TransferID, _ challenge: AuthenticationChallenge, resolve: @escaping @Sendable (ChallengeDisposition) -> Void
    ) {
        guard let task = table.attempt(transfer), let method = task.challengeMethod(for: challenge.method) else {
            return resolve(.performDefaultHandling)
        }
        let space = challenge.protectionSpace
        let placement = CredentialStorages.placement(
            tenant: task.record.tenant, sessionId: task.record.sessionId, configuration: task.configuration)
        Task {
            // The storage was read when the job was made: this finds it in memory.
            var storage: CredentialStorage?
            if let placement { storage = try? await credentials.storage(placement) }
            let data = ChallengeEventData(
                task: method == .taskDidReceiveChallenge ? task.summary : nil, space: space,
                previousFailureCount: challenge.previousFailureCount,
                failureResponse: challenge.failureResponse.map {
                    HTTPResponseSnapshot(url: challenge.request.url, statusCode: $0.statusCode, headerLines: $0.fields)
                },
                proposedCredential: storage.flatMap { Self.proposedCredential(for: challenge, in: $0) },
                serverTrust: challenge.serverTrust.map { Self.serverTrustData($0, challenge: challenge, task: task.record) })
            ask(task.event { _ in .didReceiveChallenge(data, method: method) }, timeout: task.decisionTimeout) { [self] answer in
                let disposition = Self.challengeDisposition(answer, for: challenge)
                if case .useCredential(let credential) = disposition, let placement,
                    let persistence = answer?.credential?.persistence.flatMap(CredentialPersistence.init(rawValue:)), persistence != .none
                {
                    await keep(credential, for: challenge, persistence: persistence, in: placement)
                }
                resolve(disposition)
            }
        }
    }

    /// What a challenge proposes (`proposedCredential`): the stored default for an HTTP space, the
    /// stored identity for a certificate request; never a secret.
    private static func proposedCredential(for challenge: AuthenticationChallenge, in storage: CredentialStorage)
        -> ChallengeEventData.ProposedCredential?
    {
        switch challenge.method {
        case .serverTrust: return nil
        case .clientCertificate:
            guard let identity = storage.clientIdentity(host: challenge.host, port: challenge.port),
                let leaf = try? Certificates.parsePEM(identity.certificateChain).first
            else { return nil }
            return ChallengeEventData.ProposedCredential(
                kind: "identity", user: nil, hasPassword: false, persistence: .permanent,
                identity: CredentialObject.IdentitySummary(
                    subject: leaf.subject, issuer: leaf.issuer, sha256: leaf.sha256, notValidAfter: leaf.notValidAfter))
        default:
            return storage.defaultEntry(for: challenge.protectionSpace).map {
                ChallengeEventData.ProposedCredential(user: $0.user, hasPassword: !$0.password.isEmpty, persistence: $0.persistence)
            }
        }
    }

    private static func serverTrustData(_ trust: ServerTrust, challenge: AuthenticationChallenge, task: TaskRecord) -> ServerTrustData {
        ServerTrustData(
            host: challenge.host,
            certificates: trust.chain.map {
                ServerTrustData.Certificate(
                    subject: $0.subject, issuer: $0.issuer, serialNumber: $0.serialNumber, notValidBefore: $0.notValidBefore,
                    notValidAfter: $0.notValidAfter, sha256: $0.sha256, spkiSha256: $0.spkiSha256,
                    subjectAlternativeNames: $0.subjectAlternativeNames, pem: $0.pem)
            },
            evaluation: ServerTrustData.Evaluation(
                trusted: trust.failure == nil,
                error: trust.failure.map { TaskCompleter.transferError($0, url: challenge.request.url, task: task) }))
    }

    /// A credential the delegate gave with `forSession` or `permanent` persistence is stored for its
    /// space (its default when the space has none), as URLSession stores it in the session's storage.
    /// An accepted server trust is kept as a trust exception for the leaf the challenge showed.
    private func keep(
        _ credential: ChallengeCredential, for challenge: AuthenticationChallenge, persistence: CredentialPersistence,
        in placement: CredentialStorages.Placement
    ) async {
        let space = challenge.protectionSpace
        let kept: CredentialPersistence = persistence == .forSession ? .forSession : .permanent
        do {
            let storage = try await credentials.storage(placement)
            switch credential {
            case .password(let user, let password):
                guard !storage.entries(for: space).contains(where: { $0.user == user && $0.password == password }) else { return }
                try await credentials.add(
                    user: user, password: password, space: space, persistence: kept, makeDefault: false, to: placement)
            case .identity(let identity):
                guard !storage.entries(for: space).contains(where: { $0.identity == identity }) else { return }
                try await credentials.add(
                    user: "", password: "", identity: identity, space: space, persistence: kept, makeDefault: false, to: placement)
            case .serverTrust:
                guard let leaf = challenge.serverTrust?.chain.first else { return }
                let exception = TrustException(certificateSha256: leaf.sha256, spkiSha256: leaf.spkiSha256)
                guard !storage.entries(for: space).contains(where: { $0.trust == exception }) else { return }
                try await credentials.add(
                    user: "", password: "", trust: exception, space: space, persistence: kept, makeDefault: false, to: placement)
            }
        } catch {
            logger.error("Keeping a delegate's credential failed", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// `useCredential` with `{"user", "password"}`, `{"identity": {...}}` or `{"serverTrust": true}` (and a
    /// `persistence`), `performDefaultHandling`, `cancelAuthenticationChallenge`, `rejectProtectionSpace`;
    /// anything else, or a credential that does not fit the challenge (or holds a NUL), is the default handling. With
    /// persistence `none` (the default) the credential is used for this task only.
    static func challengeDisposition(_ answer: DelegateAnswer?, for challenge: AuthenticationChallenge) -> ChallengeDisposition {
        guard let answer = answer?.allowing([.credential]) else { return .performDefaultHandling }
        switch answer.disposition {
        case "useCredential":
            guard let credential = answer.credential else { return .performDefaultHandling }
            switch challenge.method {
            case .serverTrust:
                return credential.serverTrust == true ? .useCredential(.serverTrust) : .performDefaultHandling
            case .clientCertificate:
                guard let input = credential.identity, let identity = try? ClientIdentity.make(input, field: "credential.identity") else {
                    return .performDefaultHandling
                }
                return .useCredential(.identity(identity))
            default:
                // A NUL cannot be sent (libcurl takes C strings) nor kept (PostgreSQL's text): no credential.
                guard let user = credential.user, let password = credential.password, !user.utf8.contains(0), !password.utf8.contains(0)
                else { return .performDefaultHandling }
                return .useCredential(.password(user: user, password: password))
            }
        case "cancelAuthenticationChallenge": return .cancelAuthenticationChallenge
        case "rejectProtectionSpace": return .rejectProtectionSpace
        default: return .performDefaultHandling
        }
    }
}
