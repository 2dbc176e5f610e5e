import Certificates
import Foundation
import Logging
public import TransferEngine
import TransferModels
import TransferStore

extension TaskService {
    /// Appends a decision event, waits for the delegate's answer and hands it to `resolve` — off the
    /// engine's loop thread, so one waiting task never holds up another.
    func decide(_ event: PendingEvent, timeout: Duration, resolve: @escaping @Sendable (DelegateAnswer?) async -> Void) {
        let eventId = event.id ?? ResourceID.make(prefix: "evt")
        var event = event
        event.id = eventId
        writer.append([event])
        Task { [decisions] in
            await resolve(await decisions.answer(toEvent: eventId, within: timeout))
        }
    }

    /// Appends a decision event and waits for its answer (nil: none).
    func askDelegate(_ event: PendingEvent, timeout: Duration) async -> DelegateAnswer? {
        await withCheckedContinuation { continuation in
            decide(event, timeout: timeout) { answer in continuation.resume(returning: answer) }
        }
    }

    // MARK: task.willPerformHTTPRedirection

    public func transfer(_ transfer: TransferID, asksToRedirect response: ResponseHead, to request: OutgoingRequest) {
        guard let task = table.attempt(transfer), let base = task.record.originalRequest else {
            return engine.resolveRedirect(transfer, .follow(request))
        }
        // Asked only for a streamed body when the delegate does not decide redirects.
        guard task.decidesRedirects else { return engine.resolveRedirect(transfer, withNewBodyStream(.follow(request), for: transfer)) }
        let current = writer.queue { $0.responses[transfer.taskId]?.currentRequest?.url } ?? base.url
        let head = HTTPResponseSnapshot(url: current, statusCode: response.statusCode, headerLines: response.fields)
        let proposed = RequestSnapshots.snapshot(of: request, basedOn: base)
        decide(task.event { .willPerformHTTPRedirection($0, response: head, request: proposed) }, timeout: task.decisionTimeout) {
            [self] answer in
            engine.resolveRedirect(transfer, withNewBodyStream(redirectDisposition(answer, proposed: request, task: task), for: transfer))
        }
    }

    /// `{"disposition": "follow"}` (the proposed request), `{"disposition": "follow", "request": {...}}`
    /// (the delegate's own), `{"disposition": "reject"}`; anything else follows, as URLSession does without
    /// the method.
    func redirectDisposition(_ answer: DelegateAnswer?, proposed: OutgoingRequest, task: ActiveTask) -> RedirectDisposition {
        guard let answer = answer?.allowing([.request]) else { return .follow(proposed) }
        switch answer.disposition {
        case "reject":
            return .reject
        case "follow":
            guard let input = answer.request else { return .follow(proposed) }
            do {
                // A redirect stays on http and https, as CURLOPT_REDIR_PROTOCOLS_STR does: never to file: or ftp:.
                let snapshot = try input.validated(kind: .data, session: task.configuration, allowedSchemes: URLRequestInput.webSchemes)
                return .follow(
                    OutgoingRequest(
                        url: snapshot.url, method: snapshot.httpMethod,
                        headers: JobFactory.mergedHeaders(
                            request: snapshot.allHTTPHeaderFields, session: task.configuration.httpAdditionalHeaders),
                        body: snapshot.httpBody.map { .bytes(Array($0)) } ?? .none))
            } catch {
                logger.warning(
                    "A redirect decision's request is invalid; following the proposed one",
                    metadata: ["task.id": "\(task.record.id)", "error": "\(error)"])
                return .follow(proposed)
            }
        default:
            return .follow(proposed)
        }
    }

    // MARK: dataTask.didReceiveResponse

    public func transfer(_ transfer: TransferID, asksAbout response: ResponseHead, for request: OutgoingRequest) {
        guard let task = table.attempt(transfer) else { return engine.resolveResponse(transfer, .allow) }
        let snapshot = HTTPResponseSnapshot(url: request.url, statusCode: response.statusCode, headerLines: response.fields)
        decide(task.event { .didReceiveResponse($0, response: snapshot) }, timeout: task.decisionTimeout) { [self] answer in
            engine.resolveResponse(transfer, await responseDisposition(answer, task: task))
        }
    }

    /// `allow` | `cancel` | `becomeDownload` (data tasks; the body then goes to a file, and
    /// `dataTask.didBecomeDownloadTask` comes first); anything else allows, as URLSession does without
    /// the method.
    func responseDisposition(_ answer: DelegateAnswer?, task: ActiveTask) async -> ResponseDisposition {
        guard let answer = answer?.allowing([]) else { return .allow }
        switch answer.disposition {
        case "cancel":
            return .cancel
        case "becomeDownload" where task.record.kind == .data:
            let id = task.record.id
            do {
                try await store.tasks.becomeDownload(taskId: id)
            } catch {
                logger.error("Making a data task a download failed", metadata: ["task.id": "\(id)", "error": "\(error)"])
                return .allow
            }
            let path = files.newPartialPath(of: id)
            let became = table.withLock { state -> PendingEvent? in
                guard var current = state.entries[id]?.attempt, current.number == task.number else { return nil }
                let before = current.summary
                current.record.kind = .download
                current.partialPath = path
                state.entries[id]?.attempt = current
                return PendingEvent(
                    sessionId: current.record.sessionId, taskId: id,
                    event: .didBecomeDownloadTask(before, downloadTask: current.summary))
            }
            guard let became else { return .allow }
            writer.append([became])
            return .becomeDownload(path: path)
        default:
            return .allow
        }
    }

