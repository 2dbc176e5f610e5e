import Curl
import Foundation
import TransferModels

// HTTP authentication challenges (401 and 407) and what the delegate's answer, or the default handling,
// does with them; what the task learns on the way is its `ChallengeState`. The TLS ones (server trust,
// client certificates) are in Transfer+TLS.swift.

/// What answering a challenge comes to.
enum ChallengeAnswer {
    /// The same request goes again, on the same handle (with a credential, or past a TLS decision).
    case sendAgain
    /// Another challenge to answer (the next method offered after a rejected one).
    case nextChallenge(AuthenticationChallenge)
    case done(TransferOutcome)
}

extension Transfer {
    /// The challenge `head` raises for this request, if any.
    func challenge(in head: ResponseHead) -> AuthenticationChallenge? {
        challenges.challenge(in: head, of: request, proxy: job.proxy)
    }

    /// The delegate's answer: the request goes again (with a credential, or past a TLS decision), another
    /// challenge, or the end.
    func resolve(_ challenge: AuthenticationChallenge, _ disposition: ChallengeDisposition) -> ChallengeAnswer {
        switch disposition {
        case .cancelAuthenticationChallenge:
            return .done(outcome(failure: TransferFailure(code: URLErrorCode.cancelled.rawValue, curlCode: 42, message: "cancelled")))
        case .performDefaultHandling:
            return resolveByDefault(challenge)
        case .rejectProtectionSpace:
            guard challenge.failureResponse != nil else { return resolveByDefault(challenge) }  // TLS: nothing else to offer
            challenges.reject(challenge)
            if let next = self.challenge(in: response.head) { return .nextChallenge(next) }
            return acceptChallengeResponse()
        case .useCredential(let credential):
            switch (challenge.method, credential) {
            case (.serverTrust, .serverTrust):
                return acceptServerTrust(challenge)
            case (.clientCertificate, .identity(let identity)):
                return present(identity, for: challenge)
            case (.serverTrust, _), (.clientCertificate, _), (_, .serverTrust), (_, .identity):
                return resolveByDefault(challenge)  // a credential of another kind answers nothing here
            case (_, .password(let user, let password)):
                return send(user: user, password: password, for: challenge)
            }
        }
    }

    /// URLSession's default handling: the stored default credential for the space (once), else the 401.
    /// Negotiate answers with the service's own Kerberos credentials, once.
    func resolveByDefault(_ challenge: AuthenticationChallenge) -> ChallengeAnswer {
        switch challenge.method {
        case .serverTrust: return trustByDefault(challenge)
        case .clientCertificate: return presentByDefault(challenge)
        case .negotiate:
            guard challenges.triesNegotiate(for: challenge) else { return acceptChallengeResponse() }
            return send(user: "", password: "", for: challenge)
        case .basic, .digest, .ntlm:
            guard
                let credential = challenges.defaultCredential(for: challenge, in: job.credentials)
                    ?? challenges.urlCredential(for: challenge, url: request.url)
            else { return acceptChallengeResponse() }
            return send(user: credential.user, password: credential.password, for: challenge)
        }
    }

    /// The request goes again with a credential (the 401's body is dropped).
    private func send(user: String, password: String, for challenge: AuthenticationChallenge) -> ChallengeAnswer {
        challenges.answer(challenge, user: user, password: password)
        return .sendAgain
    }

    /// The delegate gave no credential: the 401 is the task's response, with its body.
    func acceptChallengeResponse() -> ChallengeAnswer {
        deliver(response.head)
        return .done(finishBody())
    }
}