    // MARK: task.didReceiveChallenge, session.didReceiveChallenge

    public func transfer(_ transfer: TransferID, asksAbout challenge: AuthenticationChallenge) {
        guard let task = table.attempt(transfer), let method = task.challengeMethod(for: challenge.method) else {
            return engine.resolveChallenge(transfer, .performDefaultHandling)
        }
        let space = challenge.protectionSpace
        let placement = CredentialStorages.placement(
            tenant: task.record.tenant, sessionId: task.record.sessionId, configuration: task.configuration)
        Task {
            // The storage was read when the job was made: this finds it in memory.
            var storage: CredentialStorage?
            if let placement { storage = try? await credentialStorages.storage(placement) }
            let data = ChallengeEventData(
                task: method == .taskDidReceiveChallenge ? task.summary : nil, space: space,
                previousFailureCount: challenge.previousFailureCount,
                failureResponse: challenge.failureResponse.map {
                    HTTPResponseSnapshot(url: challenge.request.url, statusCode: $0.statusCode, headerLines: $0.fields)
                },
                proposedCredential: storage.flatMap { Self.proposedCredential(for: challenge, in: $0) },
                serverTrust: challenge.serverTrust.map { Self.serverTrustData($0, challenge: challenge, task: task.record) })
            decide(task.event { _ in .didReceiveChallenge(data, method: method) }, timeout: task.decisionTimeout) { [self] answer in
                let disposition = Self.challengeDisposition(answer, for: challenge)
                if case .useCredential(let credential) = disposition, let placement,
                    let persistence = answer?.credential?.persistence.flatMap(CredentialPersistence.init(rawValue:)), persistence != .none
                {
                    await keep(credential, for: challenge, persistence: persistence, in: placement)
                }
                engine.resolveChallenge(transfer, disposition)
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
            let storage = try await credentialStorages.storage(placement)
            switch credential {
            case .password(let user, let password):
                guard !storage.entries(for: space).contains(where: { $0.user == user && $0.password == password }) else { return }
                try await credentialStorages.add(
                    user: user, password: password, space: space, persistence: kept, makeDefault: false, to: placement)
            case .identity(let identity):
                guard !storage.entries(for: space).contains(where: { $0.identity == identity }) else { return }
                try await credentialStorages.add(
                    user: "", password: "", identity: identity, space: space, persistence: kept, makeDefault: false, to: placement)
            case .serverTrust:
                guard let leaf = challenge.serverTrust?.chain.first else { return }
                let exception = TrustException(certificateSha256: leaf.sha256, spkiSha256: leaf.spkiSha256)
                guard !storage.entries(for: space).contains(where: { $0.trust == exception }) else { return }
                try await credentialStorages.add(
                    user: "", password: "", trust: exception, space: space, persistence: kept, makeDefault: false, to: placement)
            }
        } catch {
            logger.error("Keeping a delegate's credential failed", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// `useCredential` with `{"user", "password"}`, `{"identity": {...}}` or `{"serverTrust": true}` (and a
    /// `persistence`), `performDefaultHandling`, `cancelAuthenticationChallenge`, `rejectProtectionSpace`;
    /// anything else, or a credential that does not fit the challenge, is the default handling. With
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
                guard let user = credential.user, let password = credential.password else { return .performDefaultHandling }
                return .useCredential(.password(user: user, password: password))
            }
        case "cancelAuthenticationChallenge": return .cancelAuthenticationChallenge
        case "rejectProtectionSpace": return .rejectProtectionSpace
        default: return .performDefaultHandling
        }
    }

    // MARK: task.willBeginDelayedRequest

    enum DelayedDisposition {
        case continueLoading, cancel
        case useNewRequest(URLRequestSnapshot)
    }

    /// `{"disposition": "continueLoading" | "cancel"}` or `{"disposition": "useNewRequest", "request": {...}}`;
    /// anything else (or an invalid request) continues.
    func delayedDisposition(_ answer: DelegateAnswer?, task: ActiveTask) -> DelayedDisposition {
        guard let answer = answer?.allowing([.request]) else { return .continueLoading }
        switch answer.disposition {
        case "cancel":
            return .cancel
        case "useNewRequest":
            guard let input = answer.request,
                let snapshot = try? input.validated(kind: task.record.kind, session: task.configuration, allowedSchemes: allowedSchemes)
            else { return .continueLoading }
            return .useNewRequest(snapshot)
        default:
            return .continueLoading
        }
    }

    /// Schemes a substituted request may use: http and https, plus what the operator enabled.
    var allowedSchemes: Set<String> { Set(["http", "https"] + configuration.engine.extraProtocols) }
}
